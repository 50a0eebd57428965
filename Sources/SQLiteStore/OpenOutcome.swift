/// What `SQLiteStore.open` found and did. The store does not log; the caller logs `description`.
public enum OpenOutcome: Hashable, Sendable, CustomStringConvertible {
    /// An existing database at the current schema version was opened as it was.
    case opened
    /// There was no database (or an empty file); a fresh one was created.
    case created
    /// An existing database was migrated from `from` to `to`.
    case migrated(from: Int, to: Int)
    /// The database failed its check; it was moved aside and a fresh one created in its place.
    case movedAside(MovedAside)

    public var description: String {
        switch self {
        case .opened: return "opened the existing database"
        case .created: return "created a fresh database"
        case .migrated(let from, let to): return "migrated the database from schema version \(from) to \(to)"
        case .movedAside(let moved): return moved.description
        }
    }
}

/// A damaged database that was set aside (renamed, never deleted) before a fresh one was created.
public struct MovedAside: Hashable, Sendable, CustomStringConvertible {
    /// One renamed file.
    public struct MovedFile: Hashable, Sendable {
        public let from: String
        public let to: String
    }

    /// Why: the quick_check report or SQLite's error, in SQLite's words.
    public let reason: String
    /// Where the database file now is.
    public let movedDatabasePath: String
    /// Every file renamed: the database and any -wal, -shm or -journal beside it.
    public let movedFiles: [MovedFile]
    /// The notice kept in the fresh database for the screen and the CLI.
    public let noticeID: Int64

    public var description: String {
        let files = movedFiles.map { "\($0.from) -> \($0.to)" }.joined(separator: ", ")
        return "database failed its check (\(reason)); moved aside (\(files)) and started a fresh one"
    }
}
