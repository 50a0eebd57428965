// Helpers for the store's tests: temporary databases, raw SQLite access (tests may build SQL strings;
// product code may not), and byte-level file access for damage tests.

import CSQLite
import Glibc
@testable import SQLiteStore
import StillroomCore
import Testing
import TestSupport

/// A fixed "now" for tests: 2026-03-14T22:15:03Z.
let testNow: UnixMilliseconds = 1_773_526_503_000

/// A temporary directory with a database path in it; removed by `remove()`.
struct StoreSandbox {
    let directory = TemporaryDirectory("stillroom-store")
    var path: String { directory.file("stillroom.db") }

    func open(now: UnixMilliseconds = testNow) throws -> SQLiteStore.Opened {
        try SQLiteStore.open(path: path, now: now)
    }

    /// Names in the directory, sorted.
    func listing() -> [String] {
        guard let dir = opendir(directory.path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    func remove() { directory.remove() }
}

/// Runs `body` with a fresh sandbox and removes it afterwards.
func withSandbox<T>(_ body: (StoreSandbox) throws -> T) rethrows -> T {
    let sandbox = StoreSandbox()
    defer { sandbox.remove() }
    return try body(sandbox)
}

/// Runs `body` with a freshly created store (closed afterwards).
func withFreshStore<T>(_ body: (SQLiteStore, StoreSandbox) throws -> T) throws -> T {
    try withSandbox { (sandbox) throws in
        let store = try sandbox.open().store
        defer { store.close() }
        return try body(store, sandbox)
    }
}

// MARK: - Raw SQLite

/// A raw connection for building fixtures the store itself would never write.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String, readOnly: Bool = false) throws {
        var db: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            _ = sqlite3_close_v2(db)
            throw RawError(message: "open \(path): \(rc)")
        }
        handle = db
    }

    deinit { _ = sqlite3_close_v2(handle) }

    func exec(_ sql: String) throws {
        try RawDatabase.exec(handle, sql)
    }

    /// The first column of every row, as text.
    func column(_ sql: String) throws -> [String] {
        try RawDatabase.column(handle, sql)
    }

    static func exec(_ handle: OpaquePointer?, _ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        defer { sqlite3_free(error) }
        guard rc == SQLITE_OK else {
            throw RawError(message: "\(sql): \(error.map { String(cString: $0) } ?? "code \(rc)")")
        }
    }

    static func column(_ handle: OpaquePointer?, _ sql: String) throws -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw RawError(message: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw RawError(message: "\(sql): \(String(cString: sqlite3_errmsg(handle)))") }
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "NULL")
        }
    }
}

struct RawError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension SQLiteStore {
    /// Runs raw SQL on the store's own connection (tests only: PRAGMA max_page_count and the like).
    func rawExec(_ sql: String) throws { try RawDatabase.exec(connection.handle, sql) }

    /// Reads raw SQL's first column on the store's own connection.
    func rawColumn(_ sql: String) throws -> [String] { try RawDatabase.column(connection.handle, sql) }

    /// The schema as stored (type, name, table, sql), for comparing migrated and fresh databases.
    func schemaDump() throws -> [String] {
        try rawColumn("SELECT type || ' ' || name || ' ' || tbl_name || ' ' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
    }
}

// MARK: - Files

func fileExists(_ path: String) -> Bool { FileSystem.exists(path) }

/// The whole content of a file.
func readBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return bytes
}

/// Whether a file holds exactly `expected` (a Bool, so a failed expectation does not print megabytes).
func fileHolds(_ path: String, _ expected: [UInt8]?) -> Bool {
    readBytes(path) == expected
}

/// Replaces a file's content.
func writeBytes(_ path: String, _ bytes: [UInt8]) {
    let file = fopen(path, "wb")!
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

/// Overwrites `bytes` at `offset` in place.
func patchBytes(_ path: String, at offset: Int, _ bytes: [UInt8]) {
    var content = readBytes(path)!
    content.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    writeBytes(path, content)
}

/// Deterministic pseudo-random bytes (a fixed xorshift), so damage tests are reproducible.
func noiseBytes(count: Int, seed: UInt64 = 0x5EED_1234_ABCD_0001) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return UInt8(truncatingIfNeeded: state >> 24)
    }
}

/// Copies a database with its -wal and -shm while a connection still has it open: what the card would
/// hold if the power were cut at this moment (everything committed with synchronous=FULL is in it).
func snapshotAsIfPowerCut(from source: String, to target: String) {
    for suffix in ["", "-wal", "-shm", "-journal"] where fileExists(source + suffix) {
        writeBytes(target + suffix, readBytes(source + suffix)!)
    }
}

// MARK: - Errors

/// Runs `body`, expecting it to throw a `StoreError` of `kind`; records an issue otherwise and returns
/// the error for further checks.
@discardableResult
func expectStoreError(
    _ kind: StoreError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> StoreError? {
    do {
        try body()
        Issue.record("expected StoreError.\(kind), nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as StoreError {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected StoreError.\(kind), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
