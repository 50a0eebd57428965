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
        _ = box.handle(.interfaceTimer(.dark), now: start + .seconds(120), wall: 0)
        #expect(box.interface.isDark)
        return box
    }

    func interfaceEffects(_ effects: [BoxEffect]) -> [InterfaceEffect] {
        effects.compactMap { if case .interface(let effect) = $0 { effect } else { nil } }
    }

    /// What the box asked of the player (the interface's play, toggle, seek… go to the player in the box).
    func playerRequests(_ effects: [BoxEffect]) -> [PlayerEvent] {
        effects.compactMap { if case .then(.player(let event, _)) = $0 { event } else { nil } }
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
        _ = box.handle(.readingAloud(true), now: start + .seconds(130), wall: 0)
        // The screen is dark: the first turn only wakes it, and the reading goes on.
        let wake = box.handle(.input(.turn(.init(direction: 1, at: start + .seconds(131)))), now: start + .seconds(131), wall: 0)
        #expect(!wake.contains(.stopReadingAloud))
        #expect(box.isReadingAloud)
        // A turn once lit moves the focus, and stops the reading before the interface acts.
        let turned = box.handle(.input(.turn(.init(direction: 1, at: start + .seconds(140)))), now: start + .seconds(140), wall: 0)
        let stop = turned.firstIndex(of: .stopReadingAloud)
        let firstInterface = turned.firstIndex { if case .interface = $0 { true } else { false } }
        #expect(stop != nil)
        #expect(firstInterface.map { stop! < $0 } ?? true)
        #expect(!box.isReadingAloud)
    }

    @Test func aButtonThatJoinsAChordDoesNothingOfItsOwnAndTheGestureGoesToTheInterface() {
        var box = started()
        let now = start + .seconds(1)
        #expect(box.handle(press(.back), now: now, wall: 0).contains { if case .gestureTimer(at: _?) = $0 { true } else { false } })
        // PLAY joins BACK: the key-describer chord. PLAY's press does not toggle anything.
        let joined = box.handle(press(.play), now: now + .milliseconds(50), wall: 0)
        #expect(interfaceEffects(joined).isEmpty && playerRequests(joined).isEmpty)
        guard case .gestureTimer(at: let due?) = joined.first else {
            Issue.record("the chord armed no timer: \(joined)")
            return
        }
        #expect(!box.interface.isDescribing)
        _ = box.handle(.gestureTimer, now: due, wall: 0)
        #expect(box.interface.isDescribing)
    }

    @Test func aCompletedGestureStopsAReading() {
        var box = started()
        let now = start + .seconds(1)
        _ = box.handle(.readingAloud(true), now: now, wall: 0)
        _ = box.handle(press(.back), now: now, wall: 0)
        guard case .gestureTimer(at: let due?) = box.handle(press(.knob), now: now, wall: 0).first else {
            Issue.record("the spoken-labels chord armed no timer")
            return
        }
        #expect(box.handle(.gestureTimer, now: due, wall: 0).contains(.stopReadingAloud))
        #expect(!box.isReadingAloud)
    }

    @Test func aGestureTimerWithNothingHeldDoesNothing() {
        var box = started()
        #expect(box.handle(.gestureTimer, now: start + .seconds(5), wall: 0) == [.gestureTimer(at: nil)])
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
