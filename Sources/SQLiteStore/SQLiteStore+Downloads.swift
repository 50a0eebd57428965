import StillroomCore

extension SQLiteStore {
    /// Inserts or replaces the download record of `record.sessionID`.
    public func upsertDownload(_ record: AudioDownloadRecord) throws(StoreError) {
        try connection.run("""
            INSERT INTO audio_download
                (session_id, local_path, state, bytes_done, bytes_total, sha256, error, updated_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
            ON CONFLICT (session_id) DO UPDATE SET
                local_path = excluded.local_path, state = excluded.state, bytes_done = excluded.bytes_done,
                bytes_total = excluded.bytes_total, sha256 = excluded.sha256, error = excluded.error,
                updated_at = excluded.updated_at
            """, [
                .text(record.sessionID), .text(record.localPath), .text(record.state.rawValue),
                .integer(record.bytesDone), .optional(record.bytesTotal), .optional(record.sha256),
                .optional(record.error), .integer(record.updatedAt),
            ], operation: "downloads.upsert")
    }

    /// The download record of a session, or nil.
    public func download(sessionID: String) throws(StoreError) -> AudioDownloadRecord? {
        try connection.queryFirst("""
            SELECT session_id, local_path, state, bytes_done, bytes_total, sha256, error, updated_at
            FROM audio_download WHERE session_id = ?1
            """, [.text(sessionID)], operation: "downloads.get", Self.decodeDownload)
    }

    /// Every download record, by session id.
    public func downloads() throws(StoreError) -> [AudioDownloadRecord] {
        try connection.query("""
            SELECT session_id, local_path, state, bytes_done, bytes_total, sha256, error, updated_at
            FROM audio_download ORDER BY session_id
            """, operation: "downloads.list", Self.decodeDownload)
    }

    /// Forgets a session's download record (the file itself is the caller's to remove); returns whether
    /// there was one.
    @discardableResult
    public func deleteDownload(sessionID: String) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM audio_download WHERE session_id = ?1", [.text(sessionID)],
                           operation: "downloads.delete") > 0
    }

    private static func decodeDownload(_ row: Statement) throws(StoreError) -> AudioDownloadRecord {
        let stateText = row.text(2)
        guard let state = AudioDownloadState(rawValue: stateText) else {
            throw StoreError.store(.invalidData, operation: row.operation, message: "unknown download state '\(stateText)'")
        }
        return AudioDownloadRecord(
            sessionID: row.text(0), localPath: row.text(1), state: state, bytesDone: row.int64(3),
            bytesTotal: row.optionalInt64(4), sha256: row.optionalText(5), error: row.optionalText(6),
            updatedAt: row.int64(7))
    }
}
