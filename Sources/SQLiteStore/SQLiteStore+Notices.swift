import StillroomCore

extension SQLiteStore {
    /// Keeps a notice for the screen and the CLI until it is dismissed; returns it with its id. The same
    /// notice still open (kind and words) is kept instead of a second card: a reminder missed three days
    /// running is one card, said once, and so is a download that failed the same way twice.
    @discardableResult
    public func addNotice(kind: NoticeKind, message: String, now: UnixMilliseconds) throws(StoreError) -> NoticeRecord {
        if let open = try connection.queryFirst("""
            SELECT id, created_at FROM notice WHERE kind = ?1 AND message = ?2 AND dismissed_at IS NULL ORDER BY id LIMIT 1
            """, [.text(kind.rawValue), .text(message)], operation: "notices.find", { row in (row.int64(0), row.int64(1)) }) {
            return NoticeRecord(id: open.0, kind: kind, message: message, createdAt: open.1)
        }
        let id = try connection.queryFirst("""
            INSERT INTO notice (kind, message, created_at) VALUES (?1, ?2, ?3) RETURNING id
            """, [.text(kind.rawValue), .text(message), .integer(now)], operation: "notices.add") { row in row.int64(0) }
        return NoticeRecord(id: id ?? 0, kind: kind, message: message, createdAt: now)
    }

    /// Notices in the order they were added; dismissed ones only when `includeDismissed`.
    public func notices(includeDismissed: Bool = false) throws(StoreError) -> [NoticeRecord] {
        try connection.query("""
            SELECT id, kind, message, created_at, dismissed_at FROM notice
            WHERE ?1 OR dismissed_at IS NULL ORDER BY id
            """, [.bool(includeDismissed)], operation: "notices.list") { row in
            NoticeRecord(id: row.int64(0), kind: NoticeKind(rawValue: row.text(1)), message: row.text(2),
                         createdAt: row.int64(3), dismissedAt: row.optionalInt64(4))
        }
    }

    /// Dismisses a notice; returns false when there is no such notice or it was already dismissed.
    @discardableResult
    public func dismissNotice(id: Int64, now: UnixMilliseconds) throws(StoreError) -> Bool {
        try connection.run("UPDATE notice SET dismissed_at = ?2 WHERE id = ?1 AND dismissed_at IS NULL",
                           [.integer(id), .integer(now)], operation: "notices.dismiss") > 0
    }

    /// Dismisses every open notice of `kind` (for example those naming set-aside copies just removed);
    /// returns how many.
    @discardableResult
    public func dismissNotices(of kind: NoticeKind, now: UnixMilliseconds) throws(StoreError) -> Int {
        try connection.run("UPDATE notice SET dismissed_at = ?2 WHERE kind = ?1 AND dismissed_at IS NULL",
                           [.text(kind.rawValue), .integer(now)], operation: "notices.dismiss kind")
    }
}
