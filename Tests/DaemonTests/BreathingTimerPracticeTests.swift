import ControlProtocol
import DrivenDaemonSupport
import StillroomCore
import TestSupport
import Testing

/// What a breathing timer keeps as practice, through the daemon in this process on virtual time.
@Suite struct BreathingTimerPracticeTests {
    @Test func elevenSecondsOfATimerStoppedAreKeptAsSilentPracticeApartFromListening() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        #expect(throws: Never.self) { try harness.request(.timer(.start(pattern: nil, minutes: 1))).get() }
        try harness.advance(by: .milliseconds(11_500))
        #expect(harness.result(.timer(.show))?.timer?.running?.remainingSeconds == 48.5)
        #expect(throws: Never.self) { try harness.request(.timer(.stop)).get() }
        let recent = harness.result(.history(.recent))?.recentRuns?.runs ?? []
        #expect(recent.count == 1)
        #expect(recent.first?.title.hasPrefix("Breathing timer, 4-6") == true, "\(recent)")
        let kept = PracticeKept(harness)
        #expect(kept.runs == 1)
        #expect(abs(kept.silentSeconds - 11.5) < 0.01, "kept \(kept.silentSeconds) s of silent practice")
        #expect(kept.listeningSeconds == 0)
    }

    @Test func aTimerTooShortToCountIsNotKept() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        #expect(throws: Never.self) { try harness.request(.timer(.start(pattern: nil, minutes: 1))).get() }
        try harness.advance(by: .seconds(9))
        #expect(throws: Never.self) { try harness.request(.timer(.stop)).get() }
        #expect(PracticeKept(harness).runs == 0, "nine seconds were kept as a run")
    }
}
