// `saveProgress`: a checkpoint and its practice run in one transaction, counted and cut through the crash
// layer (Tests/CCrashVFS). In PowerLossTests, which is serialized: the layer has one plan for the process.

import CCrashVFS
import CSQLite
@testable import SQLiteStore
import StillroomCore
import Testing
import TestSupport

extension PowerLossTests {
    var position: PlaybackPosition { PlaybackPosition(sessionID: "dawn", frame: 20 * 48_000, sampleRate: 48_000) }

    func dawnRun(id: Int64?, heard: Double) -> PracticeRunRecord {
        PracticeRunRecord(id: id, sessionID: "dawn", startedAt: testNow, actualListeningSeconds: heard, coveredSeconds: heard,
                          coveredRanges: [CoveredRange(start: 0, end: heard)], recordingSeconds: 900, clockTrusted: true,
                          updatedAt: testNow + Int64(heard * 1000))
    }

    /// Opens a store through the crash layer with one run already kept.
    func openWithRun(_ sandbox: RamSandbox) throws -> (SQLiteStore, PracticeRunRecord) {
        try #require(crashvfs_register() == SQLITE_OK)
        crashvfs_reset()
        let path = sandbox.file("stillroom.db")
        let store = try SQLiteStore.open(path: path, now: testNow, testVFS: CRASHVFS_NAME).store
        crashvfs_directory_synced(path) // what the store's own directory fsync did
        let stored = try store.saveProgress(ProgressSave(checkpoints: [.save(position)], runs: [dawnRun(id: nil, heard: 10)]),
                                            clockTrusted: true, now: testNow)
        return (store, try #require(stored.first))
    }

    @Test func aCheckpointWithItsRunIsOneSync() throws {
        let sandbox = RamSandbox()
        defer { sandbox.remove() }
        let (store, first) = try openWithRun(sandbox)
        defer { store.close() }
        #expect(first.id != nil)
        var later = position
        for tick in 3...8 {
            later.frame = Int64(tick * 10 * 48_000)
            let syncs = crashvfs_sync_count()
            let log = WriteAheadLog(path: sandbox.file("stillroom.db-wal"))
            try store.saveProgress(ProgressSave(checkpoints: [.save(later)], runs: [dawnRun(id: first.id, heard: Double(tick * 10))]),
                                   clockTrusted: true, now: testNow + Int64(tick) * 10_000)
            #expect(crashvfs_sync_count() - syncs == 1, "checkpoint at \(tick * 10) s")
            // Two pages of 1 KiB: the place's row and the run's row, no index (docs/performance.md, bytes).
            let grown = WriteAheadLog(path: sandbox.file("stillroom.db-wal"))
            #expect(grown.map(\.commits) == log.map { $0.commits + 1 })
            #expect(grown.map(\.frames) == log.map { $0.frames + 2 }, "checkpoint at \(tick * 10) s")
        }
        // A run re-dated (the clock became trusted) still has its start and trust written, in the same commit.
        var redated = dawnRun(id: first.id, heard: 90)
        redated.startedAt = testNow - 5_000
        redated.clockTrusted = false
        let syncs = crashvfs_sync_count()
        try store.saveProgress(ProgressSave(runs: [redated]), clockTrusted: true, now: testNow + 90_000)
        #expect(crashvfs_sync_count() - syncs == 1)
        #expect(try store.practiceRun(id: first.id!) == redated)
        redated.actualListeningSeconds = 80
        redated.coveredSeconds = 80
        redated.coveredRanges = [CoveredRange(start: 0, end: 80)]
        redated.startedAt = testNow
        redated.clockTrusted = true
        redated.updatedAt = testNow + 80_000
        try store.updatePracticeRun(redated)
        #expect(try store.checkpoint(sessionID: "dawn")?.positionFrames == later.frame)
        #expect(try store.practiceRun(id: first.id!)?.actualListeningSeconds == 80)
        // Nothing to keep is no transaction at all.
        let idle = crashvfs_sync_count()
        try store.saveProgress(ProgressSave(), clockTrusted: true, now: testNow)
        #expect(crashvfs_sync_count() == idle)
    }

    /// Cut at the save's one sync (torn or not): the next boot finds the place and the run both as before,
    /// or both as after, never one of each.
    @Test(arguments: [crashvfs_loss_all, crashvfs_loss_torn_prefix, crashvfs_loss_torn_scattered])
    func aCutDuringTheSaveKeepsThePlaceAndTheRunInAgreement(loss: crashvfs_loss) throws {
        for seed in UInt64(1)...8 {
            let sandbox = RamSandbox()
            defer { sandbox.remove() }
            let (store, first) = try openWithRun(sandbox)
            crashvfs_plan_crash_at_sync(crashvfs_sync_count() + 1, loss, seed)
            var later = position
            later.frame = 30 * 48_000
            #expect(throws: StoreError.self) {
                try store.saveProgress(ProgressSave(checkpoints: [.save(later)], runs: [dawnRun(id: first.id, heard: 30)]),
                                       clockTrusted: true, now: testNow + 30_000)
            }
            try #require(crashvfs_has_crashed() != 0)
            store.close()

            let reopened = try SQLiteStore.open(path: sandbox.file("stillroom.db"), now: testNow + 40_000)
            defer { reopened.store.close() }
            #expect(try reopened.store.quickCheck() == ["ok"])
            let frames = try reopened.store.checkpoint(sessionID: "dawn")?.positionFrames
            let heard = try reopened.store.practiceRun(id: first.id!)?.actualListeningSeconds
            let agree = (frames == position.frame && heard == 10) || (frames == later.frame && heard == 30)
            #expect(agree, "loss \(loss.rawValue), seed \(seed): place \(frames.map(String.init) ?? "none"), run \(heard.map { "\($0)" } ?? "none")")
        }
    }
}
