import StillroomCore
import Testing

@Suite struct ChordDetectorTests {
    func at(_ ms: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms) * 1_000_000) }

    @Test func bothHeldTwoSecondsFiresOncePerHold() {
        var chord = ChordDetector()
        chord.button(.back, .pressed, at: at(1000))
        #expect(chord.dueAt == nil)
        chord.button(.knob, .pressed, at: at(1300))
        #expect(chord.dueAt == at(3300))
        let early = chord.timerFired(at: at(3000))
        #expect(!early)
        let fired = chord.timerFired(at: at(3300))
        #expect(fired)
        let again = chord.timerFired(at: at(5300))
        #expect(!again)
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
        #expect(!fired)
    }

    @Test func playIsNotPartOfIt() {
        var chord = ChordDetector()
        chord.button(.play, .pressed, at: at(0))
        chord.button(.knob, .pressed, at: at(0))
        #expect(chord.dueAt == nil)
    }
}
