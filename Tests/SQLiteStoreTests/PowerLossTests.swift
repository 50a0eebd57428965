// Power loss below the process: the store driven through a VFS with a volatile write cache
// (Tests/CCrashVFS), the power cut at every sync of a scripted workload and at seeded random writes,
// the files then reopened by the real SQLiteStore.open. docs/reliability.md has the figures.
//
// Serialized: the crash layer has one plan for the whole process.

import CCrashVFS
import CSQLite
@testable import SQLiteStore
import StillroomCore
import Testing

@Suite(.serialized) struct PowerLossTests {
    @Test func everyAcknowledgedCommitSurvivesACrashAtEverySync() throws {
        let (reference, states) = try PowerLossHarness.reference()
        try #require(PowerLossHarness.problem(with: reference, reference: states) == nil)
        #expect(reference.acknowledgedSteps == PowerLossWorkload.steps.count)
        // The workload must reach the places where a crash is dangerous, where the database file itself is
        // written: its creation (rollback journal), the restart's checkpoint, the automatic checkpoint at
        // 100 pages (PowerLossHarness), and the purge's two.
        #expect(reference.databaseSyncs >= 5, "database syncs: \(reference.databaseSyncs)")

        var checkedCommits = 0
        var pointsUndoingDirectoryChanges = 0
        for sync in 1...reference.syncs {
            let scenario = CrashScenario(point: .atSync(sync))
            let run = try PowerLossHarness.run(scenario)
            PowerLossHarness.expectRecovered(run, scenario, reference: states)
            checkedCommits += run.acknowledgedSteps
            if run.directoryChangesUndone > 0 { pointsUndoingDirectoryChanges += 1 }
        }
        // Some crash points fall between a file's creation or deletion and its directory's fsync (the
        // database and -wal being created, the -wal deleted at the restart).
        #expect(pointsUndoingDirectoryChanges > 0)
        print("power loss, all unsynced writes lost: \(reference.syncs) sync points, \(PowerLossWorkload.steps.count) steps, "
              + "\(checkedCommits) acknowledged steps checked, \(reference.writes) writes and "
              + "\(reference.databaseSyncs) database syncs per run, "
              + "\(pointsUndoingDirectoryChanges) crash points undid a file creation or deletion")
    }

    @Test func tornWriteBackAtEverySyncLosesNothingAcknowledged() throws {
        let (reference, states) = try PowerLossHarness.reference()
        var checkedCommits = 0
        for sync in 1...reference.syncs {
            // Scattered: any subset of the unsynced sectors reached the disk, in any order.
            let scenario = CrashScenario(point: .atSync(sync), loss: crashvfs_loss_torn_scattered, seed: UInt64(sync))
            let run = try PowerLossHarness.run(scenario)
            PowerLossHarness.expectRecovered(run, scenario, reference: states)
            checkedCommits += run.acknowledgedSteps
        }
        print("power loss, torn scattered at every sync: \(reference.syncs) crash points, \(checkedCommits) acknowledged steps checked")
    }

    @Test func tornWriteBackAtRandomWritesLosesNothingAcknowledged() throws {
        let (reference, states) = try PowerLossHarness.reference()
        var random = SeededRandom(seed: 0x57111_4004)
        var checkedCommits = 0
        let runs = 80
        for index in 0..<runs {
            let write = Int64(random.next() % UInt64(reference.writes)) + 1
            let loss = index.isMultiple(of: 2) ? crashvfs_loss_torn_prefix : crashvfs_loss_torn_scattered
            let scenario = CrashScenario(point: .atWrite(write), loss: loss, seed: random.next())
            let run = try PowerLossHarness.run(scenario)
            PowerLossHarness.expectRecovered(run, scenario, reference: states)
            checkedCommits += run.acknowledgedSteps
        }
        print("power loss, torn at random writes: \(runs) crash points out of \(reference.writes) writes, "
              + "\(checkedCommits) acknowledged steps checked")
    }

    /// The control: the same layer loses acknowledged commits when the store is set up wrongly, so the
    /// tests above would catch a weaker `synchronous` (or a store that stopped syncing).
    @Test(arguments: [("FULL", false), ("NORMAL", true), ("OFF", true)])
    func onlySynchronousFullKeepsAcknowledgedCommits(synchronous: String, losesCommits: Bool) throws {
        try #require(crashvfs_register() == SQLITE_OK)
        crashvfs_reset()
        let sandbox = RamSandbox()
        defer { sandbox.remove() }
        let path = sandbox.file("stillroom.db")
        let store = try SQLiteStore.open(path: path, now: testNow, testVFS: CRASHVFS_NAME).store
        crashvfs_directory_synced(path) // What the store's own directory fsync does after creating.
        try store.rawExec("PRAGMA synchronous = \(synchronous)")
        let commits = 20
        for index in 0..<commits { try store.setSetting("key-\(index)", to: "\(index)", now: testNow + Int64(index)) }
        #expect(crashvfs_has_crashed() == 0)
        crashvfs_crash_now(crashvfs_loss_all, 1)
        store.close()

        let reopened = try SQLiteStore.open(path: path, now: testNow + 1000)
        defer { reopened.store.close() }
        #expect(reopened.outcome == .opened)
        #expect(try reopened.store.rawColumn("PRAGMA integrity_check") == ["ok"])
        let kept = try reopened.store.allSettings().count
        if losesCommits {
            #expect(kept < commits, "synchronous=\(synchronous) kept all \(commits) acknowledged commits: the layer has no teeth")
        } else {
            #expect(kept == commits, "synchronous=\(synchronous) kept \(kept) of \(commits) acknowledged commits")
        }
    }

    /// The sweep's own control: every 4th of the same crash points, with the store switched to synchronous=NORMAL after
    /// every open, find lost acknowledged commits.
    ///
    /// The -shm is removed before each next boot here: with NORMAL it can describe WAL frames that never
    /// reached the disk, and the store's no-write check (readonly_shm) then spends SQLite's whole retry
    /// budget (about 10 s) before falling back to a plain read-only check: correct, but too slow for a sweep.
    @Test func theSweepCatchesSynchronousNormal() throws {
        let (reference, states) = try PowerLossHarness.reference()
        var failing = 0
        var tried = 0
        for sync in stride(from: 1, through: reference.syncs, by: 4) {
            tried += 1
            let run = try PowerLossHarness.run(CrashScenario(point: .atSync(sync)), weakerSynchronous: "NORMAL",
                                               keepSharedMemory: false)
            if PowerLossHarness.problem(with: run, reference: states) != nil { failing += 1 }
        }
        print("power loss control, synchronous=NORMAL: \(failing) of \(tried) crash points (every 4th sync) lost acknowledged commits")
        #expect(failing > 0)
    }

    /// Found by the torn sweep: a power cut while the database file is being created (rollback journal,
    /// before the switch to WAL) can leave page 1 written without its first sector, next to a hot journal.
    /// SQLite's rollback restores the empty file; the store used to judge the missing header first and
    /// move the file aside with a "could not be read" notice.
    @Test func aDatabaseTornWhileBeingCreatedIsRolledBackNotMovedAside() throws {
        try #require(crashvfs_register() == SQLITE_OK)
        crashvfs_reset()
        let sandbox = RamSandbox()
        defer { sandbox.remove() }
        let path = sandbox.file("stillroom.db")
        // Sync 1 and 2: the journal; sync 3: the database, the moment its first page is on its way.
        crashvfs_plan_crash_at_sync(3, crashvfs_loss_all, 1)
        #expect(throws: StoreError.self) { _ = try SQLiteStore.open(path: path, now: testNow, testVFS: CRASHVFS_NAME) }
        try #require(crashvfs_has_crashed() != 0)
        try #require(fileExists(path + "-journal"))
        // The disk kept the page's later sectors but not the first (any subset may survive a torn write-back).
        writeBytes(path, [UInt8](repeating: 0, count: 512) + noiseBytes(count: 4096 - 512))

        let opened = try SQLiteStore.open(path: path, now: testNow)
        defer { opened.store.close() }
        #expect(opened.outcome == .created)
        #expect(try opened.store.quickCheck() == ["ok"])
        #expect(try opened.store.notices().isEmpty)
    }

    /// The layer's directory model: a file whose data was synced but whose directory never was is gone
    /// after the crash. (journal_mode=OFF, so no journal's directory sync makes the entry durable.)
    @Test(arguments: [false, true])
    func aNewFileNeedsItsDirectorySynced(directorySynced: Bool) throws {
        try #require(crashvfs_register() == SQLITE_OK)
        crashvfs_reset()
        let sandbox = RamSandbox()
        defer { sandbox.remove() }
        let path = sandbox.file("plain.db")
        var db: OpaquePointer?
        try #require(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, CRASHVFS_NAME) == SQLITE_OK)
        try RawDatabase.exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = FULL; CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        #expect(crashvfs_pending_operation_count() == 0) // The commit synced the data.
        if directorySynced { crashvfs_directory_synced(path) }
        crashvfs_crash_now(crashvfs_loss_all, 1)
        _ = sqlite3_close_v2(db)
        #expect(fileExists(path) == directorySynced)
        #expect(crashvfs_directory_changes_undone() == (directorySynced ? 0 : 1))
    }

    @Test func theLayerHoldsWritesUntilSyncAndShowsThemToTheProcess() throws {
        try #require(crashvfs_register() == SQLITE_OK)
        crashvfs_reset()
        let sandbox = RamSandbox()
        defer { sandbox.remove() }
        let path = sandbox.file("stillroom.db")
        let store = try SQLiteStore.open(path: path, now: testNow, testVFS: CRASHVFS_NAME).store
        defer { store.close() }
        crashvfs_directory_synced(path)
        try store.rawExec("PRAGMA synchronous = OFF")
        let walBefore = readBytes(path + "-wal")
        try store.setSetting("volume", to: "0.9", now: testNow)
        #expect(crashvfs_pending_operation_count() > 0)
        #expect(try store.setting("volume") == "0.9") // The process reads its own unsynced write.
        #expect(readBytes(path + "-wal") == walBefore) // The disk does not have it.
        try store.rawExec("PRAGMA synchronous = FULL")
        try store.setSetting("volume", to: "0.8", now: testNow)
        #expect(crashvfs_pending_operation_count() == 0) // The commit's sync wrote everything pending.
        #expect(readBytes(path + "-wal") != walBefore)
    }
}

/// xorshift64: reproducible crash points from a seed.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
