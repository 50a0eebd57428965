/// What a notice is about; an open set of stable strings stored in `notice.kind`.
public struct NoticeKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The database failed its check at start and was set aside; the store started fresh.
    public static let databaseMovedAside = NoticeKind(rawValue: "database-moved-aside")
    /// The data partition cannot be written: nothing new can be saved (never stored; the daemon shows it live).
    public static let storageReadOnly = NoticeKind(rawValue: "storage-read-only")

    /// A stored setting was refused at start (damaged, or allowed by an older version) and replaced by
    /// its default.
    public static let settingReplaced = NoticeKind(rawValue: "setting-replaced")

    public var description: String { rawValue }
}

/// A message for the owner that outlives a restart until dismissed (table `notice`), shown on the
/// screen and by the CLI.
public struct NoticeRecord: Hashable, Sendable {
    public var id: Int64
    public var kind: NoticeKind
    public var message: String
    public var createdAt: UnixMilliseconds
    /// When the owner dismissed it; nil while it is still to be shown.
    public var dismissedAt: UnixMilliseconds?

    public init(id: Int64, kind: NoticeKind, message: String, createdAt: UnixMilliseconds, dismissedAt: UnixMilliseconds? = nil) {
        self.id = id
        self.kind = kind
        self.message = message
        self.createdAt = createdAt
        self.dismissedAt = dismissedAt
    }
}
