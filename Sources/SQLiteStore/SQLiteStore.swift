// SQLiteStore: Stillroom's user data (settings, favourites, downloads, checkpoints, practice history,
// reminder preference, audio length cache, notices) in one SQLite file under /var/lib/stillroom.
//
// Durability choices, in short (docs/data.md has the long form):
// - One connection per process. SQLite 3.7.0–3.51.2 (Debian 12 ships 3.40.1) has a WAL-reset bug that
//   needs two connections writing or checkpointing at once; one writer cannot hit it.
// - WAL: a commit appends to the -wal file instead of rewriting pages in place, readers (the maintenance
//   CLI) never block the writer, and a torn tail after a power cut is ignored thanks to frame checksums.
// - synchronous=FULL: the -wal is fsynced at every commit, so a commit that returned is on the card. With
//   NORMAL the last ~30 s of commits could roll back after a power cut, breaking "lose at most 10 s".
// - quick_check before anything writes: a damaged file is moved aside exactly as found, never deleted.

internal import CSQLite
import StillroomCore

/// The store. Not thread-safe: use it from one thread (the daemon's loop thread).
///
/// Every method that touches the database throws `StoreError`. Times are `UnixMilliseconds` supplied by
/// the caller; the store never reads a clock.
public final class SQLiteStore {
    /// What `open(path:now:)` returns: the store, and what happened on the way (for the caller to log).
    public struct Opened {
        public let store: SQLiteStore
        public let outcome: OpenOutcome
    }

    /// The schema version this build reads and writes (`PRAGMA user_version`).
    public static var schemaVersion: Int { Schema.latestVersion }

    /// How long to wait for another connection's lock before failing with `busy`. Only the maintenance
    /// CLI ever opens a second connection, and in WAL mode its reads do not block our writes, so this
    /// covers short moments such as WAL recovery at open.
    public static let defaultBusyTimeoutMilliseconds = 2000

    /// The database file (":memory:" for `openEmptyReadOnly`'s).
    public private(set) var path: String
    /// Whether this store was opened with `openReadOnly` (or `openEmptyReadOnly`) and has not become a
    /// writer since (`becomeWriter`); every write then fails with `readOnly`.
    public private(set) var isReadOnly: Bool

    private(set) var connection: Connection
    private var transactionDepth = 0
    /// Its connection now belongs to the store that became a writer through it: closing is not ours.
    private var handedOver = false

    private init(connection: Connection, path: String, isReadOnly: Bool) {
        self.connection = connection
        self.path = path
        self.isReadOnly = isReadOnly
    }

    /// Whether this writer keeps its -wal's blocks across closes (`keepWriteAheadLog`).
    private var keepsWriteAheadLog = false

    deinit { if !handedOver { close() } }

    /// Closes the connection, checkpointing the WAL into the database. Any later use throws `closed`.
    ///
    /// The writer keeps the -wal file with its blocks (`keepWriteAheadLog`) but leaves nothing in it: once
    /// a checkpoint has copied every frame into the database, the -wal's header is cleared after the close,
    /// so the next open finds an empty log, exactly as if the file had been deleted, and a database file
    /// damaged meanwhile is seen as damaged rather than read through old frames. If the checkpoint could
    /// not finish (a full card, an I/O error), the -wal keeps its frames: SQLite replays them at the next open.
    public func close() {
        let emptied = keepsWriteAheadLog && connection.checkpointEverything()
        connection.close()
        if emptied { FileSystem.clearWriteAheadLogHeader(path + "-wal") }
        keepsWriteAheadLog = false
    }


    // MARK: - Opening

    /// Opens (creating if needed) the database at `path` for the daemon, the one writer.
    ///
    /// In order: if the file exists, checks it with `PRAGMA quick_check` on a read-only connection, so
    /// nothing is written to a file that may be damaged; if the check fails, or SQLite says the file is not
    /// a database or is corrupt, moves it and its -wal/-shm/-journal aside under a name with `now` in it
    /// (never deleting anything) and creates a fresh database with a `databaseMovedAside` notice. Then sets
    /// the PRAGMAs and migrates to `schemaVersion`.
    ///
    /// - Throws: `StoreError`; `schemaTooNew` when the file was written by newer firmware (it is left
    ///   alone), `busy` (another connection has it open: the writer holds it alone), `cannotOpen`,
    ///   `ioError`, `diskFull`, `moveAsideFailed`.
    public static func open(
        path: String, now: UnixMilliseconds, busyTimeoutMilliseconds: Int = defaultBusyTimeoutMilliseconds
    ) throws(StoreError) -> Opened {
        try open(path: path, now: now, busyTimeoutMilliseconds: busyTimeoutMilliseconds, testVFS: nil)
    }

    /// `open(path:now:busyTimeoutMilliseconds:)` with every connection going through the SQLite VFS named
    /// `testVFS` (nil: SQLite's default). Internal, for tests only: the crash tests pass a VFS that loses
    /// unsynced writes (Tests/CCrashVFS). Production code cannot reach it.
    static func open(
        path: String, now: UnixMilliseconds, busyTimeoutMilliseconds: Int = defaultBusyTimeoutMilliseconds,
        testVFS: String?
    ) throws(StoreError) -> Opened {
        var damage: String?
        var checkOnWriter = false
        let existed = FileSystem.exists(path)
        // The read-only check below may make a -shm; the writer (EXCLUSIVE) never uses one, so one that was
        // not there before is removed again, and a refused database is left with the files it had.
        let shmExisted = FileSystem.exists(path + "-shm")
        defer { if !shmExisted { FileSystem.removeIfPresent(path + "-shm") } }
        if existed && !FileSystem.isRegularFile(path) {
            throw StoreError.store(.cannotOpen, operation: "open", message: "\(path) is not a regular file",
                                   code: SQLITE_CANTOPEN)
        }
        if existed {
            switch try inspect(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, vfs: testVFS) {
            case .healthy: break
            case .damaged(let reason): damage = reason
            case .needsWriter: checkOnWriter = true
            }
        }
        var moved: (database: String, files: [MovedAside.MovedFile], reason: String)?
        if let damage {
            let result = try FileSystem.moveAside(path, now: now)
            moved = (result.database, result.files, damage)
        }

        var store: SQLiteStore
        var fromVersion: Int
        do {
            (store, fromVersion) = try openWriter(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                                  check: checkOnWriter && moved == nil, vfs: testVFS)
        } catch let error where moved == nil && (error.kind == .corrupt || error.kind == .notADatabase) {
            // Damage the read-only check could not see (or that stopped it from running): same policy.
            let result = try FileSystem.moveAside(path, now: now)
            moved = (result.database, result.files, error.message)
            (store, fromVersion) = try openWriter(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, check: false,
                                                  vfs: testVFS)
        }

        if !existed || moved != nil {
            // SQLite fsyncs the files it writes, but not the directory entry of a newly created database.
            try FileSystem.syncDirectory(FileSystem.directory(of: path), operation: "open")
        }

        let outcome: OpenOutcome
        if let moved {
            let notice = try store.addNotice(
                kind: .databaseMovedAside,
                message: "Stillroom's saved data could not be read, so it was set aside as \(moved.database) and "
                    + "a fresh start was made. Settings, favourites, downloads and history start empty.",
                now: now)
            outcome = .movedAside(MovedAside(reason: moved.reason, movedDatabasePath: moved.database,
                                             movedFiles: moved.files, noticeID: notice.id))
        } else if fromVersion == 0 {
            outcome = .created
        } else if fromVersion < schemaVersion {
            outcome = .migrated(from: fromVersion, to: schemaVersion)
        } else {
            outcome = .opened
        }
        return Opened(store: store, outcome: outcome)
    }

    /// Turns this read-only store, in place, into the writer `open(path:now:)` returns for `path`: for the
    /// daemon, whose parts all hold the one store, when the card that was too full for the database to open
    /// for writing at start has room again. On failure it reads again what it read before.
    public func becomeWriter(path: String, now: UnixMilliseconds) throws(StoreError) -> OpenOutcome {
        precondition(isReadOnly && transactionDepth == 0, "only a read-only store outside a transaction becomes a writer")
        // No writer gets in (EXCLUSIVE locking in WAL mode) while another connection has the file open with
        // a -shm, so the reader goes first, and comes back if the writer cannot be had.
        let readFrom = self.path
        connection.close()
        FileSystem.removeScratchCopy(connection.path) // what a killed writer's -wal was read through
        let opened: Opened
        do {
            opened = try Self.open(path: path, now: now)
        } catch {
            if let reader = (try? Self.openReadOnly(path: readFrom)) ?? (try? Self.openEmptyReadOnly()) { take(reader) }
            throw error
        }
        take(opened.store)
        return opened.outcome
    }

    /// Takes `other`'s connection and what goes with it; `other` is left owning nothing.
    private func take(_ other: SQLiteStore) {
        connection = other.connection
        keepsWriteAheadLog = other.keepsWriteAheadLog
        path = other.path
        isReadOnly = other.isReadOnly
        other.handedOver = true
    }

    /// Opens an existing database read-only, for the maintenance CLI while the daemon may or may not be
    /// running. It never creates, checks, migrates or moves anything; every write fails with `readOnly`.
    ///
    /// - Throws: `cannotOpen` when there is no database, `schemaTooNew` / `schemaMismatch` when its schema
    ///   version is not this build's, and SQLite's errors (`notADatabase`, `corrupt`, …) as they come.
    public static func openReadOnly(
        path: String, busyTimeoutMilliseconds: Int = defaultBusyTimeoutMilliseconds
    ) throws(StoreError) -> SQLiteStore {
        let operation = "open read-only"
        guard FileSystem.isRegularFile(path) else {
            throw StoreError.store(.cannotOpen, operation: operation, message: "no database file at \(path)",
                                   code: SQLITE_CANTOPEN)
        }
        let connection: Connection
        let version: Int
        do throws(StoreError) {
            let plain = try Connection.open(path: path, mode: .readOnly, operation: operation)
            plain.setBusyTimeout(milliseconds: Int32(clamping: busyTimeoutMilliseconds))
            do throws(StoreError) {
                version = try Schema.userVersion(plain, operation: operation)
            } catch {
                plain.close()
                throw error
            }
            connection = plain
        } catch let error where error.kind == .cannotOpen || error.kind == .ioError || error.kind == .diskFull {
            // A WAL database in a folder that cannot be written (a card remounted read-only) opens read-only
            // only with a -shm beside it, or one SQLite can create, and the writer never leaves one (it holds
            // the database alone); on a full card making one fails too (SQLITE_IOERR_SHMSIZE, or FULL).
            // After a clean close the -wal is empty and the file alone is the truth:
            // SQLite is told it cannot change. A writer that was killed left its last commits in the -wal:
            // then a copy of both in /tmp is read, where SQLite can make its -shm.
            if (FileSystem.size(path + "-wal") ?? 0) > 32, let copy = FileSystem.scratchCopy(ofDatabase: path),
               let opened = try? Connection.open(path: copy, mode: .readOnly, operation: operation),
               let copied = try? Schema.userVersion(opened, operation: operation) {
                connection = opened
                version = copied
            } else {
                connection = try Connection.open(path: path, mode: .immutable, operation: operation)
                version = try Schema.userVersion(connection, operation: operation)
            }
        }
        let store = SQLiteStore(connection: connection, path: path, isReadOnly: true)
        if version > schemaVersion, !(Schema.mayOpen(connection, version: version, operation: operation)) {
            throw StoreError.store(.schemaTooNew, operation: operation,
                                   message: "schema version \(version) is newer than this build's \(schemaVersion)")
        }
        if version < schemaVersion {
            throw StoreError.store(.schemaMismatch, operation: operation,
                                   message: "schema version \(version), this build reads \(schemaVersion); "
                                       + "start the daemon once to migrate it")
        }
        return store
    }

    /// An empty database in memory with this build's schema, refusing every write (`readOnly`): what the
    /// daemon reads from when the data partition holds no usable database and nothing can be written.
    public static func openEmptyReadOnly() throws(StoreError) -> SQLiteStore {
        let connection = try Connection.open(path: ":memory:", mode: .memory, operation: "open in memory")
        try Schema.migrate(connection, from: 0)
        try connection.execute("PRAGMA query_only = 1", operation: "open in memory")
        return SQLiteStore(connection: connection, path: ":memory:", isReadOnly: true)
    }

    private enum Inspection {
        case healthy
        case damaged(String)
        /// The file could not be checked read-only (a rollback journal needs replaying first, which only a
        /// writer may do); check it on the writer instead.
        case needsWriter
    }

    /// Checks the database without writing to any of its files. Damage comes back as a value; other
    /// failures (locks, permissions, I/O) are thrown, since moving a healthy file aside for them would be wrong.
    ///
    /// 1. A non-empty file that does not start with SQLite's magic header is damaged; SQLite is not asked,
    ///    unless a rollback journal (one that starts with the journal magic) lies beside it: a power cut while
    ///    the database was being created can leave page 1 written without its header sector next to a hot
    ///    journal, and SQLite's rollback restores the empty file (found by the power-loss tests). Then step 3
    ///    decides, and the writer replays the journal.
    /// 2. With a -shm present, quick_check runs with readonly_shm=1 so not even the -shm is written.
    /// 3. Otherwise (or if SQLite cannot use that -shm read-only), a plain read-only connection runs it;
    ///    it may create or re-initialise the -shm, an index SQLite rebuilds from the -wal, but never
    ///    writes the database or the -wal.
    private static func inspect(path: String, busyTimeoutMilliseconds: Int, vfs: String?) throws(StoreError) -> Inspection {
        if let header = FileSystem.header(path), !header.isEmpty, !header.elementsEqual(sqliteMagic),
           FileSystem.header(path + "-journal")?.starts(with: rollbackJournalMagic) != true {
            return .damaged("file is not a database (no SQLite header)")
        }
        if FileSystem.exists(path + "-shm") {
            do throws(StoreError) {
                return try quickCheck(path: path, mode: .readOnlyUntouched, busyTimeoutMilliseconds: busyTimeoutMilliseconds, vfs: vfs)
            } catch let error where error.kind == .corrupt || error.kind == .notADatabase {
                return .damaged(error.message)
            } catch {
                // SQLite could not work from that -shm without writing it (SQLITE_PROTOCOL, …): step 3.
            }
        }
        do {
            return try quickCheck(path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds, vfs: vfs)
        } catch {
            switch error.kind {
            case .corrupt, .notADatabase: return .damaged(error.message)
            case .readOnly: return .needsWriter
            default: throw error
            }
        }
    }

    private static func quickCheck(
        path: String, mode: Connection.Mode, busyTimeoutMilliseconds: Int, vfs: String?
    ) throws(StoreError) -> Inspection {
        let connection = try Connection.open(path: path, mode: mode, operation: "check", vfs: vfs)
        defer { connection.close() }
        connection.setBusyTimeout(milliseconds: Int32(clamping: busyTimeoutMilliseconds))
        let report = try connection.executeReturningText("PRAGMA quick_check", operation: "check")
        return report == ["ok"] ? .healthy : .damaged("quick_check: " + report.prefix(5).joined(separator: "; "))
    }

    /// The first 16 bytes of every SQLite 3 database: "SQLite format 3" and a NUL.
    private static let sqliteMagic: [UInt8] = Array("SQLite format 3".utf8) + [0]

    /// The first 8 bytes of a rollback journal that holds something to roll back (SQLite zeroes them when
    /// a transaction commits in journal_mode=PERSIST, and deletes the journal in DELETE mode).
    private static let rollbackJournalMagic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]

    /// Opens the read-write connection, configures it and migrates. Returns the version found.
    private static func openWriter(
        path: String, busyTimeoutMilliseconds: Int, check: Bool, vfs: String?
    ) throws(StoreError) -> (SQLiteStore, Int) {
        let operation = "open"
        let connection = try Connection.open(path: path, mode: .readWriteCreate, operation: operation, vfs: vfs)
        let store = SQLiteStore(connection: connection, path: path, isReadOnly: false)
        connection.setBusyTimeout(milliseconds: Int32(clamping: busyTimeoutMilliseconds))
        if check {
            let report = try connection.executeReturningText("PRAGMA quick_check", operation: "check")
            guard report == ["ok"] else {
                connection.close()
                throw StoreError.store(.corrupt, operation: "check",
                                       message: "quick_check: " + report.prefix(5).joined(separator: "; "),
                                       code: SQLITE_CORRUPT)
            }
        }
        try configureWriter(connection)
        store.boundWriteAheadLog()
        let version = try Schema.userVersion(connection, operation: operation)
        // A newer build's database (after a rollback to this slot: docs/updates.md) is used as it is when that
        // build says this one may still read and write it.
        guard version <= schemaVersion || Schema.mayOpen(connection, version: version, operation: operation) else {
            throw StoreError.store(.schemaTooNew, operation: operation,
                                   message: "schema version \(version) is newer than this build's \(schemaVersion); "
                                       + "the file was left untouched")
        }
        if version < schemaVersion { try Schema.migrate(connection, from: version) }
        store.keepWriteAheadLog() // only a database this build uses: a refused one is left as it was
        return (store, version)
    }

    /// The PRAGMAs, set on every open (all but journal_mode are per connection and forgotten at close).
    private static func configureWriter(_ connection: Connection) throws(StoreError) {
        let operation = "configure"
        // 1 KiB pages, for a database created now (an existing file keeps its size; changing it would take a
        // VACUUM out of WAL mode). Every commit appends whole pages to the -wal, and a playback checkpoint
        // changes two rows in two tables: 2 KiB a commit instead of 8 KiB, with 360 of them an hour of
        // listening (docs/performance.md, "Bytes written"). Rows are small; the tables are a few thousand rows.
        try connection.execute("PRAGMA page_size = 1024", operation: operation)
        // WAL is persistent in the file, but asking every time also converts a fresh or older file. Commits
        // append to the -wal; readers keep working while the daemon writes.
        // The one writer holds the database alone while it runs (the daemon; stillroomctl reads through it,
        // or reads the file itself only when the daemon is down). SQLite then keeps the WAL index in the
        // writer's memory instead of a -shm file mapped beside the database, which every commit dirtied and
        // the kernel wrote back to the card every half minute (docs/performance.md, "Bytes written"). A
        // second connection, a maintainer's sqlite3 included, is refused ("database is locked") until the
        // daemon stops. Set before the first access in WAL mode, or SQLite would make the -shm anyway.
        _ = try connection.executeReturningText("PRAGMA locking_mode = EXCLUSIVE", operation: operation)
        let mode = try connection.executeReturningText("PRAGMA journal_mode = WAL", operation: operation)
        guard mode.first?.lowercased() == "wal" else {
            throw StoreError.store(.other, operation: operation,
                                   message: "the database would not switch to WAL mode (journal_mode is \(mode.first ?? "?"))")
        }
        // FULL: fsync the WAL at every commit, so a commit that returned survives a power cut (NORMAL only
        // survives an application crash). Debian builds with FULL as default; set it anyway, it is cheap.
        try connection.execute("PRAGMA synchronous = FULL", operation: operation)
        // No foreign keys in the schema yet; on so that any added later are enforced from day one.
        try connection.execute("PRAGMA foreign_keys = ON", operation: operation)
        // Debian builds with SECURE_DELETE on, which zero-fills freed pages: extra writes on an SD card for
        // nothing (the data is not secret from the person holding the box).
        try connection.execute("PRAGMA secure_delete = OFF", operation: operation)
        // No truncation of the -wal after a checkpoint: it keeps its blocks (and, with `keepWriteAheadLog`,
        // across closes), so SQLite rewrites it in place from its start. A commit that overwrites blocks the
        // file already has changes no size and no allocation, and its fsync writes the data alone; one that
        // grows the file also commits ext4's journal (docs/performance.md, "Bytes written"). The automatic
        // checkpoint (below) keeps the -wal near 800 KiB; `boundWriteAheadLog` empties one left larger.
        try connection.execute("PRAGMA journal_size_limit = -1", operation: operation)
        // Temporary tables and sort spills in memory, never in files on the card (none are expected: the
        // tables are small; this makes sure).
        try connection.execute("PRAGMA temp_store = MEMORY", operation: operation)
        // The automatic checkpoint's threshold is in pages: the same ≈ 800 KiB of WAL whatever the page size
        // (200 pages of 4 KiB in files made before 1 KiB pages; 800 of 1 KiB now: about an hour of listening
        // between checkpoints, at two pages a playback checkpoint).
        let pageSize = Int(try connection.executeReturningText("PRAGMA page_size", operation: operation).first ?? "") ?? 4096
        switch max(1, 819_200 / max(512, pageSize)) {
        case ...200: try connection.execute("PRAGMA wal_autocheckpoint = 200", operation: operation)
        case ...400: try connection.execute("PRAGMA wal_autocheckpoint = 400", operation: operation)
        case ...800: try connection.execute("PRAGMA wal_autocheckpoint = 800", operation: operation)
        default: try connection.execute("PRAGMA wal_autocheckpoint = 1600", operation: operation)
        }
    }

    /// The -wal is kept at its working size (about 800 KiB, `configureWriter`); one a large transaction
    /// or a reader holding off checkpoints left larger than this is emptied at the next open.
    static let largestKeptWriteAheadLog: Int64 = 4 << 20

    /// Keeps the -wal file when this connection closes instead of deleting it (SQLITE_FCNTL_PERSIST_WAL);
    /// `close` empties it. Without it every start would grow a new -wal a commit at a time.
    private func keepWriteAheadLog() {
        keepsWriteAheadLog = connection.keepWriteAheadLogOnClose()
    }

    private func boundWriteAheadLog() {
        guard let size = FileSystem.size(path + "-wal"), size > Self.largestKeptWriteAheadLog else { return }
        // Busy (a reader) or failing, it stays as it is until the next start: it costs room, not data.
        try? checkpointEmptyingWAL(operation: "open.bound the -wal")
    }

    // MARK: - Transactions

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws. Nests (inner calls
    /// use savepoints). Writes outside `transaction` each commit on their own — one fsync each — so group
    /// writes that belong together.
    ///
    /// If a statement fails with `diskFull` or `ioError`, SQLite may already have rolled back the whole
    /// outer transaction; the error is rethrown either way and nothing of the transaction is kept.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let outermost = transactionDepth == 0
        if outermost {
            // IMMEDIATE: take the write lock now rather than failing with BUSY half-way through.
            try connection.execute("BEGIN IMMEDIATE", operation: "transaction begin")
        } else {
            try connection.execute("SAVEPOINT nested", operation: "transaction begin")
        }
        transactionDepth += 1
        let result: T
        do {
            result = try body()
        } catch {
            transactionDepth -= 1
            rollback(outermost: outermost)
            throw error
        }
        transactionDepth -= 1
        do {
            if outermost {
                try connection.execute("COMMIT", operation: "transaction commit")
            } else {
                try connection.execute("RELEASE nested", operation: "transaction commit")
            }
        } catch {
            rollback(outermost: outermost)
            throw error
        }
        return result
    }

    private func rollback(outermost: Bool) {
        if outermost {
            Schema.rollbackIfOpen(connection)
        } else if !connection.isAutocommit {
            // Fails only if SQLite already rolled the whole transaction back; the caller's error says why.
            try? connection.execute("ROLLBACK TO nested", operation: "transaction rollback")
            try? connection.execute("RELEASE nested", operation: "transaction rollback")
        }
    }

    // MARK: - Diagnostics

    /// Runs `PRAGMA quick_check`: ["ok"] when the file is sound, otherwise SQLite's findings.
    public func quickCheck() throws(StoreError) -> [String] {
        try connection.executeReturningText("PRAGMA quick_check", operation: "quick check")
    }

    /// The connection's settings, read back from SQLite.
    public func configuration() throws(StoreError) -> StoreConfiguration {
        let operation = "configuration"
        func value(_ sql: StaticString) throws(StoreError) -> String {
            try connection.executeReturningText(sql, operation: operation).first ?? ""
        }
        return StoreConfiguration(
            journalMode: try value("PRAGMA journal_mode"),
            synchronous: Int(try value("PRAGMA synchronous")) ?? -1,
            foreignKeys: try value("PRAGMA foreign_keys") == "1",
            busyTimeoutMilliseconds: Int(try value("PRAGMA busy_timeout")) ?? -1,
            secureDelete: try value("PRAGMA secure_delete") == "1",
            journalSizeLimit: Int64(try value("PRAGMA journal_size_limit")) ?? 0,
            walAutocheckpointPages: Int(try value("PRAGMA wal_autocheckpoint")) ?? -1,
            userVersion: Int(try value("PRAGMA user_version")) ?? -1,
            pageSize: Int(try value("PRAGMA page_size")) ?? -1,
            sqliteVersion: try value("SELECT sqlite_version()"))
    }
}
