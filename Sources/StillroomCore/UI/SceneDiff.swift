/// The pixels to repaint between two scenes: dirty rectangles.
///
/// Nodes are matched by `NodeID`. A node that appeared, went away, changed, or moved in the stacking
/// order dirties its old and new bounds; an unchanged node dirties nothing (it is repainted only where
/// it overlaps a dirty rectangle). A different size or background, duplicate ids or no previous scene
/// dirty the whole screen. Rectangles are clipped to the screen, rounded out to whole pixels, and
/// overlapping or touching ones are merged, so a painter can clip to them and a display copy them.
public enum SceneDiff {
    /// More rectangles than this are merged into their bounding box: past a handful, per-rectangle
    /// overhead (clip set-up, one copy each) costs more than the few extra pixels.
    public static let maximumRectangles = 6

    /// Dirty rectangles to go from `old` to `new` (empty when nothing visible changed).
    public static func damage(from old: Scene?, to new: Scene) -> [PixelRect] {
        let screen = PixelRect(size: new.size)
        guard let old, old.size == new.size, old.background == new.background,
              old.hasUniqueIDs, new.hasUniqueIDs else { return [screen] }

        var regions: [Rect] = []
        var oldByID: [NodeID: SceneNode] = [:]
        for node in old.nodes { oldByID[node.id] = node }
        let newIDs = Set(new.nodes.map(\.id))

        for node in new.nodes {
            if let before = oldByID[node.id] {
                if before != node {
                    regions.append(visibleBounds(before))
                    regions.append(visibleBounds(node))
                }
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

    /// Merges overlapping or touching rectangles until none overlap; past `maximumRectangles`, the
    /// bounding box. The result is sorted (top to bottom, left to right) so it is deterministic.
    public static func merge(_ rects: [PixelRect]) -> [PixelRect] {
        var pending = rects.filter { !$0.isEmpty }
        var merged: [PixelRect] = []
        while var current = pending.popLast() {
            var grew = true
            while grew {
                grew = false
                var index = 0
                while index < pending.count {
                    if current.touches(pending[index]) {
                        current = current.union(pending.remove(at: index))
                        grew = true
                    } else {
                        index += 1
                    }
                }
                // A rectangle that grew may now touch one already set aside.
                var setAside = 0
                while setAside < merged.count {
                    if current.touches(merged[setAside]) {
                        current = current.union(merged.remove(at: setAside))
                        grew = true
                    } else {
                        setAside += 1
                    }
                }
            }
            merged.append(current)
        }
        if merged.count > maximumRectangles {
            return [merged.dropFirst().reduce(merged[0]) { $0.union($1) }]
        }
        return merged.sorted { ($0.y, $0.x, $0.height, $0.width) < ($1.y, $1.x, $1.height, $1.width) }
    }

    private static func visibleBounds(_ node: SceneNode) -> Rect {
        node.isInvisible ? Rect(x: 0, y: 0, width: 0, height: 0) : node.bounds
    }
}
