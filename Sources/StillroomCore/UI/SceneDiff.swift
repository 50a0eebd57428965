/// The pixels to repaint between two scenes: dirty rectangles.
///
/// Nodes are matched by `NodeID`. A node that appeared, went away, changed, or moved in the stacking
/// order dirties its old and new bounds; an unchanged node dirties nothing (it is repainted only where
/// it overlaps a dirty rectangle). A different size or background, no previous scene, or duplicate ids
/// in a changed order dirty the whole screen. Rectangles are clipped to the screen, rounded out to whole pixels, and
/// merged where that wastes little, so a painter can clip to them and a display copy them.
public enum SceneDiff {
    /// More rectangles than this are merged, least wasteful pairs first: past a handful the
    /// per-rectangle overhead (clip boxes, one copy each) costs more than the pixels saved.
    public static let maximumRectangles = 8

    /// Dirty rectangles to go from `old` to `new` (empty when nothing visible changed).
    public static func damage(from old: Scene?, to new: Scene) -> [PixelRect] {
        let screen = PixelRect(size: new.size)
        guard let old, old.size == new.size, old.background == new.background else { return [screen] }
        // The usual frame: the same nodes in the same order, some of them changed. Compared side by side,
        // with no hashing (a breathing frame's diff cost more than painting the label until this).
        if old.nodes.count == new.nodes.count, zip(old.nodes, new.nodes).allSatisfy({ $0.id == $1.id }) {
            var regions: [Rect] = []
            for (before, after) in zip(old.nodes, new.nodes) where before != after {
                regions += changedRegions(from: before, to: after)
            }
            return merge(regions.map { PixelRect(enclosing: $0).intersection(screen) }.filter { !$0.isEmpty })
        }
        guard old.hasUniqueIDs, new.hasUniqueIDs else { return [screen] }

        var regions: [Rect] = []
        var oldByID: [NodeID: SceneNode] = [:]
        for node in old.nodes { oldByID[node.id] = node }
        let newIDs = Set(new.nodes.map(\.id))

        for node in new.nodes {
            if let before = oldByID[node.id] {
                if before != node { regions += changedRegions(from: before, to: node) }
            } else {
                regions.append(visibleBounds(node))
            }
        }
        for node in old.nodes where !newIDs.contains(node.id) {
            regions.append(visibleBounds(node))
        }
        // A restacked node changes what is on top wherever it overlaps others.
        let oldOrder = old.nodes.map(\.id).filter(newIDs.contains)
        let newOrder = new.nodes.map(\.id).filter { oldByID[$0] != nil }
        if oldOrder != newOrder {
            for (index, id) in newOrder.enumerated() where oldOrder[index] != id {
                if let before = oldByID[id] { regions.append(visibleBounds(before)) }
                if let after = new.node(id) { regions.append(visibleBounds(after)) }
            }
        }

        let pixels = regions.map { PixelRect(enclosing: $0).intersection(screen) }.filter { !$0.isEmpty }
        return merge(pixels)
    }

    /// Merges rectangles whose union wastes at most 64 pixels (neighbours in a column, one inside
    /// another); then, while more than `maximumRectangles` are left, the pair whose union wastes least.
    /// Rectangles that merely overlap are not merged (a union of two crossing bands can be mostly
    /// waste, and merging such unions cascades into one big box); painters clip to the union and
    /// displays copy an overlap twice, which costs less. What comes out covers what went in, sorted
    /// (top to bottom, left to right), so it is deterministic.
    public static func merge(_ rects: [PixelRect]) -> [PixelRect] {
        var merged: [PixelRect] = []
        for rect in rects where !rect.isEmpty { absorb(rect, into: &merged) }
        while merged.count > maximumRectangles {
            var best = (waste: Int.max, i: 0, j: 1)
            for i in merged.indices {
                for j in merged.indices where j > i {
                    let waste = merged[i].union(merged[j]).area - merged[i].area - merged[j].area
                        + merged[i].intersection(merged[j]).area
                    if waste < best.waste { best = (waste, i, j) }
                }
            }
            let union = merged[best.i].union(merged[best.j])
            merged.remove(at: best.j)
            merged.remove(at: best.i)
            absorb(union, into: &merged)
        }
        return merged.sorted { ($0.y, $0.x, $0.height, $0.width) < ($1.y, $1.x, $1.height, $1.width) }
    }

    /// Adds `rect` to a list of non-overlapping rectangles, merging as `merge` describes.
    private static func absorb(_ rect: PixelRect, into list: inout [PixelRect]) {
        var current = rect
        var index = 0
        while index < list.count {
            let other = list[index]
            if cheapUnion(current, other) {
                current = current.union(other)
                list.remove(at: index)
                index = 0 // the grown rectangle may now reach one already passed
            } else {
                index += 1
            }
        }
        list.append(current)
    }

    /// Whether the union of two rectangles adds little area they did not already cover.
    private static func cheapUnion(_ a: PixelRect, _ b: PixelRect) -> Bool {
        let union = a.union(b)
        let covered = a.area + b.area - a.intersection(b).area
        return union.area - covered <= 64
    }

    /// What to repaint when a node changed: its old and new bounds.
    ///
    /// (Tried and measured: for a circle that only changed its radius, the ring between its old and
    /// new edge in bands of rectangles is a third of the pixels, but cairo fills slower under a clip of
    /// forty boxes than it saves, so a breathing frame took 1.0 ms instead of 0.6; see performance.md.)
    static func changedRegions(from before: SceneNode, to after: SceneNode) -> [Rect] {
        [visibleBounds(before), visibleBounds(after)]
    }

    private static func visibleBounds(_ node: SceneNode) -> Rect {
        node.isInvisible ? Rect(x: 0, y: 0, width: 0, height: 0) : node.bounds
    }
}
