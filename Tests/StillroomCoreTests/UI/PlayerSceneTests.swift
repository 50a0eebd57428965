import Testing
import StillroomCore

@Suite struct PlayerSceneTests {
    static let sizes = [PixelSize(width: 800, height: 480), PixelSize(width: 480, height: 320), PixelSize(width: 320, height: 240)]

    func model(breath: BreathState? = BreathState(phase: .inhale, expansion: 0.3, progress: 0.4), playing: Bool = true,
               elapsed: Duration = .seconds(83)) -> PlayerModel {
        PlayerModel(title: "Evening wind-down", themeLabel: "Unwind", elapsed: elapsed, duration: .seconds(300),
                    isPlaying: playing, breath: breath)
    }

    @Test(arguments: sizes, [false, true])
    func everyNodeIsOnScreenWithItsOwnID(_ size: PixelSize, _ largeText: Bool) {
        for appearance in Appearance.allCases {
            let tokens = DesignTokens(appearance: appearance, screen: size, largeText: largeText)
            var withNotice = model()
            withNotice.notice = "Headphones unplugged"
            let scene = PlayerScene.make(withNotice, tokens: tokens)
            #expect(scene.hasUniqueIDs)
            #expect(scene.size == size)
            let screen = Rect(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
            for node in scene.nodes {
                let b = node.bounds
                #expect(b.minX >= 0 && b.minY >= 0 && b.maxX <= screen.maxX && b.maxY <= screen.maxY,
                        "\(node.id) at \(b) leaves the \(size) screen")
            }
            // The text column does not run into the circle.
            let circle = PlayerScene.circleGeometry(tokens)
            if case .text(let title)? = scene.node(PlayerScene.IDs.title)?.content {
                #expect(title.frame.minX > circle.center.x + circle.maximumRadius)
                #expect(title.size >= TypeScale.minimumSize)
            } else {
                Issue.record("no title")
            }
        }
    }

    /// Between two breathing frames only the circle moves: the diff is the circle's box.
    @Test(arguments: sizes)
    func breathingFramesDirtyOnlyTheCircle(_ size: PixelSize) {
        let tokens = DesignTokens(appearance: .night, screen: size)
        let a = PlayerScene.make(model(breath: BreathState(phase: .inhale, expansion: 0.30, progress: 0.4)), tokens: tokens)
        let b = PlayerScene.make(model(breath: BreathState(phase: .inhale, expansion: 0.32, progress: 0.41)), tokens: tokens)
        let changed = Set(zip(a.nodes, b.nodes).filter { $0 != $1 }.map(\.0.id))
        #expect(changed == [PlayerScene.IDs.halo, PlayerScene.IDs.body, PlayerScene.IDs.edge])
        let damage = SceneDiff.damage(from: a, to: b)
        // The halo is the outermost part of the circle, and it grew: its new box is the damage.
        #expect(damage == [PixelRect(enclosing: b.node(PlayerScene.IDs.halo)!.bounds)])
        #expect(a.isAnimating && b.isAnimating)
    }

    @Test func pausedOrReducedMotionDoesNotAnimate() {
        let tokens = DesignTokens(appearance: .day, screen: PixelSize(width: 800, height: 480))
        #expect(!PlayerScene.make(model(playing: false), tokens: tokens).isAnimating)
        #expect(!PlayerScene.make(model(breath: nil), tokens: tokens).isAnimating)
        let still = PlayerScene.make(model(breath: BreathState(phase: .inhale, expansion: 0.1, progress: 0.1)), tokens: tokens, reducedMotion: true)
        let later = PlayerScene.make(model(breath: BreathState(phase: .inhale, expansion: 0.9, progress: 0.9)), tokens: tokens, reducedMotion: true)
        #expect(!still.isAnimating)
        #expect(SceneDiff.damage(from: still, to: later).isEmpty)
        let exhaling = PlayerScene.make(model(breath: BreathState(phase: .exhale, expansion: 0.9, progress: 0.1)), tokens: tokens, reducedMotion: true)
        #expect(SceneDiff.damage(from: still, to: exhaling) == [PixelRect(enclosing: still.node(PlayerScene.IDs.phase)!.bounds)])
    }

    /// Progress that moves less than a pixel of bar changes nothing on screen.
    @Test func progressMovesInWholePixels() {
        let tokens = DesignTokens(appearance: .day, screen: PixelSize(width: 800, height: 480))
        let a = PlayerScene.make(model(breath: nil, elapsed: .milliseconds(83_000)), tokens: tokens)
        let b = PlayerScene.make(model(breath: nil, elapsed: .milliseconds(83_100)), tokens: tokens)
        #expect(a == b)
        let c = PlayerScene.make(model(breath: nil, elapsed: .milliseconds(84_000)), tokens: tokens)
        let changed = Set(zip(a.nodes, c.nodes).filter { $0 != $1 }.map(\.0.id))
        #expect(changed.isSubset(of: [PlayerScene.IDs.progress, PlayerScene.IDs.elapsed, PlayerScene.IDs.remaining]))
        #expect(changed.contains(PlayerScene.IDs.elapsed))
    }

    @Test func clockText() {
        #expect(PlayerScene.clock(0) == "0:00")
        #expect(PlayerScene.clock(83.9) == "1:23")
        #expect(PlayerScene.clock(3_599) == "59:59")
        #expect(PlayerScene.clock(3_600) == "1:00:00")
        #expect(PlayerScene.clock(-5) == "0:00")
        #expect(PlayerScene.phaseText(.exhale, playing: true) == "Breathe out")
        #expect(PlayerScene.phaseText(.exhale, playing: false) == "Paused")
    }

    @Test func clockAndBarChangeAtTheNextSecondOrPixel() {
        let tokens = DesignTokens(appearance: .day, screen: PixelSize(width: 800, height: 480))
        // 300 s over a 328 px bar: here the clock's next second comes before the bar's next pixel.
        #expect(abs(PlayerScene.secondsUntilClockOrBarChanges(position: 83.25, duration: 300, tokens: tokens) - 0.75) < 1e-9)
        // A long recording: bar pixels are far apart, the clock still ticks every second.
        #expect(abs(PlayerScene.secondsUntilClockOrBarChanges(position: 12.5, duration: 3_600, tokens: tokens) - 0.5) < 1e-9)
        // A very short one: the bar moves faster than the clock.
        #expect(PlayerScene.secondsUntilClockOrBarChanges(position: 1.0, duration: 30, tokens: tokens) < 0.2)
    }
}
