// The thin connection layer: prepared statements are reused, and odd paths survive the file: URI used
// for the no-write check.

import CSQLite
import Glibc
@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct ConnectionTests {
    /// How many prepared statements the connection holds right now.
    func liveStatements(_ store: SQLiteStore) -> Int {
        var count = 0
        var statement = sqlite3_next_stmt(store.connection.handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(store.connection.handle, current)
        }
        return count
    }

    @Test func repeatedCallsReuseOnePreparedStatement() throws {
        try withFreshStore { (store, _) throws in
            try store.setSetting("k", to: "0", now: testNow)
            let afterFirst = liveStatements(store)
            for index in 1...50 { try store.setSetting("k", to: "\(index)", now: testNow) }
            #expect(liveStatements(store) == afterFirst)
            _ = try store.setting("k")
            #expect(liveStatements(store) == afterFirst + 1)
        }
    }

    @Test func uriEscapingKeepsEverythingButUnreservedCharacters() {
        #expect(Connection.uriEscaped("/var/lib/stillroom/stillroom.db") == "/var/lib/stillroom/stillroom.db")
        #expect(Connection.uriEscaped("/tmp/a?b#c%d e") == "/tmp/a%3Fb%23c%25d%20e")
        #expect(Connection.uriEscaped("/tmp/ü") == "/tmp/%C3%BC")
    }

    @Test func aCrashImageInADirectoryWithURICharactersIsCheckedAndOpened() throws {
        try withSandbox { (sandbox) throws in
            let odd = sandbox.directory.file("we?ird #dir %41 ü")
            #expect(mkdir(odd, 0o755) == 0)
            let path = odd + "/stillroom.db"
            let writer = try SQLiteStore.open(path: path, now: testNow).store
            defer { writer.close() }
            let sample = try SampleData.write(into: writer)
            // A copy taken while the writer is open: the database and its -wal (the writer keeps the WAL
            // index in memory). A reader of the copy makes a -shm, as older firmware's writer left one; with
            // it the check goes through the file: URI.
            let crashed = odd + "/crashed.db"
            snapshotAsIfPowerCut(from: path, to: crashed)
            #expect(fileExists(crashed + "-wal") && !fileExists(crashed + "-shm"))
            _ = try RawDatabase(path: crashed, readOnly: true).column("SELECT count(*) FROM setting")
            #expect(fileExists(crashed + "-shm"))
            do {
                // The no-write check path itself (a failure here would silently fall back to plain read-only).
                let untouched = try Connection.open(path: crashed, mode: .readOnlyUntouched, operation: "test")
                defer { untouched.close() }
                #expect(try untouched.executeReturningText("SELECT value FROM setting WHERE key = 'volume'", operation: "test") == ["0.4"])
            }

            let opened = try SQLiteStore.open(path: crashed, now: testNow)
            defer { opened.store.close() }
            #expect(opened.outcome == .opened)
            try sample.verify(in: opened.store)
        }
    }

    /// Every connection, the writer's and every reader's (stillroomctl as root with the daemon down reads a
    /// file the daemon's user wrote), is defensive and distrusts the schema: a planted view or trigger cannot
    /// call a function with side effects, no statement can corrupt the file on purpose.
    @Test func everyConnectionIsDefensiveAndDistrustsTheSchema() throws {
        try withSandbox { (sandbox) throws in
            let store = try sandbox.open().store
            #expect(stillroom_sqlite_is_hardened(store.connection.handle) == 1, "the writer")
            // Defensive mode, seen: sqlite_schema cannot be rewritten by hand, writable_schema or not.
            _ = try? store.connection.run("PRAGMA writable_schema = ON", operation: "attack")
            #expect(throws: StoreError.self) { try store.connection.run("UPDATE sqlite_schema SET sql = 'x' WHERE name = 'notice'", operation: "attack") }
            store.close() // the writer holds the file alone
            let reader = try SQLiteStore.openReadOnly(path: sandbox.path)
            defer { reader.close() }
            #expect(stillroom_sqlite_is_hardened(reader.connection.handle) == 1, "a reader")
        }
        let empty = try SQLiteStore.openEmptyReadOnly()
        defer { empty.close() }
        #expect(stillroom_sqlite_is_hardened(empty.connection.handle) == 1, "the empty one in memory")
    }
}
