import StillroomCore

extension SQLiteStore {
    /// The value stored for `key`, or nil.
    public func setting(_ key: String) throws(StoreError) -> String? {
        try connection.queryFirst("SELECT value FROM setting WHERE key = ?1", [.text(key)],
                                  operation: "settings.get") { row in row.text(0) }
    }

    /// Stores `value` for `key`, replacing any previous value.
    public func setSetting(_ key: String, to value: String, now: UnixMilliseconds) throws(StoreError) {
        try connection.run("""
            INSERT INTO setting (key, value, updated_at) VALUES (?1, ?2, ?3)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
            """, [.text(key), .text(value), .integer(now)], operation: "settings.set")
    }

    /// Removes `key`; returns whether it was there.
    @discardableResult
    public func removeSetting(_ key: String) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM setting WHERE key = ?1", [.text(key)], operation: "settings.remove") > 0
    }

    /// Every setting, by key.
    public func allSettings() throws(StoreError) -> [SettingRecord] {
        try connection.query("SELECT key, value, updated_at FROM setting ORDER BY key",
                             operation: "settings.list") { row in
            SettingRecord(key: row.text(0), value: row.text(1), updatedAt: row.int64(2))
        }
    }
}
