import StillroomCore
import Testing

/// The ledger following the player (`PracticeLedger.follow`): which of the player's phases write the run,
/// close it, and run out the long pause.
@Suite struct PracticeLedgerFollowTests {
    let rate = 44_100
    let length = Int64(300 * 44_100)
    let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)
    let wall: UnixMilliseconds = 1_790_000_000_000

    /// A ledger with an open run of `seconds` heard of `session` (worth keeping past 10 s), saved once.
    func listening(_ seconds: Double, to session: String = "steady") -> PracticeLedger {
        var ledger = PracticeLedger()
        _ = ledger.heard([0..<Int64(seconds * 44_100)], sessionID: session, sampleRate: rate, recordingFrames: length,
                         now: t0, wall: wall, clockTrusted: true)
        ledger.didSave(id: 1)
        _ = ledger.heard([Int64(seconds * 44_100)..<Int64((seconds + 5) * 44_100)], sessionID: session, sampleRate: rate,
                         recordingFrames: length, now: t0, wall: wall, clockTrusted: true)
        return ledger
    }

    func savedRuns(_ following: PracticeLedger.Following) -> [PracticeRunRecord] {
        following.saves.map { if case .save(let record) = $0 { record } else { fatalError() } }
    }

    @Test func aCheckpointWhilePlayingWritesTheRunAndNoPauseRunsOut() {
        var ledger = listening(20)
        let following = ledger.follow(.playing, sessionID: "steady", checkpointed: true, wall: wall + 1000)
        #expect(savedRuns(following).map(\.actualListeningSeconds) == [25])
        #expect(following.pauseTimer == .cancel)
        #expect(!following.sessionLeft)
        #expect(ledger.open != nil)
    }

    @Test func withoutACheckpointNothingIsWritten() {
        var ledger = listening(20)
        #expect(ledger.follow(.playing, sessionID: "steady", checkpointed: false, wall: wall).saves.isEmpty)
        #expect(ledger.follow(.paused, sessionID: "steady", checkpointed: false, wall: wall).saves.isEmpty)
    }

    @Test func aPauseWritesTheRunAndStartsTheLongPauseOnlyWithARunOpen() {
        var ledger = listening(20)
        let paused = ledger.follow(.paused, sessionID: "steady", checkpointed: true, wall: wall)
        #expect(savedRuns(paused).count == 1)
        #expect(paused.pauseTimer == .armUnlessArmed)
        var empty = PracticeLedger()
        #expect(empty.follow(.paused, sessionID: "steady", checkpointed: true, wall: wall).pauseTimer == .leave)
    }

    @Test func loadingAnotherSessionClosesTheRunAndReloadingTheSameKeepsIt() {
        var same = listening(20)
        let reloading = same.follow(.loading, sessionID: "steady", checkpointed: false, wall: wall)
        #expect(reloading.saves.isEmpty)
        #expect(same.open != nil)
        #expect(reloading.pauseTimer == .cancel)
        var other = listening(20)
        let switching = other.follow(.loading, sessionID: "rain", checkpointed: false, wall: wall)
        #expect(savedRuns(switching).map(\.sessionID) == ["steady"])
        #expect(other.open == nil)
        #expect(!switching.sessionLeft) // another session starts: no quiet moment
    }

    @Test func stoppingEndingOrFailingClosesTheRunAsASessionLeft() {
        for phase in [PlayerPhase.idle, .ended, .failed("damaged")] {
            var ledger = listening(20)
            let following = ledger.follow(phase, sessionID: "steady", checkpointed: false, wall: wall)
            #expect(savedRuns(following).count == 1, "\(phase)")
            #expect(following.sessionLeft, "\(phase)")
            #expect(following.pauseTimer == .cancel, "\(phase)")
            #expect(ledger.open == nil, "\(phase)")
            // With nothing open, leaving is no quiet moment worth telling.
            var empty = PracticeLedger()
            let nothing = empty.follow(phase, sessionID: nil, checkpointed: false, wall: wall)
            #expect(nothing.saves.isEmpty && !nothing.sessionLeft && nothing.pauseTimer == .cancel, "\(phase)")
        }
    }
}
