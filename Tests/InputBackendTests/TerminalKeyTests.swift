import StillroomCore
import Testing
import TerminalInput

func at(_ milliseconds: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(milliseconds) * 1_000_000) }

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite struct TerminalKeyTests {
    @Test func plainKeys() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed(bytes(" \r\n\u{7f}\u{8}HFjqxQ"), at: at(0))
            == [.play, .knobPress, .knobPress, .back, .back, .holdBack, .holdKnob, .toggleJack, .quit, .quit])
        #expect(decoder.wakeAt == nil)
    }

    @Test func arrowsInBothCursorModes() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed(bytes("\u{1b}[A\u{1b}[B\u{1b}[C\u{1b}[D\u{1b}OA\u{1b}OB"), at: at(0))
            == [.turn(-1), .turn(1), .turn(1), .turn(-1), .turn(-1), .turn(1)])
        #expect(decoder.wakeAt == nil)
    }

    @Test func aLoneEscapeIsBackAfterTheTimeout() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed([0x1b], at: at(100)).isEmpty)
        #expect(decoder.wakeAt == at(150))
        #expect(decoder.timerFired(at: at(149)).isEmpty)
        #expect(decoder.timerFired(at: at(150)) == [.back])
        #expect(decoder.wakeAt == nil)
    }

    @Test func anArrowSplitAcrossReadsIsStillAnArrow() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed([0x1b], at: at(0)).isEmpty)
        #expect(decoder.feed(bytes("["), at: at(3)).isEmpty)
        #expect(decoder.feed(bytes("B"), at: at(4)) == [.turn(1)])
        #expect(decoder.wakeAt == nil)
    }

    @Test func escapeEscapeIsBackThenWhatFollows() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed([0x1b, 0x1b], at: at(0)) == [.back])
        #expect(decoder.feed(bytes("[C"), at: at(1)) == [.turn(1)])
        #expect(decoder.feed([0x1b, 0x20], at: at(2)) == [.back, .play]) // Esc then space (or Alt+space)
    }

    @Test func unknownSequencesAreSkippedWhole() {
        var decoder = TerminalKeyDecoder()
        // Ctrl-Right, F5, Home, Page Down: none is a key here, and their letters are not read as keys.
        #expect(decoder.feed(bytes("\u{1b}[1;5C\u{1b}[15~\u{1b}[H\u{1b}[6~ "), at: at(0)) == [.play])
        // A sequence cut off by the timeout is dropped, not BACK.
        #expect(decoder.feed(bytes("\u{1b}[1;"), at: at(10)).isEmpty)
        #expect(decoder.timerFired(at: at(60)).isEmpty)
        #expect(decoder.feed(bytes("q"), at: at(70)) == [.quit])
    }

    @Test func keysBecomeWholePressesTurnsAndJackToggles() {
        var mapper = TerminalKeyMapper()
        #expect(mapper.events(for: .play, at: at(0)) == [.button(.play, .pressed), .button(.play, .released(long: false))])
        #expect(mapper.events(for: .holdBack, at: at(0))
            == [.button(.back, .pressed), .button(.back, .longPress), .button(.back, .released(long: true))])
        #expect(mapper.events(for: .holdKnob, at: at(0))
            == [.button(.knob, .pressed), .button(.knob, .longPress), .button(.knob, .released(long: true))])
        #expect(mapper.events(for: .knobPress, at: at(0)) == [.button(.knob, .pressed), .button(.knob, .released(long: false))])
        #expect(mapper.events(for: .toggleJack, at: at(0)) == [.jack(connected: false)])
        #expect(mapper.events(for: .toggleJack, at: at(0)) == [.jack(connected: true)])
        #expect(mapper.events(for: .quit, at: at(0)) == [.quit])
        // Held arrow keys repeat about every 30 ms: a fast spin, with intervals for acceleration.
        let spin = [0, 33, 66].flatMap { mapper.events(for: .turn(1), at: at($0)) }
        #expect(spin == [.turn(.init(direction: 1, at: at(0))), .turn(.init(direction: 1, at: at(33), interval: .milliseconds(33))),
                         .turn(.init(direction: 1, at: at(66), interval: .milliseconds(33)))])
    }

    /// L, K and G (or ?) hold buttons for the gestures: pressed (and past the long press) now, let go later.
    @Test func gestureKeysHoldTheirButtonsAndLetGoLater() {
        var decoder = TerminalKeyDecoder()
        #expect(decoder.feed(bytes("LKG?"), at: at(0)) == [.labelsChord, .describerChord, .guideHold, .guideHold])
        var mapper = TerminalKeyMapper()
        #expect(mapper.events(for: .describerChord, at: at(0))
            == [.button(.back, .pressed), .button(.play, .pressed), .button(.back, .longPress), .button(.play, .longPress)])
        let release = TerminalKey.describerChord.release(controls: mapper.controls)
        #expect(release?.after == .milliseconds(2500))
        #expect(release?.events == [.button(.back, .released(long: true)), .button(.play, .released(long: true))])
        #expect(TerminalKey.guideHold.release(controls: mapper.controls)?.after == .milliseconds(3500))
        #expect(mapper.events(for: .labelsChord, at: at(0)).count == 4)
        // A board that gives the terminal only PLAY makes no gestures from it.
        var playOnly = TerminalKeyMapper(controls: [.play], knob: false, jack: false)
        #expect(playOnly.events(for: .describerChord, at: at(0)).isEmpty)
        #expect(TerminalKey.describerChord.release(controls: playOnly.controls) == nil)
    }

    @Test func onlyTheControlsTheBoardGivesTheTerminalAreMapped() {
        var mapper = TerminalKeyMapper(controls: [.play], knob: false, jack: false)
        #expect(mapper.events(for: .play, at: at(0)).count == 2)
        #expect(mapper.events(for: .back, at: at(0)).isEmpty)
        #expect(mapper.events(for: .turn(1), at: at(0)).isEmpty)
        #expect(mapper.events(for: .toggleJack, at: at(0)).isEmpty)
        #expect(mapper.events(for: .quit, at: at(0)) == [.quit])
    }
}
