// A deletion leaves a marker in its own transaction; the purge (the rewrite that makes deleted rows
// unreadable in the files) removes it only when done, waits when the disk has no room, and gives back
// the room a failed attempt took. "Unreadable" is checked on the raw bytes of the database and its -wal.

import Glibc
@testable import SQLiteStore
import StillroomCore
import Testing
import TestSupport

@Suite struct PendingPurgeTests {
    static let padding = String(repeating: "p", count: 200)

    /// `count` runs to keep (about 300 bytes each) and one run named `marker`; returns the marker run's id.
    static func fill(_ store: SQLiteStore, keeping count: Int, marker: String) throws -> Int64 {
        try store.transaction {
            for index in 0..<count {
                _ = try store.insertPracticeRun(PracticeRunRecord(sessionID: "kept-\(index)-\(padding)", startedAt: testNow,
                                                                  recordingSeconds: 300, clockTrusted: true, updatedAt: testNow))
            }
            return try #require(try store.insertPracticeRun(PracticeRunRecord(sessionID: marker, startedAt: testNow,
                                                                              recordingSeconds: 300, clockTrusted: true,
                                                                              updatedAt: testNow)).id)
        }
    }

    @Test func aDeletionAsksForAPurgeAndThePurgeMakesTheRowsUnreadable() throws {
        try withFreshStore { (store, sandbox) throws in
            let marker = "purge-me-please-61d0"
            let id = try Self.fill(store, keeping: 50, marker: marker)
            #expect(try store.hasPendingPurge() == false)
            #expect(try store.finishPendingPurge() == .nothingPending)
            #expect(try store.deletePracticeRun(id: id + 1000) == false) // nothing deleted, nothing to purge
            #expect(try store.hasPendingPurge() == false)

            #expect(try store.deletePracticeRun(id: id))
            #expect(try store.hasPendingPurge())
            #expect(RawFileBytes.files(containing: marker, in: sandbox.directory.path) != []) // still in the files
            #expect(try store.finishPendingPurge() == .purged)
            #expect(try store.hasPendingPurge() == false)
            #expect(RawFileBytes.files(containing: marker, in: sandbox.directory.path) == [])
            #expect(try store.recentPracticeRuns(limit: 100).count == 50)
        }
    }

    @Test func withoutRoomThePurgeWaitsAndTheMarkerStays() throws {
        try withFreshStore { (store, _) throws in
            let id = try Self.fill(store, keeping: 50, marker: "waiting-for-room")
            try store.deletePracticeRun(id: id)
            guard case .waitingForRoom(let needed, let available) = try store.finishPendingPurge(availableBytes: 4096) else {
                Issue.record("the purge did not wait")
                return
            }
            #expect(available == 4096 && needed > 2 * 4096)
            #expect(try store.hasPendingPurge())
        }
    }

    @Test func aDatabaseFromSchemaOneWithNothingDeletedNeedsNoPurge() throws {
        try withSandbox { (sandbox) throws in
            do {
                let connection = try Connection.open(path: sandbox.path, mode: .readWriteCreate, operation: "fixture")
                defer { connection.close() }
                try Schema.migrate(connection, from: 0, to: 1)
                try RawDatabase.exec(connection.handle, """
                    INSERT INTO practice_run (session_id, started_at, recording_seconds, clock_trusted, updated_at)
                    VALUES ('kept', 1, 300, 1, 1)
                    """)
            }
            let store = try sandbox.open().store
            defer { store.close() }
            #expect(try store.hasPendingPurge() == false)
        }
    }

    /// The real thing: a tmpfs filled until ENOSPC. A purge forced past its room check fails with
    /// SQLITE_FULL, keeps the marker, and hands back the -wal it grew; with room it succeeds.
    @Test
    func aPurgeStoppedByAFullDiskKeepsTheMarkerAndGivesTheRoomBack() throws {
        guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }
        let directory = TemporaryDirectory("stillroom-purge")
        defer { directory.remove() }
        let disk = try SmallDisk(at: directory.file("data"), kibibytes: 8 * 1024)
        defer { disk.unmount() }
        let path = disk.path + "/stillroom.db"
        let marker = "full-disk-evening-0a77"
        let store = try SQLiteStore.open(path: path, now: testNow).store
        defer { store.close() }
        let id = try Self.fill(store, keeping: 4000, marker: marker)
        _ = try store.rawColumn("PRAGMA wal_checkpoint(TRUNCATE)") // a small -wal, as after a quiet while

        disk.fill(leavingBytes: 128 * 1024)
        #expect(try store.deletePracticeRun(id: id)) // the deletion itself fits
        guard case .waitingForRoom = try store.finishPendingPurge() else {
            Issue.record("the purge did not wait for room")
            return
        }
        let before = disk.availableBytes
        let error = expectStoreError(.diskFull) { _ = try store.finishPendingPurge(availableBytes: nil) }
        #expect(error?.operation == "purge.vacuum")
        #expect(try store.hasPendingPurge())
        #expect(disk.availableBytes >= before) // the -wal the attempt grew was emptied again
        #expect(RawFileBytes.files(containing: marker, in: disk.path) != [])

        disk.makeRoom()
        let outcome = try store.finishPendingPurge()
        #expect(outcome == .purged, "\(outcome), \(disk.availableBytes) bytes free")
        #expect(RawFileBytes.files(containing: marker, in: disk.path) == [])
        #expect(try store.recentPracticeRuns(limit: 10_000).count == 4000)
    }
}
