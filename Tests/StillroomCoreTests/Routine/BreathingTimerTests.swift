import StillroomCore
import Testing

@Suite struct BreathingTimerTests {
    let start = MonotonicInstant(nanoseconds: 10_000_000_000)

    @Test func patternsAndLengths() {
        #expect(BreathingTimer(patternName: "4-7-8", minutes: 5, startedAt: start)?.pattern.cycle == .seconds(19))
        #expect(BreathingTimer(patternName: "box", minutes: 3, startedAt: start)?.pattern.cycle == .seconds(16))
        #expect(BreathingTimer(patternName: "7-11", minutes: 5, startedAt: start) == nil)
        #expect(BreathingTimer(patternName: "4-4", minutes: 0, startedAt: start) == nil)
        #expect(BreathingTimer(patternName: "4-4", minutes: 61, startedAt: start) == nil)
    }

    @Test func thePhaseDependsOnlyOnTheClockSoADarkScreenLosesNothing() throws {
        let timer = try #require(BreathingTimer(patternName: "4-7-8", minutes: 5, startedAt: start))
        // Looked at continuously or only once after a long dark spell: the same answer.
        let later = start + .seconds(19 * 7 + 5) // seven cycles and five seconds: holding after the inhale
        #expect(timer.breath(at: later).phase == .hold)
        #expect(timer.breath(at: later) == BreathingCircle.state(pattern: timer.pattern, start: start, now: later))
        #expect(!timer.isFinished(at: later))
        #expect(timer.isFinished(at: start + .seconds(300)))
        #expect(timer.elapsedSeconds(at: start + .seconds(400)) == 300)
        #expect(timer.practiceSessionID == "timer:4-7-8")
    }
}
