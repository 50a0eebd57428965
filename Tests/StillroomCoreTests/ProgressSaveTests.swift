import StillroomCore
import Testing

/// A checkpoint and the practice run it updates are one save (one transaction, one fsync), placed after
/// the output has reported what it played and before a load.
@Suite struct ProgressSaveTests {
    let position = PlaybackPosition(sessionID: "steady", frame: 441_000, sampleRate: 44_100)
    let run = PracticeRunRecord(id: 7, sessionID: "steady", startedAt: 1_790_000_000_000, actualListeningSeconds: 10,
                                coveredSeconds: 10, recordingSeconds: 300, clockTrusted: true, updatedAt: 1_790_000_010_000)

    @Test func thePeriodicCheckpointAndItsRunAreOneSave() {
        let at = MonotonicInstant(nanoseconds: 20_000_000_000)
        var plan = ProgressSave.plan([.saveCheckpoint(position), .scheduleCheckpoint(at: at)])
        #expect(plan.before == [.scheduleCheckpoint(at: at)])
        #expect(plan.after.isEmpty)
        #expect(plan.savesCheckpoint)
        plan.save.add([.save(run)])
        #expect(plan.save == ProgressSave(checkpoints: [.save(position)], runs: [run]))
    }

    @Test func leavingOneSessionForAnotherSavesAfterStoppingAndBeforeLoading() {
        // The stop reports the last frames heard (the ledger decides after it); the load's answer may write more.
        let plan = ProgressSave.plan([.stopOutput, .cancelCheckpointTimer, .saveCheckpoint(position), .load(sessionID: "rain")])
        #expect(plan.before == [.stopOutput, .cancelCheckpointTimer])
        #expect(plan.save == ProgressSave(checkpoints: [.save(position)]))
        #expect(plan.after == [.load(sessionID: "rain")])
    }

    @Test func theEndClearsThePlaceInTheSaveThatKeepsTheLastRun() {
        var plan = ProgressSave.plan([.cancelCheckpointTimer, .clearCheckpoint(sessionID: "steady")])
        #expect(plan.before == [.cancelCheckpointTimer])
        #expect(!plan.savesCheckpoint) // a cleared place is not a checkpoint: the ledger closes the run by itself
        plan.save.add([.save(run)])
        #expect(plan.save == ProgressSave(checkpoints: [.clear(sessionID: "steady")], runs: [run]))
    }

    @Test func aPauseWritesNothingUntilTheOutputSaysWhereItStopped() {
        let plan = ProgressSave.plan([.pauseOutput, .cancelCheckpointTimer])
        #expect(plan.save.isEmpty)
        #expect(!plan.savesCheckpoint)
        #expect(plan.before == [.pauseOutput, .cancelCheckpointTimer])
        let paused = ProgressSave.plan([.saveCheckpoint(position)])
        #expect(paused.before.isEmpty && paused.after.isEmpty && paused.savesCheckpoint)
    }

    @Test func everyWriteOfOneEventGoesIntoTheOneSaveInOrder() {
        let other = PlaybackPosition(sessionID: "rain", frame: 0, sampleRate: 44_100)
        let plan = ProgressSave.plan([.clearCheckpoint(sessionID: "steady"), .startOutput(fromFrame: 0), .saveCheckpoint(other)])
        #expect(plan.save == ProgressSave(checkpoints: [.clear(sessionID: "steady"), .save(other)]))
        #expect(plan.before == [.startOutput(fromFrame: 0)])
    }

    /// Through the real machines: a checkpoint while playing asks the player for a place and the ledger for
    /// the run it updates, and both land in the one save.
    @Test func thePlayerAndTheLedgerTogetherMakeOneSavePerCheckpoint() {
        var player = PlayerMachine()
        var ledger = PracticeLedger()
        let t0 = MonotonicInstant(nanoseconds: 1_000_000_000)
        let wall: UnixMilliseconds = 1_790_000_000_000
        _ = player.handle(.play(sessionID: "steady", title: "Steady"), now: t0)
        _ = player.handle(.loaded(lengthFrames: 300 * 44_100, sampleRate: 44_100), now: t0)
        _ = ledger.heard([0..<15 * 44_100], sessionID: "steady", sampleRate: 44_100, recordingFrames: 300 * 44_100,
                         now: t0, wall: wall, clockTrusted: true)
        ledger.didSave(id: 1)
        _ = ledger.heard([15 * 44_100..<20 * 44_100], sessionID: "steady", sampleRate: 44_100, recordingFrames: 300 * 44_100,
                         now: t0, wall: wall, clockTrusted: true)
        _ = player.handle(.heard(positionFrame: 20 * 44_100), now: t0)
        var plan = ProgressSave.plan(player.handle(.checkpointTimer, now: t0 + .seconds(20)))
        #expect(plan.savesCheckpoint)
        plan.save.add(ledger.checkpoint(wall: wall + 20_000))
        #expect(plan.save.checkpoints == [.save(PlaybackPosition(sessionID: "steady", frame: 20 * 44_100, sampleRate: 44_100))])
        #expect(plan.save.runs.map(\.actualListeningSeconds) == [20])
        #expect(plan.save.runs.map(\.id) == [1])
    }
}
