/// The connection's settings as SQLite reports them (read back, not remembered), for diagnostics and tests.
public struct StoreConfiguration: Hashable, Sendable {
    /// `PRAGMA journal_mode`: "wal".
    public var journalMode: String
    /// `PRAGMA synchronous`: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA.
    public var synchronous: Int
    /// `PRAGMA foreign_keys`.
    public var foreignKeys: Bool
    /// `PRAGMA busy_timeout`, in milliseconds.
    public var busyTimeoutMilliseconds: Int
    /// `PRAGMA secure_delete`.
    public var secureDelete: Bool
    /// `PRAGMA journal_size_limit`, in bytes (-1: no limit).
    public var journalSizeLimit: Int64
    /// `PRAGMA wal_autocheckpoint`, in pages.
    public var walAutocheckpointPages: Int
    /// `PRAGMA user_version`: the schema version.
    public var userVersion: Int
    /// `PRAGMA page_size`, in bytes.
    public var pageSize: Int
    /// `sqlite_version()`.
    public var sqliteVersion: String
}
