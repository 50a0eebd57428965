import StillroomCore
import Testing

@Suite struct ChordDetectorTests {
    func at(_ ms: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms) * 1_000_000) }

    @Test func bothHeldTwoSecondsFiresOncePerHold() {
        var chord = ChordDetector()
        chord.button(.back, .pressed, at: at(1000))
        #expect(chord.dueAt == at(4000)) // alone, BACK is on its way to the guide
        chord.button(.knob, .pressed, at: at(1300))
        #expect(chord.dueAt == at(3300))
        let early = chord.timerFired(at: at(3000))
        #expect(early == nil)
        let fired = chord.timerFired(at: at(3300))
        #expect(fired == .spokenLabels)
        let again = chord.timerFired(at: at(5300))
        #expect(again == nil)
        chord.button(.knob, .released(long: true), at: at(6000))
        chord.button(.knob, .pressed, at: at(6100))
        #expect(chord.dueAt == at(8100)) // released and pressed again: another toggle possible
    }

    @Test func releasingEitherEarlyCancels() {
        var chord = ChordDetector()
        chord.button(.back, .pressed, at: at(0))
        chord.button(.knob, .pressed, at: at(100))
        chord.button(.back, .released(long: true), at: at(1500))
        #expect(chord.dueAt == nil)
        let fired = chord.timerFired(at: at(2100))
        #expect(fired == nil)
    }

    @Test func playAndTheKnobMakeNoChord() {
        var chord = ChordDetector()
        chord.button(.play, .pressed, at: at(0))
        chord.button(.knob, .pressed, at: at(0))
        #expect(chord.dueAt == nil)
        // All three held: no gesture either.
        chord.button(.back, .pressed, at: at(10))
        #expect(chord.dueAt == nil)
    }

    @Test func backAndPlayHeldTwoSecondsIsTheKeyDescriber() {
        var chord = ChordDetector()
        chord.button(.back, .pressed, at: at(0))
        chord.button(.play, .pressed, at: at(400))
        #expect(chord.engaged == [.back, .play])
        #expect(chord.dueAt == at(2400))
        #expect(chord.timerFired(at: at(2400)) == .keyDescriber)
        #expect(chord.timerFired(at: at(9000)) == nil)
    }

    @Test func backHeldAloneThreeSecondsIsTheGuide() {
        var chord = ChordDetector()
        chord.button(.back, .pressed, at: at(0))
        #expect(chord.engaged.isEmpty) // alone, BACK is still BACK
        #expect(chord.dueAt == at(3000))
        chord.button(.back, .longPress, at: at(800))
        #expect(chord.dueAt == at(3000))
        #expect(chord.timerFired(at: at(3000)) == .guide)
        // Let go before three seconds: nothing.
        chord.button(.back, .released(long: true), at: at(3500))
        chord.button(.back, .pressed, at: at(4000))
        chord.button(.back, .released(long: true), at: at(6500))
        #expect(chord.dueAt == nil)
        #expect(chord.timerFired(at: at(7000)) == nil)
    }

    @Test func theGuideCountsFromWhenBackWasLeftAlone() {
        var chord = ChordDetector()
        chord.button(.back, .pressed, at: at(0))
        chord.button(.knob, .pressed, at: at(500)) // a chord begins: the guide is off
        #expect(chord.dueAt == at(2500))
        chord.button(.knob, .released(long: false), at: at(1000)) // the knob let go early: BACK alone again
        #expect(chord.dueAt == at(4000))
    }
}
