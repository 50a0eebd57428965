import Testing
@testable import StillroomCore

/// The scenes of every screen in every state, built with the core's own text estimate: identities,
/// labels, contrast of every text on what is under it, night colours, motion and pacing.
@Suite struct InterfaceSceneTests {
    static let sizes = [PixelSize(width: 800, height: 480), PixelSize(width: 480, height: 320)]

    /// Every sample state in every look.
    static func everyState() -> [(String, InterfaceSamples.State)] {
        var all: [(String, InterfaceSamples.State)] = []
        for appearance in Appearance.allCases {
            for text in Settings.TextSize.allCases {
                for state in InterfaceSamples.states(appearance: appearance, textSize: text) {
                    all.append(("\(state.name)-\(appearance)-\(text)", state))
                }
            }
        }
        return all
    }

    @Test func everySceneHasUniqueIDsAndStaysOnScreen() {
        let builder = InterfaceScene()
        for (name, state) in Self.everyState() {
            for size in Self.sizes {
                let scene = builder.scene(state.interface, model: state.model, size: size, now: state.now)
                #expect(scene.hasUniqueIDs, "\(name) \(size)")
                #expect(!scene.nodes.isEmpty, "\(name) \(size)")
                for node in scene.nodes {
                    guard case .text(let run) = node.content else { continue }
                    #expect(!run.text.trimmingWhitespace.isEmpty, "\(name) \(size): \(node.id) is empty")
                    for word in ["TODO", "Lorem", "placeholder", "FIXME"] {
                        #expect(!run.text.contains(word), "\(name) \(size): \(node.id) reads \(run.text)")
                    }
                    #expect(run.frame.minX >= 0 && run.frame.maxX <= Double(size.width) + 0.5, "\(name) \(size): \(node.id)")
                }
            }
        }
    }

    @Test func everyFocusStopHasASpokenLabelOnEveryScreen() {
        for (name, state) in Self.everyState() {
            for page in state.interface.stack {
                let items = state.interface.focusItems(on: page.screen, model: state.model)
                for item in items {
                    #expect(!item.label.trimmingWhitespace.isEmpty, "\(name): \(item.key) has no label")
                }
                #expect(Set(items.map(\.key)).count == items.count, "\(name): focus keys repeat on \(page.screen)")
            }
        }
    }

    /// Every text drawn, on whatever is under its middle (a card, a chip, the circle, the ground),
    /// composited as the eye sees it: at least 4.5:1.
    @Test func everyTextMeetsAAOnWhatIsUnderIt() {
        let builder = InterfaceScene()
        var pairs: Set<String> = []
        for (name, state) in Self.everyState() {
            for size in Self.sizes {
                let scene = builder.scene(state.interface, model: state.model, size: size, now: state.now)
                for (index, node) in scene.nodes.enumerated() {
                    guard case .text(let run) = node.content else { continue }
                    let ground = Self.ground(under: run.frame.center, nodes: scene.nodes[..<index], background: scene.background)
                    let ratio = run.color.composited(over: ground).contrastRatio(with: ground)
                    pairs.insert("\(run.color) on \(ground)")
                    #expect(ratio >= 4.5, "\(name) \(size): \(node.id) \(run.color) on \(ground) is \(ratio)")
                }
            }
        }
        #expect(pairs.count > 10)
    }

    /// The colour under `point`: the fills painted before it, in order, over the background.
    static func ground(under point: Point, nodes: ArraySlice<SceneNode>, background: Color) -> Color {
        var color = background
        for node in nodes {
            switch node.content {
            case .rect(let shape):
                let f = shape.frame
                if let fill = shape.fill, point.x >= f.minX, point.x <= f.maxX, point.y >= f.minY, point.y <= f.maxY {
                    color = fill.withAlpha(fill.alpha * node.opacity).composited(over: color)
                }
            case .circle(let shape):
                let dx = point.x - shape.center.x, dy = point.y - shape.center.y
                if let fill = shape.fill, dx * dx + dy * dy <= shape.radius * shape.radius {
                    color = fill.withAlpha(fill.alpha * node.opacity).composited(over: color)
                }
            default: break
            }
        }
        return color
    }

    @Test func nightScenesAreDimWarmAndHaveNoBrightBlue() {
        let builder = InterfaceScene()
        for (name, state) in Self.everyState() where state.model.settings.nightMode == .on {
            let scene = builder.scene(state.interface, model: state.model, size: Self.sizes[0], now: state.now)
            #expect(scene.background.relativeLuminance < 0.01)
            for node in scene.nodes {
                let colors: [Color?]
                switch node.content {
                case .rect(let s): colors = [s.fill, s.stroke?.color]
                case .circle(let s): colors = [s.fill, s.stroke?.color]
                case .polygon(let s): colors = [s.fill, s.stroke?.color]
                case .text(let run): colors = [run.color]
                case .progress(let bar): colors = [bar.fill, bar.track]
                case .image: colors = []
                }
                for color in colors.compactMap({ $0 }) {
                    let seen = color.composited(over: scene.background)
                    #expect(seen.blue <= seen.red, "\(name): \(node.id) \(color) leans blue")
                    #expect(seen.relativeLuminance <= 0.36, "\(name): \(node.id) \(color) is bright")
                }
            }
        }
    }

    @Test func nightComesFromTheSettingAndTheLocalTime() {
        var model = InterfaceSamples.model()
        model.settings.nightMode = .auto
        let ui = Interface()
        model.clock = .init(hour: 22, minute: 0, dateText: "Wednesday 20 May")
        #expect(ui.appearance(model) == .night)
        model.clock = .init(hour: 6, minute: 59, dateText: "Thursday 21 May")
        #expect(ui.appearance(model) == .night)
        model.clock = .init(hour: 7, minute: 0, dateText: "Thursday 21 May")
        #expect(ui.appearance(model) == .day)
        model.clock = nil
        #expect(ui.appearance(model) == .day)
        model.settings.nightMode = .on
        #expect(ui.appearance(model) == .night)
        model.settings.nightMode = .off
        model.clock = .init(hour: 23, minute: 0, dateText: "Wednesday 20 May")
        #expect(ui.appearance(model) == .day)
    }

    func playerScene(reduceMotion: Bool, at seconds: Double, phase: PlayerPhase = .playing) -> Scene {
        var model = InterfaceSamples.playing(InterfaceSamples.model(), phase: phase, position: 46.601)
        model.settings.reduceMotion = reduceMotion
        let ui = Interface(showing: [Page(.player)])
        let now = InterfaceSamples.now + .nanoseconds(Int64(seconds * 1e9))
        return InterfaceScene().scene(ui, model: model, size: Self.sizes[0], now: now)
    }

    /// The body's radius, and how strongly it glows: how far its (opaque) colour stands from the background.
    func body(_ scene: Scene) -> (radius: Double, glow: Double) {
        guard case .circle(let circle)? = scene.node("breath.body")?.content, let fill = circle.fill else { return (0, 0) }
        return (circle.radius, fill.distance(to: scene.background))
    }

    func label(_ scene: Scene) -> String {
        guard case .text(let run)? = scene.node("breath.phase")?.content else { return "" }
        return run.text
    }

    @Test func theCircleFollowsTheRecordingsBreathCues() {
        // The cues: in for 4 s from 46.6 s, out for 6 s.
        let start = playerScene(reduceMotion: false, at: 0), full = playerScene(reduceMotion: false, at: 4),
            out = playerScene(reduceMotion: false, at: 7)
        #expect(body(start).radius < body(full).radius)
        #expect(body(out).radius < body(full).radius)
        #expect(label(start) == "Breathe in")
        #expect(label(out) == "Breathe out")
        #expect(start.isAnimating)
        let next = start.nextChange!
        #expect(next > InterfaceSamples.now && next < InterfaceSamples.now + .seconds(1))
    }

    @Test func reducedMotionKeepsTheCircleStillAndShowsTheBreathByWordsAndASlowGlow() {
        let start = playerScene(reduceMotion: true, at: 0), full = playerScene(reduceMotion: true, at: 3.9),
            out = playerScene(reduceMotion: true, at: 7)
        #expect(body(start).radius == body(full).radius)
        #expect(body(out).radius == body(full).radius)
        #expect(body(start).glow < body(full).glow)
        #expect(label(full) == "Breathe in")
        #expect(label(out) == "Breathe out")
        // Slow: over one 10-second breath the scene changes for the glow's steps, the clock and the
        // bar — a few dozen frames, where the moving circle takes hundreds.
        let still = frames(reduceMotion: true, over: 10), moving = frames(reduceMotion: false, over: 10)
        #expect(still * 3 < moving, "\(still) frames with reduced motion, \(moving) without")
        #expect(still <= 70)
    }

    /// How many frames the pacer would draw over `seconds` of playing, following `nextChange`.
    func frames(reduceMotion: Bool, over seconds: Double) -> Int {
        var model = InterfaceSamples.playing(InterfaceSamples.model(), position: 46.601)
        model.settings.reduceMotion = reduceMotion
        let ui = Interface(showing: [Page(.player)])
        let builder = InterfaceScene()
        let end = InterfaceSamples.now + .nanoseconds(Int64(seconds * 1e9))
        var now = InterfaceSamples.now, count = 0
        while now < end, let next = builder.scene(ui, model: model, size: Self.sizes[0], now: now).nextChange {
            #expect(next > now)
            now = next
            count += 1
        }
        return count
    }

    @Test func stillScreensAskForNoFrames() {
        let builder = InterfaceScene()
        for state in InterfaceSamples.states(appearance: .day, textSize: .regular)
        where !state.model.player.isPlaying && state.model.breathingTimer == nil {
            let scene = builder.scene(state.interface, model: state.model, size: Self.sizes[0], now: state.now)
            #expect(scene.nextChange == nil, "\(state.name)")
            #expect(!scene.isAnimating, "\(state.name)")
        }
        let paused = playerScene(reduceMotion: false, at: 0, phase: .paused)
        #expect(paused.nextChange == nil)
    }

    @Test func textSizeReflowsEveryScreen() {
        let builder = InterfaceScene()
        for name in InterfaceSamples.states(appearance: .day, textSize: .regular).map(\.name) {
            var sizes: [Double] = []
            for text in Settings.TextSize.allCases {
                let state = InterfaceSamples.states(appearance: .day, textSize: text).first { $0.name == name }!
                let scene = builder.scene(state.interface, model: state.model, size: Self.sizes[0], now: state.now)
                // Titles may step down the scale to fit; the screen's own labels grow with the setting.
                let label = scene.node("header.title") ?? scene.node("idle.date") ?? scene.node("update.step")
                guard case .text(let run)? = label?.content else { Issue.record("\(name) has no header"); continue }
                sizes.append(run.size)
                for node in scene.nodes {
                    guard case .text(let run) = node.content else { continue }
                    // A frame always holds the lines the text was given.
                    #expect(run.frame.height + 0.01 >= Double(run.maxLines) * run.size * run.lineHeight, "\(name) \(node.id)")
                }
            }
            #expect(sizes[0] < sizes[1] && sizes[1] < sizes[2], "\(name): \(sizes)")
        }
    }

    @Test func theEstimateNeverThinksTextNarrowerThanItIs() {
        let run = TextRun(text: "Setting down the day", frame: Rect(x: 0, y: 0, width: 100, height: 20), size: 20,
                          color: Color(hex: 0))
        #expect(TextMeasurer.estimatedLines(run) == 3)
        var wide = run
        wide.frame.width = 1000
        #expect(TextMeasurer.estimatedLines(wide) == 1)
        var word = run
        word.text = "Supercalifragilistic"
        word.frame.width = 50
        #expect(TextMeasurer.estimatedLines(word) >= 4)
    }
}

/// Measuring text is the slow part of building a scene; what was measured is kept.
@Suite struct InterfaceMeasuringTests {
    @Test func timesThatTickAreMeasuredOnceNotEverySecond() {
        guard let state = InterfaceSamples.states(appearance: .day, textSize: .regular).first(where: { $0.name == "player" }) else {
            Issue.record("no player sample")
            return
        }
        nonisolated(unsafe) var measured: [String] = []
        let estimate = TextMeasurer.estimate
        let counting = TextMeasurer(lineCount: { measured.append($0.text); return estimate.lineCount($0) },
                                    lineWidth: { measured.append($0.text); return estimate.lineWidth($0) })
        let builder = InterfaceScene(measurer: counting)
        let size = PixelSize(width: 800, height: 480)
        _ = builder.scene(state.interface, model: state.model, size: size, now: state.now)
        #expect(!measured.isEmpty)
        measured.removeAll()
        // Ten seconds later the elapsed and remaining times read differently; with tabular figures they
        // are as wide as before, so nothing is measured again.
        for second in 1...10 {
            _ = builder.scene(state.interface, model: state.model, size: size, now: state.now + .seconds(Int64(second)))
        }
        // (The phase label, "Breathe out" once the breath turns, is new text and is measured.)
        let times = measured.filter { $0.contains(where: \.isNumber) }
        #expect(times.isEmpty, "measured again: \(times)")
    }
}
