import StillroomCore

extension SQLiteStore {
    /// Marks a session as a favourite. Returns false (and keeps the original date) when it already was.
    @discardableResult
    public func addFavorite(sessionID: String, now: UnixMilliseconds) throws(StoreError) -> Bool {
        try connection.run("""
            INSERT INTO favorite (session_id, created_at) VALUES (?1, ?2) ON CONFLICT (session_id) DO NOTHING
            """, [.text(sessionID), .integer(now)], operation: "favorites.add") > 0
    }

    /// Unmarks a session; returns whether it was a favourite.
    @discardableResult
    public func removeFavorite(sessionID: String) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM favorite WHERE session_id = ?1", [.text(sessionID)],
                           operation: "favorites.remove") > 0
    }

    /// Whether a session is a favourite.
    public func isFavorite(sessionID: String) throws(StoreError) -> Bool {
        try connection.queryFirst("SELECT 1 FROM favorite WHERE session_id = ?1", [.text(sessionID)],
                                  operation: "favorites.get") { _ in true } ?? false
    }

    /// Every favourite, newest first (ties, as from an unset clock, in reverse order of adding).
    public func favorites() throws(StoreError) -> [FavoriteRecord] {
        try connection.query("SELECT session_id, created_at FROM favorite ORDER BY created_at DESC, rowid DESC",
                             operation: "favorites.list") { row in
            FavoriteRecord(sessionID: row.text(0), createdAt: row.int64(1))
        }
    }
}
