import CairoPainter
import StillroomCore
import Testing

/// The painter redraws only the damage, and the damage covers exactly what changed.
@Suite struct DirtyRectangleTests {
    /// Renders `a` then `b` on one painter (incrementally), and `a` and `b` each on a fresh painter.
    func compare(_ a: Scene, _ b: Scene) throws -> (damage: [PixelRect], incremental: Frame, fullA: Frame, fullB: Frame) {
        let painter = try ScenePainter(size: a.size)
        painter.render(a)
        let damage = painter.render(b)
        let fullA = try ScenePainter(size: a.size), fullB = try ScenePainter(size: b.size)
        fullA.render(a)
        fullB.render(b)
        return (damage, painter.frame, fullA.frame, fullB.frame)
    }

    static let pairs: [(String, Scene, Scene)] = {
        let size = SampleScenes.reference, small = SampleScenes.small
        return [
            ("breathing frame", SampleScenes.player(size, .day, expansion: 0.40), SampleScenes.player(size, .day, expansion: 0.42)),
            ("breathing frame, small night", SampleScenes.player(small, .night, expansion: 0.9), SampleScenes.player(small, .night, expansion: 0.88)),
            ("a second passes", SampleScenes.player(size, .day, elapsed: .seconds(83)), SampleScenes.player(size, .day, elapsed: .seconds(84))),
            ("pause with a notice", SampleScenes.player(size, .night), SampleScenes.player(size, .night, playing: false, notice: "Output lost")),
            ("new title", SampleScenes.player(size, .day), SampleScenes.player(size, .day, title: "Morning focus")),
        ]
    }()

    @Test(arguments: pairs.indices)
    func incrementalFrameEqualsAFullRedraw(_ index: Int) throws {
        let (name, a, b) = Self.pairs[index]
        let result = try compare(a, b)
        let comparison = FrameComparison(result.fullB, result.incremental)
        // Where a clip edge cuts an anti-aliased edge pixel (the still guide ring at the damage's
        // corners), cairo's fast rasteriser may give its coverage a step or two differently; anything
        // more is a real difference. Count such pixels too: a handful, not a region.
        #expect(FrameComparison(result.fullB, result.incremental, tolerance: 0).mismatchedPixels < 50)
        #expect(comparison.largestDifference <= 4, "\(name): incremental differs by \(comparison.largestDifference) in \(String(describing: comparison.changedArea))")
    }

    @Test(arguments: pairs.indices)
    func everyChangedPixelIsInsideTheDamage(_ index: Int) throws {
        let (name, a, b) = Self.pairs[index]
        let result = try compare(a, b)
        #expect(!result.damage.isEmpty)
        var outside = 0
        for y in 0..<a.size.height {
            for x in 0..<a.size.width where (result.fullA[x, y] ^ result.fullB[x, y]) & 0x00FF_FFFF != 0 {
                if !result.damage.contains(where: { $0.contains(x: x, y: y) }) { outside += 1 }
            }
        }
        #expect(outside == 0, "\(name): \(outside) changed pixels outside \(result.damage)")
    }

    /// A breathing frame's damage is the circle's box, and the circle does fill it: nothing else on
    /// screen is repainted, and little of the box is wasted.
    @Test func breathingDamageIsTheCirclesBoxAndTight() throws {
        let a = SampleScenes.player(SampleScenes.reference, .day, expansion: 0.40)
        let b = SampleScenes.player(SampleScenes.reference, .day, expansion: 0.42)
        let result = try compare(a, b)
        #expect(result.damage == [PixelRect(enclosing: b.node(PlayerScene.IDs.halo)!.bounds)])
        let changed = FrameComparison(result.fullA, result.fullB).changedArea!
        #expect(result.damage[0].contains(changed))
        // The changed pixels reach the damage's edges (within a pixel or two of anti-aliasing).
        #expect(changed.width >= result.damage[0].width - 4 && changed.height >= result.damage[0].height - 4)
    }

    @Test func outsideTheDamageNothingIsTouched() throws {
        let painter = try ScenePainter(size: SampleScenes.reference)
        painter.render(SampleScenes.player(SampleScenes.reference, .day))
        // Scribble on the frame outside the next damage: a painter that drew everything would erase it.
        painter.frame[5, 5] = 0xFFFF_0000
        let damage = painter.render(SampleScenes.player(SampleScenes.reference, .day, expansion: 0.61))
        #expect(!damage.contains { $0.contains(x: 5, y: 5) })
        #expect(painter.frame[5, 5] == 0xFFFF_0000)
    }

    @Test func anUnchangedSceneDrawsNothing() throws {
        let painter = try ScenePainter(size: SampleScenes.small)
        let scene = SampleScenes.player(SampleScenes.small, .night)
        #expect(painter.render(scene) == [PixelRect(size: SampleScenes.small)])
        #expect(painter.render(scene).isEmpty)
        painter.invalidate()
        #expect(painter.render(scene) == [PixelRect(size: SampleScenes.small)])
    }

    /// Text is laid out once and reused while it stays the same: the breathing label is drawn on every
    /// circle frame but shaped once.
    @Test func layoutsAreReusedAcrossBreathingFrames() throws {
        let painter = try ScenePainter(size: SampleScenes.reference)
        painter.render(SampleScenes.player(SampleScenes.reference, .day, expansion: 0.1))
        let made = painter.layoutsMade
        for step in 1...20 {
            painter.render(SampleScenes.player(SampleScenes.reference, .day, expansion: 0.1 + Double(step) * 0.02))
        }
        #expect(painter.layoutsMade == made)
        painter.render(SampleScenes.player(SampleScenes.reference, .day, elapsed: .seconds(84)))
        #expect(painter.layoutsMade == made + 2) // elapsed and remaining
    }
}

/// The daemon's own player, painted frame by frame through a breath as the screen driver paints it (only
/// the damage), is pixel for pixel the same as painting each frame whole: the guide ring skipped while the
/// circle moves inside it and otherwise painted through its kept mask, the body filled without
/// anti-aliasing under its edge, and text blitted from its kept image leave no trace. (Stroked in place,
/// the still guide ring's edge pixels at a damage rectangle's border came out a little differently from
/// cairo's clipped rasteriser, by up to 11 levels, and stayed so.)
@Suite struct BreathingPlayerRepaintTests {
    @Test func everyFrameOfABreathMatchesAFullRedraw() throws {
        let size = PixelSize(width: 800, height: 480)
        guard let state = InterfaceSamples.states(appearance: .day, textSize: .regular).first(where: { $0.name == "player" }) else {
            Issue.record("no player sample")
            return
        }
        let painter = try ScenePainter(size: size)
        let builder = InterfaceScene(measurer: painter.textMeasurer)
        var now = state.now
        painter.render(builder.scene(state.interface, model: state.model, size: size, now: now))
        var drawn = 0, guideSkipped = false, guideCut = false
        for _ in 0..<150 { // ten seconds at the animation's 15 frames a second
            now = now + .nanoseconds(66_666_667)
            let scene = builder.scene(state.interface, model: state.model, size: size, now: now)
            let damage = painter.render(scene)
            guard !damage.isEmpty else { continue }
            drawn += 1
            let whole = try ScenePainter(size: size)
            whole.render(scene)
            let comparison = FrameComparison(whole.frame, painter.frame)
            #expect(comparison.largestDifference == 0, "frame \(drawn) differs by \(comparison.largestDifference) in \(String(describing: comparison.changedArea))")
            guard case .circle(let guide)? = scene.node("breath.guide")?.content else {
                Issue.record("no guide ring")
                return
            }
            let corners = damage.map { Self.farthestCorner($0, from: guide.center) }
            if corners.allSatisfy({ $0 < guide.radius - 2 }) { guideSkipped = true }
            if corners.contains(where: { $0 > guide.radius + 2 }) { guideCut = true }
        }
        #expect(drawn > 60)
        #expect(guideSkipped) // the breath went well inside the guide ring at least once
        #expect(guideCut) // and the damage cut across the ring at least once
    }

    static func farthestCorner(_ rect: PixelRect, from center: Point) -> Double {
        let dx = max(abs(Double(rect.x) - center.x), abs(Double(rect.maxX) - center.x))
        let dy = max(abs(Double(rect.y) - center.y), abs(Double(rect.maxY) - center.y))
        return (dx * dx + dy * dy).squareRoot()
    }
}
