import StillroomCore

/// Which rectangles each of two scan-out buffers lacks.
///
/// With double buffering, the buffer drawn into next is two frames old: it lacks this frame's damage
/// and the previous frame's too. Every present adds its damage to both buffers' lists; copying into a
/// buffer takes (and clears) that buffer's list. Both start needing the whole screen.
public struct SwapChainDamage: Sendable {
    private var stale: [[PixelRect]]

    public init(size: PixelSize) {
        stale = [[PixelRect(size: size)], [PixelRect(size: size)]]
    }

    /// Records damage that both buffers now lack.
    public mutating func add(_ damage: [PixelRect]) {
        for index in 0..<2 { stale[index] = SceneDiff.merge(stale[index] + damage) }
    }

    /// The rectangles to copy into `buffer` (0 or 1) to bring it up to date; they are then cleared.
    public mutating func take(for buffer: Int) -> [PixelRect] {
        defer { stale[buffer] = [] }
        return stale[buffer]
    }

    /// What `buffer` lacks now (without clearing it).
    public func pending(for buffer: Int) -> [PixelRect] { stale[buffer] }
}
