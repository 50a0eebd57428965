import ControlProtocol
import DrivenDaemonSupport
import Glibc
import SQLiteStore
import StillroomCore
import TestSupport
import Testing

/// What a playback checkpoint costs the card: one commit (one fsync of the -wal with synchronous=FULL)
/// holding both the position and the practice run it updates. Counted on the real files of the daemon
/// (in this process, on virtual time): commits in the -wal (`WriteAheadLog`), checkpoints by the daemon's
/// own log of each one saved.
@Suite struct CheckpointCommitTests {
    /// Pauses and lets the pause's own checkpoint be written (the saved place is where it stopped): from
    /// then on nothing is written until playing again, so the files can be read between two commits.
    private func pauseAndSettle(_ harness: DrivenDaemon) throws -> StatusReport {
        #expect(throws: Never.self) { try harness.request(.pause).get() }
        return try harness.advance(until: { status in
            status.state == .paused
                && status.lastCheckpoint?.position == status.position
        }, within: .seconds(5))
    }

    /// Commits in the -wal, read while the daemon is paused.
    private func commits(_ harness: DrivenDaemon) throws -> WriteAheadLog {
        let path = harness.dataDirectory + "/stillroom.db"
        return try #require(WriteAheadLog(path: path + "-wal"), "no -wal beside \(path)")
    }

    /// Checkpoints the daemon logged (`--verbose`: "checkpoint: SESSION at M:SS") after the first pause's
    /// own checkpoint, up to and including the second pause's.
    private func checkpointsBetweenPauses(_ log: String) -> Int {
        var pausesSeen = 0
        var waitingForPauseCheckpoint = false
        var counted = 0
        for line in log.split(separator: "\n") {
            if line.contains("paused steady-breath at") {
                pausesSeen += 1
                waitingForPauseCheckpoint = true
            } else if line.contains("checkpoint: steady-breath at") {
                if pausesSeen == 2 || (pausesSeen == 1 && !waitingForPauseCheckpoint) { counted += 1 }
                if waitingForPauseCheckpoint {
                    waitingForPauseCheckpoint = false
                    if pausesSeen == 2 { break }
                }
            }
        }
        return counted
    }

    @Test func eachCheckpointIsOneCommitHoldingThePracticeRunToo() throws {
        let harness = DrivenDaemon(content: RepositoryPaths.content, extraArguments: ["--verbose"])
        try harness.start()
        #expect(throws: Never.self) { try harness.request(.play(session: "steady-breath")).get() }
        // Past the first 10 s heard, where the run is first inserted (a write of its own, once per run).
        try harness.advance(until: { ($0.lastCheckpoint?.position ?? 0) >= 20 }, within: .seconds(60))
        let first = try pauseAndSettle(harness)
        let before = try commits(harness)
        let from = try #require(first.lastCheckpoint?.position)

        #expect(throws: Never.self) { try harness.request(.resume).get() }
        // Five periodic checkpoints or more, well before 90 % of the five minutes, where completion is
        // written at once (a write of its own: the count would not be one a checkpoint then).
        try harness.advance(until: { ($0.lastCheckpoint?.position ?? 0) >= from + 50 }, within: .seconds(120))
        let second = try pauseAndSettle(harness)
        let after = try commits(harness)
        try #require(second.position < 250, "the session neared its end")

        try #require(after.salt == before.salt, "the -wal restarted in between (a checkpoint of the WAL)")
        let commits = after.commits - before.commits
        // And those commits kept the practice run up to date: one run, all that was heard, up to the pause.
        let kept = PracticeKept(harness)
        let stoppedAt = second.position
        harness.stop()
        let checkpoints = checkpointsBetweenPauses(harness.log)
        #expect(checkpoints >= 5, "only \(checkpoints) checkpoints were written")
        // The old behaviour, a commit for the position and another for the practice run, made twice as many.
        #expect(commits == checkpoints, "\(commits) commits for \(checkpoints) checkpoints")
        #expect(kept.runs == 1)
        #expect(abs(kept.listeningSeconds - stoppedAt) < 1, "kept \(kept.listeningSeconds) s, paused at \(stoppedAt) s")
    }
}
