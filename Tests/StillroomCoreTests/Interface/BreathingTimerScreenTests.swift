import Testing
@testable import StillroomCore

/// The silent breathing timer on the box: found from the library, set up with the knob, started with
/// PLAY, followed in the dark without a tick, stopped with PLAY or BACK; and its running screen drawn
/// from the clock and the start instant alone.
@Suite struct BreathingTimerScenarioTests {
    /// The phase word the screen should show `seconds` into a 4-7-8 breath, worked out by hand.
    static func expected478(_ seconds: Double) -> String {
        let t = seconds.truncatingRemainder(dividingBy: 19)
        return t < 4 ? "Breathe in" : t < 11 ? "Hold" : "Breathe out"
    }

    static func label(_ scene: Scene) -> String? {
        guard case .text(let run)? = scene.node("breath.phase")?.content else { return nil }
        return run.text
    }

    static func radius(_ scene: Scene) -> Double? {
        guard case .circle(let circle)? = scene.node("breath.body")?.content else { return nil }
        return circle.radius
    }

    @Test func fromTheLibraryThroughTheSetUpIntoTheDarkAndBack() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        // The card at the end of the library's sessions.
        while box.focus != .timerLink { box.turn(1) }
        box.press(.knob)
        #expect(box.screen == .timerSetup)
        #expect(box.kind == .detail)
        #expect(box.focus == .timerStart)

        // Length: a press steps the presets (5 → 10 → 3); holding the knob chooses any length.
        box.turn(1)
        #expect(box.focus == .timerLength)
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains(.changeSetting(key: "timer-minutes", value: "10")))
        box.press(.knob)
        #expect(box.model.settings.timerMinutes == 3)
        box.hold(.knob)
        #expect(box.interface.timerMinutesEdit == 3)
        box.turn(4)
        #expect(box.focus == .timerLength) // the turn chose a length; the focus stayed
        #expect(box.interface.timerMinutesEdit == 7)
        box.press(.knob)
        #expect(box.model.settings.timerMinutes == 7)
        #expect(box.interface.timerMinutesEdit == nil)
        // BACK while choosing leaves the length as it was.
        box.hold(.knob)
        box.turn(-2)
        box.press(.back)
        #expect(box.screen == .timerSetup)
        #expect(box.model.settings.timerMinutes == 7)

        // Pattern: a press steps 4-6 → 4-4 → 4-7-8, each said with what it is for.
        box.turn(1)
        #expect(box.focus == .timerPattern)
        box.press(.knob)
        #expect(box.model.settings.timerPattern == "4-4")
        box.mark()
        box.press(.knob)
        #expect(box.model.settings.timerPattern == "4-7-8")
        #expect(box.recent.contains(.speak("Pattern: in for 4, hold for 7, out for 8. Long and slow, for the edge of sleep.")))

        // PLAY starts it, whatever has the focus.
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.startBreathingTimer(patternName: "4-7-8", minutes: 7)))
        #expect(box.screen == .breathingTimer)
        #expect(box.kind == .settings)
        let timer = box.model.breathingTimer!
        #expect(timer.length == .seconds(7 * 60))

        // As on the player: dim, then dark — the timer's screen stays, no clock face over it.
        box.advance(by: .seconds(31))
        #expect(box.power == .dim)
        #expect(box.screen == .breathingTimer)
        box.advance(by: .seconds(100))
        #expect(box.power == .off)
        #expect(box.screen == .breathingTimer)
        // Nothing ticks while dark: no interface timer is armed at all (the daemon arms only the end).
        #expect(box.timers.isEmpty)
        box.advance(by: .milliseconds(69_300))

        // Lit again: the circle is where the breath is, from the start instant and the clock alone.
        box.press(.knob) // only wakes
        #expect(box.power == .on)
        #expect(box.screen == .breathingTimer)
        let elapsed = (box.now - timer.startedAt).seconds
        let scene = InterfaceScene().scene(box.interface, model: box.model, size: PixelSize(width: 800, height: 480), now: box.now)
        #expect(Self.label(scene) == Self.expected478(elapsed), "\(elapsed) s in")
        #expect(scene.nextChange != nil && scene.nextChange! > box.now)
        #expect(scene.nextChange! <= box.now + .seconds(1))
        // The knob's press says the time left.
        box.mark()
        box.press(.knob)
        #expect(box.recent.contains { if case .speak(let text) = $0 { text.hasSuffix("left. PLAY or BACK stops the timer.") } else { false } })

        // BACK stops it and returns to where it was started from.
        box.mark()
        box.press(.back)
        #expect(box.recent.contains(.stopBreathingTimer))
        #expect(box.model.breathingTimer == nil)
        #expect(box.screen == .timerSetup)
        #expect(box.focus == .timerPattern)
    }

    @Test func aTimerStartedWithPlayOnTheCardRunsItsLengthAndReturns() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        model.settings.dimAfterSeconds = 3600
        model.settings.darkAfterSeconds = 7200
        let box = InterfaceDriver(model: model)
        while box.focus != .timerLink { box.turn(1) }
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.startBreathingTimer(patternName: "4-6", minutes: 5)))
        #expect(box.screen == .breathingTimer)
        box.mark()
        box.advance(by: .seconds(5 * 60 + 1))
        #expect(box.model.breathingTimer == nil)
        #expect(box.screen == .library)
        #expect(box.focus == .timerLink)
        #expect(box.recent.contains(.speak("Breathing timer finished.")))
    }

    @Test func playInTheDarkStopsTheTimerAndLeavesTheScreenDark() {
        let box = InterfaceDriver()
        while box.focus != .timerLink { box.turn(1) }
        box.press(.knob)
        box.press(.knob) // Start
        #expect(box.screen == .breathingTimer)
        box.advance(by: .seconds(130))
        #expect(box.power == .off)
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.stopBreathingTimer))
        #expect(!box.recent.contains(.setScreenPower(.on)))
        #expect(box.power == .off)
        // As the dark timer would have left it: the resting face, over where the timer was started.
        #expect(box.screen == .idle)
        box.press(.back) // wakes only
        #expect(box.power == .on)
    }

    @Test func aTimerStartedFromTheCommandLineComesUpOverAnyScreenAndGoesWhenStopped() {
        var model = InterfaceSamples.model()
        model.settings.spokenLabels = true
        let box = InterfaceDriver(model: model)
        while box.focus != .settingsLink { box.turn(1) }
        box.press(.knob)
        #expect(box.screen == .settings)
        box.press(.play) // a recording plays
        box.press(.back)
        #expect(box.model.player.isPlaying)
        // `stillroomctl timer start --pattern box --minutes 3`: the daemon pauses the recording.
        box.mark()
        box.update { model in
            model.player.phase = .paused
            model.player.pauseReason = .user
            model.breathingTimer = BreathingTimer(patternName: "box", minutes: 3, startedAt: box.now)
        }
        #expect(box.screen == .breathingTimer)
        #expect(box.recent.contains(.speak("Breathing timer, 3 minutes: in for 4, hold for 4, out for 4, hold for 4.")))
        #expect(box.kind == .settings)
        // `stillroomctl timer stop`: back to the settings it came up over.
        box.mark()
        box.update { $0.breathingTimer = nil }
        #expect(box.screen == .settings)
        #expect(box.recent.contains(.speak("Breathing timer stopped.")))
    }

    @Test func holdingBackStopsTheTimerAndGoesHome() {
        let box = InterfaceDriver()
        while box.focus != .timerLink { box.turn(1) }
        box.press(.knob)
        box.press(.play)
        #expect(box.screen == .breathingTimer)
        box.mark()
        box.hold(.back)
        #expect(box.recent.contains(.stopBreathingTimer))
        #expect(box.screen == .library)
        #expect(box.model.breathingTimer == nil)
    }

    @Test func theResumeOfferWaitsWhileTheTimerRuns() {
        let box = InterfaceDriver()
        box.update { model in
            model.breathingTimer = BreathingTimer(patternName: "4-4", minutes: 3, startedAt: box.now)
            model.player.resumeOffer = ResumeOffer(title: "Setting down the day",
                                                   position: PlaybackPosition(sessionID: "setting-down-the-day", frame: 44_100, sampleRate: 44_100))
        }
        #expect(box.kind == .settings)
        box.mark()
        box.press(.play)
        #expect(box.recent.contains(.stopBreathingTimer))
        #expect(!box.recent.contains(.acceptResume))
        #expect(box.kind == .resumeOffer)
    }
}

@Suite struct BreathingTimerSceneTests {
    static let size = PixelSize(width: 800, height: 480)

    func scene(pattern: String = "4-7-8", reduceMotion: Bool = false, at seconds: Double, minutes: Int = 5) -> Scene {
        var model = InterfaceSamples.breathing(InterfaceSamples.model(), pattern: pattern, minutes: minutes, elapsed: 0)
        model.settings.reduceMotion = reduceMotion
        let ui = Interface(showing: [Page(.timerSetup), Page(.breathingTimer)])
        return InterfaceScene().scene(ui, model: model, size: Self.size, now: InterfaceSamples.now + .nanoseconds(Int64(seconds * 1e9)))
    }

    func text(_ scene: Scene, _ id: String) -> String? {
        guard case .text(let run)? = scene.node(NodeID(id))?.content else { return nil }
        return run.text
    }

    @Test func theCircleFollowsThePatternFromTheStartInstant() {
        for seconds in [0.5, 3.9, 4.5, 10.9, 11.5, 18.9, 19.5, 57 + 2.0, 200.3] {
            let drawn = scene(at: seconds)
            #expect(BreathingTimerScenarioTests.label(drawn) == BreathingTimerScenarioTests.expected478(seconds), "\(seconds) s")
        }
        // Growing while breathing in, full while holding, shrinking while breathing out.
        let r = { (t: Double) in BreathingTimerScenarioTests.radius(self.scene(at: t))! }
        #expect(r(1) < r(3))
        #expect(r(5) == r(10))
        #expect(r(12) > r(17))
        // The same moment is the same picture, however it was reached.
        let builder = InterfaceScene()
        var model = InterfaceSamples.breathing(InterfaceSamples.model(), elapsed: 0)
        model.settings.reduceMotion = false
        let ui = Interface(showing: [Page(.breathingTimer)])
        for step in 0..<40 { _ = builder.scene(ui, model: model, size: Self.size, now: InterfaceSamples.now + .milliseconds(Int64(step) * 137)) }
        let late = InterfaceSamples.now + .milliseconds(123_456)
        #expect(builder.scene(ui, model: model, size: Self.size, now: late).nodes
            == InterfaceScene().scene(ui, model: model, size: Self.size, now: late).nodes)
    }

    @Test func theTimeLeftCountsDownInWholeSeconds() {
        #expect(text(scene(at: 0), "timer.left") == "5:00 left")
        #expect(text(scene(at: 0.2), "timer.left") == "5:00 left")
        #expect(text(scene(at: 1), "timer.left") == "4:59 left")
        #expect(text(scene(at: 299.5), "timer.left") == "0:01 left")
        #expect(text(scene(at: 0), "timer.hint") == "PLAY to stop")
        // Finished (the daemon ends it at once; a late frame shows it done and asks for nothing more).
        let done = scene(at: 301)
        #expect(BreathingTimerScenarioTests.label(done) == "Done")
        #expect(done.nextChange == nil)
    }

    @Test func theLoopSleepsBetweenChangesAndReducedMotionDrawsFewFrames() {
        func frames(reduceMotion: Bool) -> Int {
            var now = InterfaceSamples.now, count = 0
            let end = InterfaceSamples.now + .seconds(19)
            var model = InterfaceSamples.breathing(InterfaceSamples.model(), elapsed: 0)
            model.settings.reduceMotion = reduceMotion
            let ui = Interface(showing: [Page(.breathingTimer)])
            let builder = InterfaceScene()
            while now < end, let next = builder.scene(ui, model: model, size: Self.size, now: now).nextChange {
                #expect(next > now)
                #expect(next <= now + .seconds(1)) // the time left, every second
                now = next
                count += 1
            }
            return count
        }
        let still = frames(reduceMotion: true), moving = frames(reduceMotion: false)
        #expect(still * 3 < moving, "\(still) frames with reduced motion, \(moving) without")
        #expect(still <= 19 + 3 * 12 + 4) // a second each, twelve glow steps per movement, the phase changes
    }

    @Test func reducedMotionKeepsTheCircleStillAndShowsThePhaseInWordsAndGlow() {
        // The glow: how far the body's opaque colour stands from the background.
        let glow = { (t: Double) -> Double in
            let scene = self.scene(reduceMotion: true, at: t)
            guard case .circle(let c)? = scene.node("breath.body")?.content, let fill = c.fill else { return 0 }
            return fill.distance(to: scene.background)
        }
        let radii = [0.5, 3.5, 8, 15].map { BreathingTimerScenarioTests.radius(scene(reduceMotion: true, at: $0))! }
        #expect(Set(radii).count == 1)
        #expect(glow(0.5) < glow(3.5))
        #expect(glow(12) > glow(18))
        #expect(BreathingTimerScenarioTests.label(scene(reduceMotion: true, at: 8)) == "Hold")
        // Box breathing's second hold, with empty lungs, says so too.
        #expect(BreathingTimerScenarioTests.label(scene(pattern: "box", reduceMotion: true, at: 14)) == "Hold")
    }

    @Test func theLibraryOffersTheTimerWithEveryAndBreathingSessionsOnly() {
        let model = InterfaceSamples.model()
        for filter in LibraryFilter.allCases {
            let ui = Interface(showing: [], filter: filter)
            let offered = ui.focusItems(on: .library, model: model).contains { $0.key == .timerLink }
            #expect(offered == (filter == .all || filter == .breathe), "\(filter)")
        }
    }
}
