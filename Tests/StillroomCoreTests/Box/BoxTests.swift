import StillroomCore
import Testing

/// The rules between the controls and the interface, as the daemon runs them through `Box`: pure, no
/// clock but the one passed in.
@Suite struct BoxTests {
    let start = InterfaceSamples.now

    func started() -> Box {
        var box = Box(model: InterfaceSamples.model())
        _ = box.handle(.start, now: start, wall: 0)
        return box
    }

    /// A box whose screen went dark (the dark timer fired).
    func dark() -> Box {
        var box = started()
        _ = box.handle(.timer(.interface(.dark)), now: start + .seconds(120), wall: 0)
        #expect(box.interface.isDark)
        return box
    }

    func interfaceEffects(_ effects: [BoxEffect]) -> [InterfaceEffect] {
        effects.compactMap { if case .interface(let action) = $0 { action.asInterfaceEffect } else { nil } }
    }

    /// What the box asked of the player (the interface's play, toggle, seek… go to the player in the box).
    func playerRequests(_ effects: [BoxEffect]) -> [PlayerEvent] {
        effects.compactMap { if case .then(.player(let event, _)) = $0 { event } else { nil } }
    }

    /// When the effects armed the held-gesture timer for.
    func gestureDue(_ effects: [BoxEffect]) -> MonotonicInstant? {
        effects.lazy.compactMap { if case .arm(.gesture, at: .monotonic(let at)) = $0 { at } else { nil } }.first
    }

    /// The transcript read aloud: its first line said, the next one armed.
    func startReading(_ box: inout Box, at now: MonotonicInstant) {
        var model = box.model
        model.transcript = InterfaceSamples.transcript
        _ = box.handle(.modelChanged(model), now: now, wall: 0)
        #expect(box.handle(.speech(.readTranscript(fromCue: 0)), now: now, wall: 0).contains { if case .say = $0 { true } else { false } })
        _ = box.handle(.spoke(seconds: 2), now: now, wall: 0)
        #expect(box.isReadingAloud && box.armed[.speech(.nextLine)] != nil)
    }

    func press(_ control: Control) -> BoxEvent { .input(.button(control, .pressed)) }
    func release(_ control: Control) -> BoxEvent { .input(.button(control, .released(long: false))) }

    @Test func aPressInTheDarkOnlyWakesTheScreen() {
        var box = dark()
        let now = start + .seconds(130)
        let pressed = box.handle(press(.knob), now: now, wall: 0)
        #expect(interfaceEffects(pressed).contains(.setScreenPower(.on)))
        let released = box.handle(release(.knob), now: now + .milliseconds(100), wall: 0)
        // The rest of that press does nothing: no select, no screen opened.
        #expect(playerRequests(released).allSatisfy { if case .play = $0 { false } else { true } })
        #expect(box.interface.screen == .library || box.interface.screen == .idle)
        #expect(!box.interface.isDark)
    }

    @Test func playInTheDarkPlaysAndLeavesTheScreenDark() {
        var box = dark()
        let handled = box.handle(press(.play), now: start + .seconds(130), wall: 0)
        #expect(playerRequests(handled).contains { if case .play = $0 { true } else { false } })
        #expect(!interfaceEffects(handled).contains(.setScreenPower(.on)))
        #expect(box.interface.isDark)
    }

    @Test func anyControlButAWakeStopsAReadingAndAWakeDoesNot() {
        var box = dark()
        startReading(&box, at: start + .seconds(130))
        // The screen is dark: the first turn only wakes it, and the reading goes on.
        let wake = box.handle(.input(.turn(.init(direction: 1, at: start + .seconds(131)))), now: start + .seconds(131), wall: 0)
        #expect(!wake.contains(.cancel(.speech(.nextLine))))
        #expect(box.isReadingAloud)
        // A turn once lit moves the focus, and stops the reading before the interface acts.
        let turned = box.handle(.input(.turn(.init(direction: 1, at: start + .seconds(140)))), now: start + .seconds(140), wall: 0)
        let stop = turned.firstIndex(of: .cancel(.speech(.nextLine)))
        let firstInterface = turned.firstIndex { if case .interface = $0 { true } else { false } }
        #expect(stop != nil)
        #expect(firstInterface.map { stop! < $0 } ?? true)
        #expect(!box.isReadingAloud)
    }

    @Test func aButtonThatJoinsAChordDoesNothingOfItsOwnAndTheGestureGoesToTheInterface() {
        var box = started()
        let now = start + .seconds(1)
        #expect(gestureDue(box.handle(press(.back), now: now, wall: 0)) != nil)
        // PLAY joins BACK: the key-describer chord. PLAY's press does not toggle anything.
        let joined = box.handle(press(.play), now: now + .milliseconds(50), wall: 0)
        #expect(interfaceEffects(joined).isEmpty && playerRequests(joined).isEmpty)
        guard let due = gestureDue(joined) else {
            Issue.record("the chord armed no timer: \(joined)")
            return
        }
        #expect(!box.interface.isDescribing)
        _ = box.handle(.timer(.gesture), now: due, wall: 0)
        #expect(box.interface.isDescribing)
    }

    /// With the key describer on, the screen neither dims nor goes back to the idle face (where BACK acts
    /// at its press), and the chord that turns it off is said as that alone: not first as "BACK, held and
    /// let go: home". When it is off, the dimming starts again.
    @Test func theDescriberKeepsTheScreenAndItsChordIsSaidAsTheChordAlone() {
        var box = started()
        var now = start + .seconds(1)
        func chord() -> [BoxEffect] {
            var said = box.handle(press(.back), now: now, wall: 0)
            let joined = box.handle(press(.play), now: now + .milliseconds(50), wall: 0)
            said += joined
            if let due = gestureDue(joined) { said += box.handle(.timer(.gesture), now: due, wall: 0) }
            said += box.handle(.input(.button(.back, .released(long: true))), now: now + .seconds(3), wall: 0)
            said += box.handle(.input(.button(.play, .released(long: true))), now: now + .seconds(3), wall: 0)
            now = now + .seconds(3)
            return said
        }
        _ = chord()
        #expect(box.interface.isDescribing)
        let screen = box.interface.screen
        // The dim and dark timers come while it is on (armed by the last touch): nothing changes.
        #expect(interfaceEffects(box.handle(.timer(.interface(.dim)), now: now + .seconds(30), wall: 0)).isEmpty)
        #expect(interfaceEffects(box.handle(.timer(.interface(.dark)), now: now + .seconds(40), wall: 0)).isEmpty)
        #expect(box.interface.screen == screen && box.interface.screen != .idle && !box.interface.isDark)
        now = now + .seconds(45)
        let said = chord().compactMap { if case .then(.speech(.label(let text, always: true))) = $0 { text } else { nil } }
        #expect(said == ["Key describer off. The controls work again."], "\(said)")
        #expect(!box.interface.isDescribing)
        #expect(box.interface.screen == screen)
        // Off: the screen dims again in its own time.
        let dimmed = interfaceEffects(box.handle(.timer(.interface(.dim)), now: now + .seconds(600), wall: 0))
        #expect(dimmed.contains(.setScreenPower(.dim)), "\(dimmed)")
    }

    @Test func aCompletedGestureStopsAReading() {
        var box = started()
        let now = start + .seconds(1)
        startReading(&box, at: now)
        _ = box.handle(press(.back), now: now, wall: 0)
        guard let due = gestureDue(box.handle(press(.knob), now: now, wall: 0)) else {
            Issue.record("the spoken-labels chord armed no timer")
            return
        }
        #expect(box.handle(.timer(.gesture), now: due, wall: 0).contains(.cancel(.speech(.nextLine))))
        #expect(!box.isReadingAloud)
    }

    @Test func aGestureTimerWithNothingHeldDoesNothing() {
        var box = started()
        #expect(box.handle(.timer(.gesture), now: start + .seconds(5), wall: 0) == [])
    }

    @Test func theSameModelChangesNothingAndANewOneIsShown() {
        var box = started()
        #expect(box.handle(.modelChanged(box.model), now: start + .seconds(1), wall: 0) == [])
        var next = box.model
        next.sessions.removeLast()
        let effects = box.handle(.modelChanged(next), now: start + .seconds(1), wall: 0)
        #expect(effects.last == .redraw)
        #expect(box.model == next)
    }

    @Test func aGlowLightsADarkScreen() {
        var box = dark()
        #expect(interfaceEffects(box.handle(.glow, now: start + .seconds(200), wall: 0)).contains(.setScreenPower(.on)))
        #expect(!box.interface.isDark)
    }
}
