import StillroomCore
import Testing

func detent(_ direction: Int, at time: Int, interval: Int? = nil) -> InputEvent {
    .turn(QuadratureDecoder.Detent(direction: direction, at: ms(time), interval: interval.map { .milliseconds($0) }))
}

/// The actions for a sequence of events on one screen.
func actions(_ events: [InputEvent], on screen: ScreenKind, dark: Bool = false) -> [ControlAction?] {
    var mapper = ControlMapper()
    return events.map { mapper.action(for: $0, on: screen, dark: dark) }
}

let shortPress: [ButtonDebouncer.Output] = [.pressed, .released(long: false)]
let longPress: [ButtonDebouncer.Output] = [.pressed, .longPress, .repeated, .released(long: true)]

func press(_ control: Control, _ outputs: [ButtonDebouncer.Output] = shortPress) -> [InputEvent] {
    outputs.map { .button(control, $0) }
}

@Suite struct ControlMapperTests {
    @Test func playActsAtItsPressEverywhereAndIgnoresTheRest() {
        for screen in ScreenKind.allCases where screen != .resumeOffer {
            #expect(actions(press(.play, longPress), on: screen) == [.playPause, nil, nil, nil])
        }
        #expect(actions(press(.play), on: .resumeOffer) == [.acceptResume, nil])
    }

    @Test func backActsAtReleaseAndGoesHomeWhenLetGoAfterALongPress() {
        // Home when a held BACK is let go, not at the long press: held on it becomes the guide
        // (ChordDetector), and a BACK that begins a chord must not have gone home already.
        for screen in [ScreenKind.home, .detail, .player, .transcript, .history, .settings, .notice] {
            #expect(actions(press(.back), on: screen) == [nil, .back])
            #expect(actions(press(.back, longPress), on: screen) == [nil, nil, nil, .home])
        }
        #expect(actions(press(.back), on: .resumeOffer) == [nil, .dismissResume])
        #expect(actions(press(.back, longPress), on: .resumeOffer) == [nil, nil, nil, .dismissResume])
    }

    @Test func theKnobSelectsOrTogglesTheTranscriptAndItsLongPressIsTheContextAction() {
        let table: [(ScreenKind, ControlAction?, ControlAction?)] = [
            (.home, .select, .contextAction),
            (.detail, .select, .contextAction),
            (.player, .toggleTranscript, .contextAction),
            (.transcript, .toggleTranscript, .contextAction),
            (.history, .select, .contextAction),
            (.settings, .select, nil),
            (.resumeOffer, .acceptResume, nil),
            (.notice, .select, nil),
        ]
        for (screen, short, long) in table {
            #expect(actions(press(.knob), on: screen) == [nil, short], "\(screen)")
            #expect(actions(press(.knob, longPress), on: screen) == [nil, long, nil, nil], "\(screen)")
        }
    }

    @Test func turningMovesFocusScrollsOrPreviewsASeek() {
        let table: [(ScreenKind, ControlAction, ControlAction)] = [
            (.home, .focus(by: 1), .focus(by: -1)),
            (.detail, .focus(by: 1), .focus(by: -1)),
            (.history, .focus(by: 1), .focus(by: -1)),
            (.settings, .focus(by: 1), .focus(by: -1)),
            (.resumeOffer, .focus(by: 1), .focus(by: -1)),
            (.transcript, .scroll(by: 1), .scroll(by: -1)),
            (.notice, .scroll(by: 1), .scroll(by: -1)),
            (.player, .seekPreview(seconds: 15), .seekPreview(seconds: -15)),
        ]
        for (screen, clockwise, counterClockwise) in table {
            #expect(actions([detent(1, at: 0), detent(-1, at: 1000)], on: screen) == [clockwise, counterClockwise])
        }
    }

    @Test func seekPreviewIsVelocityScaledButFocusIsNot() {
        let spin = [detent(1, at: 0), detent(1, at: 150, interval: 150), detent(1, at: 220, interval: 70),
                    detent(1, at: 250, interval: 30)]
        #expect(actions(spin, on: .player) == [.seekPreview(seconds: 15), .seekPreview(seconds: 15),
                                               .seekPreview(seconds: 30), .seekPreview(seconds: 60)])
        #expect(actions(spin, on: .home) == Array(repeating: .focus(by: 1), count: 4))
    }

    @Test func anyPressWhileDarkOnlyWakesAndTheRestOfThatPressIsSwallowed() {
        var mapper = ControlMapper()
        // The screen is dark for the press; the daemon lights it; the release must not select.
        #expect(mapper.action(for: .button(.knob, .pressed), on: .home, dark: true) == .wake)
        #expect(mapper.action(for: .button(.knob, .released(long: false)), on: .home, dark: false) == nil)
        // The next press acts normally.
        #expect(actions(press(.knob), on: .home) == [nil, .select])
        // A long BACK begun in the dark does not go home either.
        #expect(mapper.action(for: .button(.back, .pressed), on: .player, dark: true) == .wake)
        #expect(mapper.action(for: .button(.back, .longPress), on: .player, dark: false) == nil)
        #expect(mapper.action(for: .button(.back, .released(long: true)), on: .player, dark: false) == nil)
        #expect(mapper.action(for: .button(.back, .pressed), on: .player, dark: false) == nil)
        #expect(mapper.action(for: .button(.back, .released(long: false)), on: .player, dark: false) == .back)
    }

    @Test func playActsAtOnceInTheDarkWithoutWaking() {
        #expect(actions(press(.play), on: .player, dark: true) == [.playPause, nil])
        #expect(actions(press(.play), on: .resumeOffer, dark: true) == [.acceptResume, nil])
    }

    @Test func aSpinInTheDarkWakesOnceAndTheRestOfTheSpinIsSwallowed() {
        var mapper = ControlMapper()
        let spin = [0, 60, 120, 180].map { detent(1, at: $0) }
        #expect(mapper.action(for: spin[0], on: .home, dark: true) == .wake)
        for event in spin.dropFirst() { #expect(mapper.action(for: event, on: .home, dark: false) == nil) }
        // After a pause longer than the spin gap, turning moves the focus again.
        #expect(mapper.action(for: detent(1, at: 700), on: .home, dark: false) == .focus(by: 1))
        #expect(mapper.action(for: detent(1, at: 760), on: .home, dark: false) == .focus(by: 1))
    }

    @Test func theIdleFaceGoesHomeOnAnyTouchButPlay() {
        #expect(actions(press(.back), on: .idle) == [.home, nil])
        #expect(actions(press(.knob, longPress), on: .idle) == [.home, nil, nil, nil])
        #expect(actions([detent(1, at: 0), detent(1, at: 50)], on: .idle) == [.home, nil])
        #expect(actions(press(.play), on: .idle) == [.playPause, nil])
    }

    @Test func aLostReleaseDoesNotSwallowTheNextPressForever() {
        var mapper = ControlMapper()
        #expect(mapper.action(for: .button(.knob, .pressed), on: .home, dark: true) == .wake)
        // The release never came (the backend restarted); the next press starts afresh.
        #expect(mapper.action(for: .button(.knob, .pressed), on: .home, dark: false) == nil)
        #expect(mapper.action(for: .button(.knob, .released(long: false)), on: .home, dark: false) == .select)
    }

    @Test func headphonesAndQuitPassThroughWhateverTheScreen() {
        for screen in ScreenKind.allCases {
            for dark in [false, true] {
                #expect(actions([.jack(connected: false), .jack(connected: true), .quit], on: screen, dark: dark)
                    == [.headphones(connected: false), .headphones(connected: true), .quit])
            }
        }
    }
}
