// A full disk (simulated with PRAGMA max_page_count, which makes SQLite return SQLITE_FULL exactly as a
// full file system does) is a distinct, clear error, and loses nothing that was already committed.

@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct DiskFullTests {
    /// Caps the database at its current size, so the next write needing a new page fails with SQLITE_FULL.
    func fillDisk(_ store: SQLiteStore) throws {
        let pages = try #require(try store.rawColumn("PRAGMA page_count").first)
        try store.rawExec("PRAGMA max_page_count = \(pages)")
    }

    /// A value large enough that every write needs new pages.
    let bulky = String(repeating: "x", count: 3000)

    @Test func diskFullIsADistinctErrorAndKeepsCommittedData() throws {
        try withSandbox { (sandbox) throws in
            let store = try sandbox.open().store
            let sample = try SampleData.write(into: store)
            try fillDisk(store)

            let error = expectStoreError(.diskFull) {
                for index in 0..<100 { try store.setSetting("bulk-\(index)", to: bulky, now: testNow) }
            }
            #expect(error?.isDiskFull == true)
            #expect(error?.code == 13) // SQLITE_FULL
            #expect(error?.operation == "settings.set")
            #expect(error?.description.hasPrefix("disk full") == true)

            // Everything committed before is still there, in this connection and after a restart.
            try sample.verify(in: store)
            store.close()
            let reopened = try sandbox.open()
            defer { reopened.store.close() }
            #expect(reopened.outcome == .opened)
            try sample.verify(in: reopened.store)
        }
    }

    @Test func aTransactionThatRunsOutOfSpaceKeepsNoneOfItsWrites() throws {
        try withSandbox { (sandbox) throws in
            let store = try sandbox.open().store
            try store.setSetting("before", to: "kept", now: testNow)
            try fillDisk(store)

            expectStoreError(.diskFull) {
                try store.transaction {
                    try store.addFavorite(sessionID: "in-the-failed-transaction", now: testNow)
                    for index in 0..<100 { try store.setSetting("bulk-\(index)", to: bulky, now: testNow) }
                }
            }
            #expect(try store.favorites().isEmpty)
            #expect(try store.allSettings().map(\.key) == ["before"])

            // Once there is room again the store carries on normally.
            try store.rawExec("PRAGMA max_page_count = 1000000")
            try store.setSetting("after", to: "written", now: testNow)
            #expect(try store.allSettings().map(\.key) == ["after", "before"])
            store.close()

            let reopened = try sandbox.open().store
            defer { reopened.close() }
            #expect(try reopened.allSettings().map(\.key) == ["after", "before"])
            #expect(try reopened.quickCheck() == ["ok"])
        }
    }

    @Test func aPracticeRunInsertOnAFullDiskFailsCleanly() throws {
        try withFreshStore { (store, _) throws in
            let first = try store.insertPracticeRun(PracticeRunRecord(
                sessionID: "s", startedAt: testNow, recordingSeconds: 300, clockTrusted: true, updatedAt: testNow))
            try fillDisk(store)
            expectStoreError(.diskFull) {
                for _ in 0..<200 {
                    _ = try store.insertPracticeRun(PracticeRunRecord(
                        sessionID: bulky, startedAt: testNow, recordingSeconds: 300, clockTrusted: true, updatedAt: testNow))
                }
            }
            #expect(try store.practiceRun(id: try #require(first.id)) == first)
        }
    }
}
