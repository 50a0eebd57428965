// The thin layer over the SQLite C API: one connection, a cache of prepared statements, binding and
// reading values. Nothing here knows the schema.
//
// SQL text is always a `StaticString`: a literal compiled into the binary. Values only ever travel as
// bound parameters, so no code path can build SQL out of data (the compiler enforces it, not review).

internal import CSQLite

/// A value bound to a statement parameter.
enum SQLValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    static func optional(_ value: Int64?) -> SQLValue { value.map { .integer($0) } ?? .null }
    static func optional(_ value: String?) -> SQLValue { value.map { .text($0) } ?? .null }
    static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}

/// One open SQLite connection. Not thread-safe: the daemon uses it from its loop thread only.
final class Connection {
    private(set) var handle: OpaquePointer?
    /// Prepared statements by the address of their SQL literal (stable for the life of the process).
    private var cache: [UnsafeRawPointer: OpaquePointer] = [:]
    let path: String

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit { close() }

    /// How to open a connection.
    enum Mode {
        /// Read and write, creating the file if it is missing.
        case readWriteCreate
        /// Read only.
        case readOnly
        /// Read only, and never write the -shm file either (URI parameter readonly_shm=1): used to check a
        /// database that may be set aside, so that all its files keep their bytes. SQLite then keeps the
        /// WAL index in heap memory. Needs an existing -shm.
        case readOnlyUntouched
        /// Read only from media that cannot be written at all (URI parameter immutable=1): no locks, no
        /// -shm. A WAL database on a read-only file system with no -shm beside it opens no other way. What
        /// only the -wal holds is not seen.
        case immutable
        /// A private database in memory (the path is ignored).
        case memory
    }

    /// Opens `path` (always with NOMUTEX: one thread uses a connection) through the VFS named `vfs`, or
    /// SQLite's default VFS when nil (always, outside tests).
    static func open(path: String, mode: Mode, operation: String, vfs: String? = nil) throws(StoreError) -> Connection {
        var flags = SQLITE_OPEN_NOMUTEX
        var name = path
        switch mode {
        case .readWriteCreate:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly:
            flags |= SQLITE_OPEN_READONLY
        case .readOnlyUntouched:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + uriEscaped(path) + "?mode=ro&readonly_shm=1"
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + uriEscaped(path) + "?mode=ro&immutable=1"
        case .memory:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY
            name = ":memory:"
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, vfs)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let extended = db.map { sqlite3_extended_errcode($0) } ?? rc
            // A failed open still allocates a handle that must be released.
            _ = sqlite3_close_v2(db)
            throw StoreError.fromSQLite(code: extended, operation: operation, message: "\(message) (\(path))")
        }
        // Extended codes tell SQLITE_IOERR_FSYNC from SQLITE_IOERR_WRITE in logs.
        _ = sqlite3_extended_result_codes(db, 1) // Only fails on a null handle.
        guard stillroom_sqlite_harden(db) == 0 else {
            _ = sqlite3_close_v2(db)
            throw StoreError.fromSQLite(code: SQLITE_ERROR, operation: operation,
                                        message: "the connection could not be made defensive (\(path))")
        }
        return Connection(handle: db, path: path)
    }

    /// A path as the path part of a file: URI: every byte but unreserved characters and "/" %-escaped,
    /// so "?", "#" and "%" in a directory name cannot be read as URI syntax.
    static func uriEscaped(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Finalizes every statement and closes the connection. Safe to call twice.
    func close() {
        for statement in cache.values { _ = sqlite3_finalize(statement) } // Finalize reports the last step's error, already seen.
        cache.removeAll()
        if let handle {
            // close_v2 never fails with statements outstanding; with none left it closes at once and, on the
            // last connection in WAL mode, checkpoints and removes the -wal file.
            _ = sqlite3_close_v2(handle)
        }
        handle = nil
    }

    /// A RESTART checkpoint (sqlite3_wal_checkpoint_v2): true when it ran to the end and every frame of the
    /// -wal is now in the database.
    func checkpointEverything() -> Bool {
        guard let handle else { return false }
        var logged: Int32 = -1, copied: Int32 = -1
        let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_RESTART, &logged, &copied)
        return rc == SQLITE_OK && logged >= 0 && logged == copied
    }

    /// Keeps the -wal file when the last connection closes (SQLITE_FCNTL_PERSIST_WAL) instead of deleting
    /// it; false if the VFS does not take the setting (a test VFS), which only costs card writes.
    @discardableResult
    func keepWriteAheadLogOnClose() -> Bool {
        guard let handle else { return false }
        var on: Int32 = 1
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on) == SQLITE_OK
    }

    func setBusyTimeout(milliseconds: Int32) {
        guard let handle else { return }
        _ = sqlite3_busy_timeout(handle, milliseconds) // Only fails on a null handle.
    }

    /// Whether the connection is outside any transaction (autocommit mode).
    var isAutocommit: Bool {
        guard let handle else { return true }
        return sqlite3_get_autocommit(handle) != 0
    }

    func error(_ code: Int32, operation: String) -> StoreError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return StoreError.fromSQLite(code: code, operation: operation, message: message)
    }

    private func liveHandle(_ operation: String) throws(StoreError) -> OpaquePointer {
        guard let handle else {
            throw StoreError(kind: .closed, code: SQLITE_MISUSE, extendedCode: SQLITE_MISUSE, operation: operation,
                             message: "the store was closed")
        }
        return handle
    }

    private func prepare(_ sql: StaticString, persistent: Bool, operation: String) throws(StoreError) -> OpaquePointer {
        let db = try liveHandle(operation)
        precondition(sql.hasPointerRepresentation, "SQL must be a string literal")
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sql.utf8Start.withMemoryRebound(to: CChar.self, capacity: sql.utf8CodeUnitCount) { text in
            sqlite3_prepare_v3(db, text, Int32(sql.utf8CodeUnitCount), flags, &statement, nil)
        }
        guard rc == SQLITE_OK, let statement else { throw error(rc, operation: operation) }
        return statement
    }

    /// Runs `body` with `sql` prepared (from the cache) and `values` bound; resets the statement afterwards.
    func withStatement<T>(
        _ sql: StaticString, _ values: [SQLValue], operation: String,
        _ body: (Statement) throws(StoreError) -> T
    ) throws(StoreError) -> T {
        let key = UnsafeRawPointer(sql.utf8Start)
        let raw: OpaquePointer
        if let cached = cache[key] {
            raw = cached
        } else {
            raw = try prepare(sql, persistent: true, operation: operation)
            cache[key] = raw
        }
        let statement = Statement(raw: raw, connection: self, operation: operation)
        defer {
            // reset repeats the last step's error code, which the step already reported.
            _ = sqlite3_reset(raw)
            _ = sqlite3_clear_bindings(raw)
        }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs a statement that returns no rows (or whose rows are not wanted); returns the rows changed.
    @discardableResult
    func run(_ sql: StaticString, _ values: [SQLValue] = [], operation: String) throws(StoreError) -> Int {
        try withStatement(sql, values, operation: operation) { (statement) throws(StoreError) -> Int in
            while try statement.step() {}
            return Int(sqlite3_changes(statement.connectionHandle))
        }
    }

    /// Runs a query and decodes every row.
    func query<T>(
        _ sql: StaticString, _ values: [SQLValue] = [], operation: String,
        _ decode: (Statement) throws(StoreError) -> T
    ) throws(StoreError) -> [T] {
        try withStatement(sql, values, operation: operation) { (statement) throws(StoreError) -> [T] in
            var rows: [T] = []
            while try statement.step() { rows.append(try decode(statement)) }
            return rows
        }
    }

    /// Runs a query and decodes its first row, if any.
    func queryFirst<T>(
        _ sql: StaticString, _ values: [SQLValue] = [], operation: String,
        _ decode: (Statement) throws(StoreError) -> T
    ) throws(StoreError) -> T? {
        try withStatement(sql, values, operation: operation) { (statement) throws(StoreError) -> T? in
            guard try statement.step() else { return nil }
            let value = try decode(statement)
            while try statement.step() {}
            return value
        }
    }

    /// Runs a one-off statement without caching it (migrations, transaction control, PRAGMAs).
    func execute(_ sql: StaticString, operation: String) throws(StoreError) {
        let raw = try prepare(sql, persistent: false, operation: operation)
        defer { _ = sqlite3_finalize(raw) } // Repeats the step's error, already reported.
        let statement = Statement(raw: raw, connection: self, operation: operation)
        while try statement.step() {}
    }

    /// Runs a one-off statement and returns the first column of every row as text (PRAGMAs that report).
    func executeReturningText(_ sql: StaticString, operation: String) throws(StoreError) -> [String] {
        let raw = try prepare(sql, persistent: false, operation: operation)
        defer { _ = sqlite3_finalize(raw) } // Repeats the step's error, already reported.
        let statement = Statement(raw: raw, connection: self, operation: operation)
        var rows: [String] = []
        while try statement.step() { rows.append(statement.text(0)) }
        return rows
    }
}

/// A prepared statement in use; valid only inside `Connection.withStatement`'s body.
struct Statement {
    let raw: OpaquePointer
    unowned let connection: Connection
    let operation: String

    var connectionHandle: OpaquePointer? { sqlite3_db_handle(raw) }

    /// An empty C string: binding a nil pointer would store NULL instead of "".
    private static let emptyText: StaticString = ""

    func bind(_ values: [SQLValue]) throws(StoreError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null:
                rc = sqlite3_bind_null(raw, index)
            case .integer(let number):
                rc = sqlite3_bind_int64(raw, index, number)
            case .real(let number):
                rc = sqlite3_bind_double(raw, index, number)
            case .text(var text):
                rc = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        // SQLITE_TRANSIENT: SQLite copies the bytes, since Swift's buffer lives only for this call.
                        sqlite3_bind_text(raw, index, chars.baseAddress ?? Self.emptyTextPointer,
                                          Int32(chars.count), stillroom_sqlite_transient())
                    }
                }
            }
            guard rc == SQLITE_OK else { throw connection.error(rc, operation: operation) }
        }
    }

    private static var emptyTextPointer: UnsafePointer<CChar> {
        UnsafeRawPointer(emptyText.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Steps once: true when a row is ready, false when done.
    func step() throws(StoreError) -> Bool {
        let rc = sqlite3_step(raw)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(rc, operation: operation)
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(raw, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(raw, column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(raw, column)) }

    func bool(_ column: Int32) -> Bool { sqlite3_column_int64(raw, column) != 0 }

    func double(_ column: Int32) -> Double { sqlite3_column_double(raw, column) }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(raw, column) else { return "" }
        let count = Int(sqlite3_column_bytes(raw, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
}

extension StoreError {
    /// Maps an SQLite result code (primary or extended) to a store error.
    static func fromSQLite(code: Int32, operation: String, message: String) -> StoreError {
        let primary = code & 0xff
        let kind: Kind
        switch primary {
        case SQLITE_FULL: kind = .diskFull
        case SQLITE_READONLY: kind = .readOnly
        case SQLITE_BUSY, SQLITE_LOCKED: kind = .busy
        case SQLITE_CORRUPT: kind = .corrupt
        case SQLITE_NOTADB: kind = .notADatabase
        case SQLITE_CONSTRAINT: kind = .constraint
        case SQLITE_CANTOPEN: kind = .cannotOpen
        case SQLITE_IOERR: kind = .ioError
        default: kind = .other
        }
        return StoreError(kind: kind, code: primary, extendedCode: code, operation: operation, message: message)
    }

    /// A failure the store detects itself (not an SQLite result); carries SQLITE_ERROR-family codes.
    static func store(_ kind: Kind, operation: String, message: String, code: Int32 = SQLITE_ERROR) -> StoreError {
        StoreError(kind: kind, code: code, extendedCode: code, operation: operation, message: message)
    }
}
