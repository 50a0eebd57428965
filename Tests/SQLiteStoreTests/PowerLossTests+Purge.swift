// A power cut after history is deleted and before (or while) it is wiped from the files: the deletion's
// marker survives, and the next start's purge — what the daemon runs after opening the store — leaves no
// byte of the deleted rows in the database or its -wal. Through the crash layer (Tests/CCrashVFS), which
// loses every write not synced when the power goes.
//
// In the PowerLossTests suite, whose tests run one at a time: the crash layer has one plan for the whole
// process, so these must never run beside the other crash tests.

import CCrashVFS
import CSQLite
@testable import SQLiteStore
import StillroomCore
import Testing
import TestSupport

extension PowerLossTests {
    static let purgeMarker = "cut-before-the-wipe-3b9e"

    struct PurgeBoot {
        var outcome: PurgeOutcome
        var filesHoldingMarker: [String]
        var runs: Int
        var favourites: [String]
        var integrity: [String]
        /// Syncs the purge made before the power went (all of them when it finished).
        var purgeSyncs: Int64
    }

    /// Runs holding the marker are written and checkpointed into the database file, then all deleted
    /// (acknowledged). The power goes before the purge (`cutAtPurgeSync` nil) or at that sync of the
    /// purge; then the next boot opens the files for real and finishes the purge.
    static func deleteCutAndBoot(cutAtPurgeSync: Int64?) throws -> PurgeBoot {
        try #require(crashvfs_register() == SQLITE_OK)
        crashvfs_reset()
        let sandbox = RamSandbox()
        defer { sandbox.remove() }
        let path = sandbox.file("stillroom.db")
        func openThroughCrashLayer() throws -> SQLiteStore {
            let opened = try SQLiteStore.open(path: path, now: testNow, testVFS: CRASHVFS_NAME)
            if opened.outcome == .created { crashvfs_directory_synced(path) } // the store's own directory fsync
            return opened.store
        }
        var store = try openThroughCrashLayer()
        try store.transaction {
            for index in 0..<200 {
                _ = try store.insertPracticeRun(PracticeRunRecord(sessionID: "\(purgeMarker)-\(index)", startedAt: testNow,
                                                                  recordingSeconds: 300, clockTrusted: true, updatedAt: testNow))
            }
            try store.addFavorite(sessionID: "kept", now: testNow)
        }
        store.close() // checkpointed: the rows are in the database file itself
        store = try openThroughCrashLayer()
        #expect(try store.deleteAllPracticeRuns() == 200)

        let syncsBefore = crashvfs_sync_count()
        if let cutAtPurgeSync {
            crashvfs_plan_crash_at_sync(syncsBefore + cutAtPurgeSync, crashvfs_loss_all, 1)
            _ = try? store.finishPendingPurge(availableBytes: nil)
        }
        let purgeSyncs = crashvfs_sync_count() - syncsBefore
        if crashvfs_has_crashed() == 0 { crashvfs_crash_now(crashvfs_loss_all, 1) }
        store.close() // its writes fail now: the disk is gone

        // The next start: the real open, then the purge the daemon runs right after it.
        let opened = try SQLiteStore.open(path: path, now: testNow + 1000)
        defer { opened.store.close() }
        let outcome = try opened.store.finishPendingPurge()
        return PurgeBoot(outcome: outcome, filesHoldingMarker: RawFileBytes.files(containing: purgeMarker, in: sandbox.path),
                    runs: try opened.store.recentPracticeRuns(limit: 1000).count,
                    favourites: try opened.store.favorites().map(\.sessionID),
                    integrity: try opened.store.rawColumn("PRAGMA integrity_check"), purgeSyncs: purgeSyncs)
    }

    @Test func aCutBetweenTheDeletionAndThePurgeIsWipedAtTheNextStart() throws {
        let boot = try Self.deleteCutAndBoot(cutAtPurgeSync: nil)
        #expect(boot.outcome == .purged)
        #expect(boot.filesHoldingMarker == [])
        #expect(boot.runs == 0 && boot.favourites == ["kept"] && boot.integrity == ["ok"])
    }

    @Test func aCutAtAnySyncOfThePurgeIsWipedAtTheNextStart() throws {
        // A purge that runs to the end, to count its syncs (a plan beyond them never fires).
        let whole = try Self.deleteCutAndBoot(cutAtPurgeSync: 1_000)
        try #require(whole.outcome == .nothingPending, "the uncut purge did not finish")
        #expect(whole.filesHoldingMarker == [])
        try #require(whole.purgeSyncs >= 3, "purge syncs: \(whole.purgeSyncs)")
        for sync in 1...whole.purgeSyncs {
            let boot = try Self.deleteCutAndBoot(cutAtPurgeSync: sync)
            #expect(boot.filesHoldingMarker == [], "cut at purge sync \(sync): \(boot.filesHoldingMarker)")
            // Even a cut at the last sync (the marker's removal) leaves the marker: the next start purges again.
            #expect(boot.outcome == .purged, "cut at purge sync \(sync): \(boot.outcome)")
            #expect(boot.runs == 0 && boot.favourites == ["kept"] && boot.integrity == ["ok"], "cut at purge sync \(sync)")
        }
        print("purge power loss: cut at each of the purge's \(whole.purgeSyncs) syncs, every next start wiped the deleted rows")
    }
}
