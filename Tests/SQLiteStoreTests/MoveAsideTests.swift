// A damaged database is moved aside (with its -wal/-shm, bytes untouched), a fresh one takes its place,
// and a notice says so until dismissed. Anything that is not damage (locks, permissions) is an error
// and moves nothing.

import Glibc
@testable import SQLiteStore
import StillroomCore
import Testing

@Suite struct MoveAsideTests {
    static let stamp = "20260314T221503Z" // testNow in UTC

    @Test func garbageFileIsMovedAsideWithItsWalAndShm() throws {
        try withSandbox { (sandbox) throws in
            let garbage = noiseBytes(count: 20_000)
            let wal = noiseBytes(count: 8_000, seed: 2)
            let shm = noiseBytes(count: 32_768, seed: 3)
            writeBytes(sandbox.path, garbage)
            writeBytes(sandbox.path + "-wal", wal)
            writeBytes(sandbox.path + "-shm", shm)

            let opened = try sandbox.open()
            defer { opened.store.close() }
            guard case .movedAside(let moved) = opened.outcome else {
                Issue.record("expected movedAside, got \(opened.outcome)")
                return
            }
            let target = sandbox.path + ".damaged-" + Self.stamp
            #expect(moved.movedDatabasePath == target)
            #expect(moved.movedFiles.map(\.to).sorted() == [target, target + "-shm", target + "-wal"])
            #expect(moved.reason.contains("not a database"))
            #expect(opened.outcome.description.contains(target))
            // Set aside exactly as found.
            #expect(fileHolds(target, garbage))
            #expect(fileHolds(target + "-wal", wal))
            #expect(fileHolds(target + "-shm", shm))
            // And a working fresh database in its place, with the notice.
            #expect(try opened.store.quickCheck() == ["ok"])
            let notices = try opened.store.notices()
            #expect(notices.count == 1)
            #expect(notices.first?.id == moved.noticeID)
            #expect(notices.first?.kind == .databaseMovedAside)
            #expect(notices.first?.message.contains(target) == true)
            #expect(notices.first?.createdAt == testNow)
        }
    }

    @Test(arguments: [50, 4096, 3 * 4096, -1])
    func truncatedFileIsMovedAside(keepingBytes: Int) throws {
        try withSandbox { (sandbox) throws in
            let store = try sandbox.open().store
            try store.transaction {
                for index in 0..<400 {
                    try store.setSetting("key-\(index)", to: String(repeating: "v", count: 100), now: testNow)
                }
            }
            store.close()
            let full = try #require(readBytes(sandbox.path))
            let keep = keepingBytes >= 0 ? keepingBytes : full.count / 2 // -1: half the file
            let truncated = Array(full.prefix(keep))
            writeBytes(sandbox.path, truncated)

            let opened = try sandbox.open()
            defer { opened.store.close() }
            guard case .movedAside(let moved) = opened.outcome else {
                Issue.record("expected movedAside, got \(opened.outcome)")
                return
            }
            #expect(fileHolds(moved.movedDatabasePath, truncated))
            #expect(try opened.store.allSettings().isEmpty)
            #expect(try opened.store.notices().map(\.kind) == [.databaseMovedAside])
        }
    }

    @Test func failedQuickCheckMovesTheDatabaseAndItsWalAside() throws {
        try withSandbox { (sandbox) throws in
            // Enough favourites to fill several pages, checkpointed into the main file by a clean close.
            let store = try sandbox.open().store
            try store.transaction {
                for index in 0..<1000 { try store.addFavorite(sessionID: "session-\(index)", now: testNow) }
            }
            store.close()

            // A crash image: a writer has committed to the -wal and still has the database open.
            let crashed = sandbox.directory.file("crashed.db")
            do {
                let writer = try RawDatabase(path: sandbox.path)
                try writer.exec("INSERT INTO setting (key, value, updated_at) VALUES ('k', 'v', 1)")
                snapshotAsIfPowerCut(from: sandbox.path, to: crashed)
            }
            #expect(fileExists(crashed + "-wal"))
            #expect(fileExists(crashed + "-shm"))

            // Damage the cell pointers of a leaf page of the favourite table (not a page the -wal replaces):
            // the tree still opens, and quick_check reports the bad cells.
            let root = try #require(Int(try RawDatabase(path: sandbox.path, readOnly: true)
                .column("SELECT rootpage FROM sqlite_master WHERE name = 'favorite'").first ?? ""))
            let leaf = try #require(firstChildPage(of: root, in: crashed))
            patchBytes(crashed, at: (leaf - 1) * pageSize(of: crashed) + 8, [UInt8](repeating: 0xFF, count: 4))
            let damagedDatabase = readBytes(crashed)
            let damagedWal = readBytes(crashed + "-wal")
            let damagedShm = readBytes(crashed + "-shm")

            let opened = try SQLiteStore.open(path: crashed, now: testNow)
            defer { opened.store.close() }
            guard case .movedAside(let moved) = opened.outcome else {
                Issue.record("expected movedAside, got \(opened.outcome)")
                return
            }
            // SQLite reports this damage either as quick_check findings or as SQLITE_CORRUPT while checking
            // (it varies with the -shm it is given); either way it is caught before anything is written.
            #expect(moved.reason.hasPrefix("quick_check:") || moved.reason.contains("malformed"))
            let target = crashed + ".damaged-" + Self.stamp
            #expect(moved.movedFiles.map(\.to).sorted() == [target, target + "-shm", target + "-wal"])
            #expect(fileHolds(target, damagedDatabase))
            #expect(fileHolds(target + "-wal", damagedWal))
            #expect(fileHolds(target + "-shm", damagedShm)) // checked with readonly_shm: not even the index was written
            #expect(try opened.store.favorites().isEmpty)
            #expect(try opened.store.notices().count == 1)
        }
    }

    @Test func quickCheckFindingsAreTheReasonGiven() throws {
        try withSandbox { (sandbox) throws in
            let store = try sandbox.open().store
            try store.transaction {
                for index in 0..<1000 { try store.addFavorite(sessionID: "session-\(index)", now: testNow) }
            }
            let root = try #require(Int(try store.rawColumn("SELECT rootpage FROM sqlite_master WHERE name = 'favorite'").first ?? ""))
            store.close()
            #expect(sandbox.listing() == ["stillroom.db", "stillroom.db-wal"]) // a clean close: an emptied -wal, no -shm
            let leaf = try #require(firstChildPage(of: root, in: sandbox.path))
            // A wrong count of fragmented free bytes (page header byte 7): quick_check reports it as a finding.
            patchBytes(sandbox.path, at: (leaf - 1) * pageSize(of: sandbox.path) + 7, [0x7F])
            let damaged = readBytes(sandbox.path)

            let opened = try sandbox.open()
            defer { opened.store.close() }
            guard case .movedAside(let moved) = opened.outcome else {
                Issue.record("expected movedAside, got \(opened.outcome)")
                return
            }
            #expect(moved.reason.hasPrefix("quick_check: *** in database main ***"))
            #expect(moved.reason.contains("reported as 127 on page \(leaf)"))
            #expect(fileHolds(moved.movedDatabasePath, damaged))
        }
    }

    /// The left child of the first cell of an interior table b-tree page (page type 5), or nil.
    /// The database's page size, from its header (offset 16, big-endian; 1 means 65 536).
    func pageSize(of path: String) -> Int {
        guard let bytes = readBytes(path), bytes.count >= 18 else { return 4096 }
        let size = Int(bytes[16]) << 8 | Int(bytes[17])
        return size == 1 ? 65_536 : size
    }

    func firstChildPage(of page: Int, in path: String) -> Int? {
        let pageSize = pageSize(of: path)
        guard let bytes = readBytes(path), bytes.count >= page * pageSize else { return nil }
        let base = (page - 1) * pageSize
        guard bytes[base] == 5 else { return nil }
        let cell = base + Int(bytes[base + 12]) << 8 + Int(bytes[base + 13])
        return bytes[cell..<(cell + 4)].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func theNoticeSurvivesARestartUntilDismissed() throws {
        try withSandbox { (sandbox) throws in
            writeBytes(sandbox.path, noiseBytes(count: 5000))
            let first = try sandbox.open()
            first.store.close()

            let second = try sandbox.open(now: testNow + 60_000)
            defer { second.store.close() }
            #expect(second.outcome == .opened)
            let notice = try #require(try second.store.notices().first)
            #expect(notice.kind == .databaseMovedAside)
            #expect(try second.store.dismissNotice(id: notice.id, now: testNow + 61_000))
            #expect(try second.store.notices().isEmpty)
            #expect(try second.store.notices(includeDismissed: true).first?.dismissedAt == testNow + 61_000)
        }
    }

    @Test func twoDamagedDatabasesAtTheSameClockKeepBothCopies() throws {
        // A box without an RTC may boot with the same wall time twice; the second move must not
        // overwrite the first copy.
        try withSandbox { (sandbox) throws in
            let firstGarbage = noiseBytes(count: 3000, seed: 11)
            let secondGarbage = noiseBytes(count: 3000, seed: 12)
            writeBytes(sandbox.path, firstGarbage)
            try sandbox.open().store.close()
            writeBytes(sandbox.path, secondGarbage)
            let opened = try sandbox.open()
            defer { opened.store.close() }
            guard case .movedAside(let moved) = opened.outcome else {
                Issue.record("expected movedAside, got \(opened.outcome)")
                return
            }
            let firstTarget = sandbox.path + ".damaged-" + Self.stamp
            #expect(moved.movedDatabasePath == firstTarget + ".2")
            #expect(fileHolds(firstTarget, firstGarbage))
            #expect(fileHolds(firstTarget + ".2", secondGarbage))
        }
    }

    @Test func aDirectoryInThePlaceOfTheDatabaseIsAnErrorAndMovesNothing() {
        withSandbox { sandbox in
            #expect(mkdir(sandbox.path, 0o755) == 0)
            let error = expectStoreError(.cannotOpen) { _ = try sandbox.open() }
            #expect(error?.message.contains("not a regular file") == true)
            #expect(sandbox.listing() == ["stillroom.db"])
        }
    }

    @Test func aLockedDatabaseIsBusyAndMovesNothing() throws {
        try withSandbox { (sandbox) throws in
            try sandbox.open().store.close()
            // Another process holding an exclusive lock: not damage, so nothing may be moved.
            let holder = try RawDatabase(path: sandbox.path)
            try holder.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO setting VALUES ('a', 'b', 1)")
            expectStoreError(.busy) { _ = try SQLiteStore.open(path: sandbox.path, now: testNow, busyTimeoutMilliseconds: 0) }
            #expect(sandbox.listing().allSatisfy { !$0.contains("damaged") })
            try holder.exec("ROLLBACK")
        }
    }

    @Test func timestampsInNamesAreUTC() {
        #expect(FileSystem.timestamp(0) == "19700101T000000Z")
        #expect(FileSystem.timestamp(testNow) == Self.stamp)
        #expect(FileSystem.timestamp(951_782_400_000) == "20000229T000000Z")
        #expect(FileSystem.timestamp(-1) == "19691231T235959Z")
        #expect(FileSystem.timestamp(4_107_542_399_999) == "21000228T235959Z")
    }
}
