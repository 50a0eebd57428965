import Testing
import StillroomCore

@Suite struct SceneDiffTests {
    let size = PixelSize(width: 200, height: 100)
    let ground = Color(hex: 0x101010)

    func scene(_ nodes: [SceneNode]) -> Scene { Scene(size: size, background: ground, nodes: nodes) }

    func box(_ id: NodeID, _ x: Double, _ y: Double, _ w: Double, _ h: Double, color: UInt32 = 0xFFFFFF) -> SceneNode {
        SceneNode(id, .rect(RectShape(frame: Rect(x: x, y: y, width: w, height: h), fill: Color(hex: color))))
    }

    @Test func noPreviousSceneOrANewGroundDirtiesEverything() {
        let a = scene([box("a", 1, 1, 5, 5)])
        #expect(SceneDiff.damage(from: nil, to: a) == [PixelRect(size: size)])
        var b = a
        b.background = Color(hex: 0x202020)
        #expect(SceneDiff.damage(from: a, to: b) == [PixelRect(size: size)])
        let other = Scene(size: PixelSize(width: 100, height: 100), background: ground, nodes: a.nodes)
        #expect(SceneDiff.damage(from: a, to: other) == [PixelRect(size: other.size)])
    }

    @Test func sameSceneDirtiesNothing() {
        let a = scene([box("a", 1, 1, 5, 5), box("b", 50, 50, 10, 10)])
        #expect(SceneDiff.damage(from: a, to: a).isEmpty)
        // An animation flag alone changes no pixel.
        var moving = a
        moving.isAnimating = true
        #expect(SceneDiff.damage(from: a, to: moving).isEmpty)
    }

    @Test func aChangedNodeDirtiesItsOldAndNewBounds() {
        let a = scene([box("a", 10, 10, 10, 10), box("b", 100, 10, 10, 10)])
        let b = scene([box("a", 14, 10, 10, 10), box("b", 100, 10, 10, 10)])
        #expect(SceneDiff.damage(from: a, to: b) == [PixelRect(x: 10, y: 10, width: 14, height: 10)])
        let recoloured = scene([box("a", 10, 10, 10, 10, color: 0xFF0000), box("b", 100, 10, 10, 10)])
        #expect(SceneDiff.damage(from: a, to: recoloured) == [PixelRect(x: 10, y: 10, width: 10, height: 10)])
    }

    @Test func farApartChangesStaySeparate() {
        let a = scene([box("a", 10, 10, 10, 10), box("b", 100, 60, 10, 10)])
        let b = scene([box("a", 10, 10, 10, 10, color: 0x00FF00), box("b", 100, 60, 10, 10, color: 0x00FF00)])
        #expect(SceneDiff.damage(from: a, to: b) == [PixelRect(x: 10, y: 10, width: 10, height: 10),
                                                      PixelRect(x: 100, y: 60, width: 10, height: 10)])
    }

    @Test func addedAndRemovedNodesDirtyWhereTheyAreOrWere() {
        let a = scene([box("a", 10, 10, 10, 10)])
        let b = scene([box("a", 10, 10, 10, 10), box("new", 150, 50, 20, 20)])
        #expect(SceneDiff.damage(from: a, to: b) == [PixelRect(x: 150, y: 50, width: 20, height: 20)])
        #expect(SceneDiff.damage(from: b, to: a) == [PixelRect(x: 150, y: 50, width: 20, height: 20)])
    }

    @Test func restackingDirtiesTheNodesThatMoved() {
        let a = scene([box("a", 10, 10, 20, 20), box("b", 20, 20, 20, 20, color: 0xFF0000)])
        let b = scene([box("b", 20, 20, 20, 20, color: 0xFF0000), box("a", 10, 10, 20, 20)])
        #expect(SceneDiff.damage(from: a, to: b) == [PixelRect(x: 10, y: 10, width: 20, height: 20), PixelRect(x: 20, y: 20, width: 20, height: 20)])
    }

    @Test func damageIsClippedToTheScreenAndStrokesAndGlowsCount() {
        let a = scene([SceneNode("c", .circle(CircleShape(center: Point(x: 195, y: 50), radius: 10, stroke: Stroke(Color(hex: 0xFFFFFF), width: 4))))])
        let b = scene([])
        #expect(SceneDiff.damage(from: a, to: b) == [PixelRect(x: 183, y: 38, width: 17, height: 24)])
        let glow = scene([SceneNode("c", .circle(CircleShape(center: Point(x: 50, y: 50), radius: 10, fill: Color(hex: 0xFFFFFF),
                                                               glow: Color(hex: 0xFFFFFF), glowRadius: 20)))])
        #expect(SceneDiff.damage(from: glow, to: b) == [PixelRect(x: 30, y: 30, width: 40, height: 40)])
    }

    @Test func hiddenNodesDirtyNothingUntilShown() {
        let hidden = scene([SceneNode("h", .rect(RectShape(frame: Rect(x: 0, y: 0, width: 10, height: 10), fill: Color(hex: 0xFFFFFF))), opacity: 0)])
        var other = hidden
        other.nodes[0] = SceneNode("h", .rect(RectShape(frame: Rect(x: 50, y: 0, width: 10, height: 10), fill: Color(hex: 0xFFFFFF))), opacity: 0)
        #expect(SceneDiff.damage(from: hidden, to: other).isEmpty)
        let shown = scene([box("h", 50, 0, 10, 10)])
        #expect(SceneDiff.damage(from: other, to: shown) == [PixelRect(x: 50, y: 0, width: 10, height: 10)])
    }

    @Test func duplicateIDsFallBackToTheWholeScreenUnlessTheOrderIsUnchanged() {
        let a = scene([box("a", 1, 1, 2, 2), box("a", 5, 5, 2, 2)])
        // In the same order, nodes are compared side by side, so twins do no harm...
        #expect(SceneDiff.damage(from: a, to: a).isEmpty)
        #expect(SceneDiff.damage(from: a, to: scene([box("a", 1, 1, 2, 2), box("a", 6, 5, 2, 2)]))
                == [PixelRect(x: 5, y: 5, width: 3, height: 2)])
        // ...but matching them by id across a change of order cannot be trusted.
        let b = scene([box("a", 1, 1, 2, 2), box("b", 9, 9, 2, 2), box("a", 5, 5, 2, 2)])
        #expect(SceneDiff.damage(from: a, to: b) == [PixelRect(size: size)])
    }

    @Test func mergeJoinsWhereItWastesLittleAndCapsTheCount() {
        // One inside another, or side by side: joined. Crossing bands: kept apart (their union is mostly waste).
        #expect(SceneDiff.merge([PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 2, y: 2, width: 3, height: 3)])
                == [PixelRect(x: 0, y: 0, width: 10, height: 10)])
        #expect(SceneDiff.merge([PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 10, y: 0, width: 10, height: 10)])
                == [PixelRect(x: 0, y: 0, width: 20, height: 10)])
        let cross = [PixelRect(x: 0, y: 40, width: 100, height: 10), PixelRect(x: 40, y: 0, width: 10, height: 100)]
        #expect(SceneDiff.merge(cross).count == 2)
        // Past the cap, neighbours are joined first; everything stays covered.
        let many = (0..<40).map { PixelRect(x: ($0 % 8) * 40, y: ($0 / 8) * 40, width: 5, height: 5) }
        let capped = SceneDiff.merge(many)
        #expect(capped.count <= SceneDiff.maximumRectangles)
        for rect in many { #expect(capped.contains { $0.contains(rect) }) }
        let few = (0..<3).map { PixelRect(x: $0 * 20, y: 0, width: 5, height: 5) }
        #expect(SceneDiff.merge(few) == few)
        // Rectangles stacked edge to edge with the same columns become one.
        #expect(SceneDiff.merge([PixelRect(x: 0, y: 0, width: 10, height: 4), PixelRect(x: 0, y: 4, width: 10, height: 4)])
                == [PixelRect(x: 0, y: 0, width: 10, height: 8)])
        // Whatever goes in, what comes out covers it and does not overlap.
        let scattered = [PixelRect(x: 3, y: 3, width: 9, height: 4), PixelRect(x: 40, y: 1, width: 3, height: 30),
                         PixelRect(x: 10, y: 5, width: 3, height: 3), PixelRect(x: 60, y: 60, width: 2, height: 2)]
        let merged = SceneDiff.merge(scattered)
        for rect in scattered { #expect(merged.contains { $0.contains(rect) }) }
    }
}
