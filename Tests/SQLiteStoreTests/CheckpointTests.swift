@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct CheckpointTests {
    @Test func saveReplacesAndLatestFollowsTheSequenceNotTheClock() throws {
        try withFreshStore { (store, _) throws in
            #expect(try store.latestCheckpoint() == nil)
            let first = try store.saveCheckpoint(sessionID: "breathe-5", positionFrames: 44_100, sampleRate: 44_100,
                                                 clockTrusted: false, now: testNow)
            #expect(first.sequence == 1)
            // The clock jumps back (NTP's first sync on a box without an RTC): "latest" must not follow it.
            let second = try store.saveCheckpoint(sessionID: "unwind-12", positionFrames: 96_000, sampleRate: 48_000,
                                                  clockTrusted: true, now: testNow - 3_600_000)
            #expect(second.sequence > first.sequence)
            #expect(try store.latestCheckpoint() == second)

            // Saving the first session again replaces its row and makes it the latest.
            let third = try store.saveCheckpoint(sessionID: "breathe-5", positionFrames: 88_200, sampleRate: 44_100,
                                                 clockTrusted: true, now: testNow - 3_000_000)
            #expect(third.sequence > second.sequence)
            #expect(try store.latestCheckpoint() == third)
            #expect(try store.checkpoint(sessionID: "breathe-5") == third)
            #expect(try store.checkpoint(sessionID: "unwind-12") == second)
            #expect(third.positionSeconds == 2)
        }
    }

    @Test func clearingRemovesOnlyThatSession() throws {
        try withFreshStore { (store, _) throws in
            let a = try store.saveCheckpoint(sessionID: "a", positionFrames: 1, sampleRate: 44_100, clockTrusted: true, now: 1)
            try store.saveCheckpoint(sessionID: "b", positionFrames: 2, sampleRate: 44_100, clockTrusted: true, now: 2)
            #expect(try store.clearCheckpoint(sessionID: "b"))
            #expect(try store.clearCheckpoint(sessionID: "b") == false)
            #expect(try store.latestCheckpoint() == a)
            let c = try store.saveCheckpoint(sessionID: "c", positionFrames: 3, sampleRate: 44_100, clockTrusted: true, now: 3)
            #expect(c.sequence > a.sequence)
            #expect(try store.clearAllCheckpoints() == 2)
            #expect(try store.latestCheckpoint() == nil)
        }
    }

    @Test func impossiblePositionsAreRejected() throws {
        try withFreshStore { (store, _) throws in
            expectStoreError(.constraint) {
                try store.saveCheckpoint(sessionID: "a", positionFrames: -1, sampleRate: 44_100, clockTrusted: true, now: 1)
            }
            expectStoreError(.constraint) {
                try store.saveCheckpoint(sessionID: "a", positionFrames: 0, sampleRate: 0, clockTrusted: true, now: 1)
            }
            #expect(try store.latestCheckpoint() == nil)
        }
    }

    @Test func aCheckpointAndARunUpdateCommitTogether() throws {
        // The every-10-s write: position and practice progress in one transaction (one fsync).
        try withFreshStore { (store, sandbox) throws in
            var run = try store.insertPracticeRun(PracticeRunRecord(
                sessionID: "breathe-5", startedAt: testNow, recordingSeconds: 300, clockTrusted: true, updatedAt: testNow))
            try store.transaction {
                try store.saveCheckpoint(sessionID: "breathe-5", positionFrames: 441_000, sampleRate: 44_100,
                                         clockTrusted: true, now: testNow + 10_000)
                run.actualListeningSeconds = 10
                run.coveredSeconds = 10
                run.coveredRanges = [CoveredRange(start: 0, end: 10)]
                run.updatedAt = testNow + 10_000
                try store.updatePracticeRun(run)
            }
            store.close()
            let reopened = try sandbox.open().store
            defer { reopened.close() }
            #expect(try reopened.latestCheckpoint()?.positionFrames == 441_000)
            #expect(try reopened.practiceRun(id: try #require(run.id)) == run)
        }
    }
}
