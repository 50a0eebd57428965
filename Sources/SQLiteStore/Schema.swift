// The schema, as an ordered list of migrations keyed by `PRAGMA user_version`.
//
// Rules (also in docs/data.md):
// - A migration is frozen once released: never edit one, add the next. Its SQL names tables and columns
//   literally and never depends on code that may change later.
// - Each migration's last statement sets `PRAGMA user_version` to its own version, inside the same
//   transaction as its changes (the version lives in the database header, so it commits or rolls back with
//   them): a power cut mid-migration leaves the previous version intact, never a half-migrated file.
// - Every migration gets a fixture in SQLiteStoreTests (a database at the version before, with sample
//   rows) and is tested from every older version.
// - Migrations are additive where they can be (new tables; new columns that are nullable or have a
//   default), so that a box rolled back to the slot it updated from (docs/updates.md) still reads and
//   writes the file. One that is not raises `schema_compatibility.oldest_reader` to its own version, in
//   the same transaction: a build older than that refuses the file (`schemaTooNew`) and leaves it as it is.

/// One step from `version - 1` to `version`.
struct Migration {
    let version: Int
    let summary: String
    let statements: [StaticString]
}

enum Schema {
    /// All migrations, in order; `migrations[i].version == i + 1`.
    static let migrations: [Migration] = [
        Migration(version: 1, summary: "initial schema", statements: [
            // STRICT tables (SQLite 3.37+): a column holds only its declared type, so a bug cannot slip text
            // into a frame count. CHECKs mirror the record types' invariants.
            """
            CREATE TABLE setting (
                key TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL,
                updated_at INTEGER NOT NULL
            ) STRICT
            """,
            """
            CREATE TABLE favorite (
                session_id TEXT PRIMARY KEY NOT NULL,
                created_at INTEGER NOT NULL
            ) STRICT
            """,
            """
            CREATE TABLE audio_download (
                session_id TEXT PRIMARY KEY NOT NULL,
                local_path TEXT NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('queued', 'downloading', 'complete', 'failed', 'cancelled')),
                bytes_done INTEGER NOT NULL DEFAULT 0 CHECK (bytes_done >= 0),
                bytes_total INTEGER CHECK (bytes_total IS NULL OR bytes_total >= 0),
                sha256 TEXT,
                error TEXT,
                updated_at INTEGER NOT NULL
            ) STRICT
            """,
            // `sequence` orders checkpoints without trusting the wall clock; UNIQUE also indexes it.
            """
            CREATE TABLE playback_checkpoint (
                session_id TEXT PRIMARY KEY NOT NULL,
                position_frames INTEGER NOT NULL CHECK (position_frames >= 0),
                sample_rate INTEGER NOT NULL CHECK (sample_rate > 0),
                saved_at INTEGER NOT NULL,
                clock_trusted INTEGER NOT NULL CHECK (clock_trusted IN (0, 1)),
                sequence INTEGER NOT NULL UNIQUE
            ) STRICT
            """,
            // AUTOINCREMENT: ids are never reused, even after "delete all", so "most recent" is "highest id"
            // whatever the clock said, and a stale id held by the UI can never hit a newer run.
            """
            CREATE TABLE practice_run (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                session_id TEXT NOT NULL,
                started_at INTEGER NOT NULL,
                actual_listening_seconds REAL NOT NULL DEFAULT 0 CHECK (actual_listening_seconds >= 0),
                covered_seconds REAL NOT NULL DEFAULT 0 CHECK (covered_seconds >= 0),
                covered_ranges TEXT NOT NULL DEFAULT '[]',
                recording_seconds REAL NOT NULL CHECK (recording_seconds >= 0),
                completed_at INTEGER,
                clock_trusted INTEGER NOT NULL CHECK (clock_trusted IN (0, 1)),
                updated_at INTEGER NOT NULL
            ) STRICT
            """,
            "CREATE INDEX practice_run_calendar ON practice_run (clock_trusted, started_at)",
            // A single row, pinned by CHECK (id = 1).
            """
            CREATE TABLE reminder_preference (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
                minute_of_day INTEGER NOT NULL CHECK (minute_of_day BETWEEN 0 AND 1439),
                weekdays INTEGER NOT NULL CHECK (weekdays BETWEEN 0 AND 127),
                style TEXT NOT NULL CHECK (style IN ('chime', 'glow')),
                quiet_start_minute INTEGER NOT NULL CHECK (quiet_start_minute BETWEEN 0 AND 1439),
                quiet_end_minute INTEGER NOT NULL CHECK (quiet_end_minute BETWEEN 0 AND 1439),
                updated_at INTEGER NOT NULL
            ) STRICT
            """,
            """
            CREATE TABLE audio_length_cache (
                path TEXT PRIMARY KEY NOT NULL,
                size INTEGER NOT NULL CHECK (size >= 0),
                mtime_ns INTEGER NOT NULL,
                frames INTEGER NOT NULL CHECK (frames >= 0),
                sample_rate INTEGER NOT NULL CHECK (sample_rate > 0)
            ) STRICT
            """,
            """
            CREATE TABLE notice (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL,
                message TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                dismissed_at INTEGER
            ) STRICT
            """,
            "PRAGMA user_version = 1",
        ]),
        Migration(version: 2, summary: "pending purge marker", statements: [
            // A row here means deleted rows may still be readable in the files (free pages, old -wal frames)
            // until a purge rewrites them. Written in the same transaction as the deletion, removed only
            // once the purge is done, so neither a full card nor a power cut can lose the need to purge.
            """
            CREATE TABLE purge_pending (
                id INTEGER PRIMARY KEY CHECK (id = 1)
            ) STRICT
            """,
            // Schema 1 purged right after a deletion, but a purge that failed (a full card) was never tried
            // again. Runs are only ever deleted by the owner, so an AUTOINCREMENT counter above the number
            // of runs left means a deletion happened: purge once, to be sure.
            """
            INSERT INTO purge_pending (id)
            SELECT 1 WHERE (SELECT seq FROM sqlite_sequence WHERE name = 'practice_run') > (SELECT count(*) FROM practice_run)
            """,
            "PRAGMA user_version = 2",
        ]),
        Migration(version: 3, summary: "practice runs keep their session's title", statements: [
            // A downloaded session can be removed, and its source can withdraw it: the run keeps the name it
            // was heard under. Older runs keep NULL (their titles come from the catalog, as before).
            "ALTER TABLE practice_run ADD COLUMN title TEXT",
            "PRAGMA user_version = 3",
        ]),
        Migration(version: 4, summary: "the oldest build that may open this database", statements: [
            // From this version on, a build finding a database newer than itself reads this row: when its own
            // version is at least `oldest_reader`, every change since is one it can live with, and it opens
            // the file as it is (no migration, user_version kept). Builds before 4 do not know the row.
            """
            CREATE TABLE schema_compatibility (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                oldest_reader INTEGER NOT NULL CHECK (oldest_reader >= 1)
            ) STRICT
            """,
            "INSERT INTO schema_compatibility (id, oldest_reader) VALUES (1, 4)",
            "PRAGMA user_version = 4",
        ]),
    ]

    /// The schema version this build writes and reads.
    static var latestVersion: Int { migrations.count }

    /// Applies every migration above `current` up to `target`, each in its own transaction.
    static func migrate(_ connection: Connection, from current: Int, to target: Int = latestVersion) throws(StoreError) {
        precondition(target <= latestVersion && current <= target, "bad migration range \(current)...\(target)")
        for migration in migrations where migration.version > current && migration.version <= target {
            let operation = "migrate to \(migration.version) (\(migration.summary))"
            // IMMEDIATE takes the write lock up front, so a migration never fails half-way on a lock upgrade.
            try connection.execute("BEGIN IMMEDIATE", operation: operation)
            do throws(StoreError) {
                for statement in migration.statements { try connection.execute(statement, operation: operation) }
                let reached = try userVersion(connection, operation: operation)
                guard reached == migration.version else {
                    throw StoreError.store(.other, operation: operation,
                                           message: "migration left user_version at \(reached), expected \(migration.version)")
                }
                try connection.execute("COMMIT", operation: operation)
            } catch {
                rollbackIfOpen(connection)
                throw error
            }
        }
    }

    /// Whether this build may read and write a database at `version`, newer than its own: the database's
    /// `schema_compatibility.oldest_reader` is at most this build's version. A database without the row
    /// (or an unreadable one) is not opened.
    static func mayOpen(_ connection: Connection, version: Int, operation: String) -> Bool {
        guard version > latestVersion else { return true }
        let rows = (try? connection.executeReturningText(
            "SELECT oldest_reader FROM schema_compatibility WHERE id = 1", operation: operation)) ?? []
        guard let oldest = rows.first.flatMap({ Int($0) }) else { return false }
        return oldest <= latestVersion
    }

    static func userVersion(_ connection: Connection, operation: String) throws(StoreError) -> Int {
        let rows = try connection.executeReturningText("PRAGMA user_version", operation: operation)
        return rows.first.flatMap { Int($0) } ?? 0
    }

    /// Rolls back the open transaction, if SQLite has not already done so (it does after some SQLITE_FULL,
    /// SQLITE_IOERR and SQLITE_NOMEM failures).
    static func rollbackIfOpen(_ connection: Connection) {
        guard !connection.isAutocommit else { return }
        // If ROLLBACK itself fails the connection is beyond repair; the original error is the one to report.
        try? connection.execute("ROLLBACK", operation: "rollback")
    }
}
