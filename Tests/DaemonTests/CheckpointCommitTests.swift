import Glibc
import SQLiteStore
import StillroomCore
import TestSupport
import Testing

/// What a playback checkpoint costs the card: one commit (one fsync of the -wal with synchronous=FULL)
/// holding both the position and the practice run it updates. Counted on the real files of the real
/// daemon: commits in the -wal (`WriteAheadLog`), checkpoints by their sequence numbers in the database.
@Suite struct CheckpointCommitTests {
    /// Pauses and waits until the pause's own checkpoint is written (the saved place is where it stopped):
    /// from then on nothing is written until playing again, so the files can be read between two commits.
    private func pauseAndSettle(_ harness: DaemonHarness) -> JSONValue {
        #expect(harness.ctl("pause").status == 0)
        return statusJSON(harness.waitForStatus {
            let status = statusJSON($0)
            return status["state"]?.stringValue == "paused"
                && status["lastCheckpoint"]?["position"]?.doubleValue == status["position"]?.doubleValue
        })
    }

    /// Commits in the -wal and the newest checkpoint's sequence number, read while the daemon is paused.
    private func count(_ harness: DaemonHarness) throws -> (log: WriteAheadLog, sequence: Int64) {
        let path = harness.dataDirectory + "/stillroom.db"
        let log = try #require(WriteAheadLog(path: path + "-wal"), "no -wal beside \(path)")
        let store = try SQLiteStore.openReadOnly(path: path)
        defer { store.close() }
        let sequence = try #require(try store.latestCheckpoint()?.sequence)
        return (log, sequence)
    }

    @Test func eachCheckpointIsOneCommitHoldingThePracticeRunToo() throws {
        // Clocks 20 times fast: a checkpoint every 0.5 s of real time on the paced (simulated) speaker.
        let harness = DaemonHarness(content: RepositoryPaths.content, extraArguments: ["--time-warp", "20"])
        harness.start()
        defer { harness.stop() }
        #expect(harness.ctl("play", "steady-breath").status == 0)
        // Past the first 10 s heard, where the run is first inserted (a write of its own, once per run).
        _ = harness.waitForStatus { (statusJSON($0)["lastCheckpoint"]?["position"]?.doubleValue ?? 0) >= 20 }
        let first = pauseAndSettle(harness)
        let before = try count(harness)
        let from = try #require(first["lastCheckpoint"]?["position"]?.doubleValue)

        #expect(harness.ctl("resume").status == 0)
        // Six periodic checkpoints or more; well before 90 % of the five minutes, where completion is
        // written at once (a write of its own).
        _ = harness.waitForStatus { (statusJSON($0)["lastCheckpoint"]?["position"]?.doubleValue ?? 0) >= from + 60 }
        let second = pauseAndSettle(harness)
        let after = try count(harness)
        #expect((second["position"]?.doubleValue ?? 300) < 250)

        try #require(after.log.salt == before.log.salt, "the -wal restarted in between (a checkpoint of the WAL): run again")
        let checkpoints = after.sequence - before.sequence
        let commits = after.log.commits - before.log.commits
        #expect(checkpoints >= 6, "only \(checkpoints) checkpoints were written")
        // The old behaviour, a commit for the position and another for the practice run, made twice as many.
        #expect(commits == Int(checkpoints), "\(commits) commits for \(checkpoints) checkpoints")
        // And those commits kept the practice run up to date: one run, all that was heard, up to the pause.
        let kept = PracticeKept(harness)
        let stoppedAt = try #require(second["position"]?.doubleValue)
        #expect(kept.runs == 1)
        #expect(abs(kept.listeningSeconds - stoppedAt) < 1, "kept \(kept.listeningSeconds) s, paused at \(stoppedAt) s")
    }
}
