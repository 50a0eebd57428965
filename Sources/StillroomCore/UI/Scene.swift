/// Everything on screen at one moment: a background and nodes painted in order (later ones on top).
///
/// Scenes are values: the UI builds a new one from its state and `now` whenever something may have
/// changed, and `SceneDiff` finds the pixels that need repainting.
public struct Scene: Hashable, Sendable {
    public var size: PixelSize
    public var background: Color
    public var nodes: [SceneNode]
    /// Whether the scene moves on its own as time passes (a breathing circle): the frame pacer keeps
    /// asking for frames while this is true, and stops when it is false.
    public var isAnimating: Bool
    /// For an animating scene, the earliest moment it can look different (the breathing circle's next
    /// whole-pixel step, the clock's next second): the pacer builds no frame before it, so a slow or
    /// still stretch of an animation costs no wake-ups. Nil: as soon as the frame cap allows.
    public var nextChange: MonotonicInstant?

    public init(size: PixelSize, background: Color, nodes: [SceneNode] = [], isAnimating: Bool = false,
                nextChange: MonotonicInstant? = nil) {
        self.size = size
        self.background = background.withAlpha(1)
        self.nodes = nodes
        self.isAnimating = isAnimating
        self.nextChange = nextChange
    }

    /// The node with `id`, if any.
    public func node(_ id: NodeID) -> SceneNode? { nodes.first { $0.id == id } }

    /// Whether every node has its own identity (the diff relies on it).
    public var hasUniqueIDs: Bool { Set(nodes.map(\.id)).count == nodes.count }
}
