import StillroomCore

extension SQLiteStore {
    /// The cached length of the file at `path`, only if it was scanned at this very size and modification
    /// time; nil means "scan it".
    public func audioLength(path: String, size: Int64, modificationTimeNanoseconds: Int64) throws(StoreError) -> AudioLengthRecord? {
        try connection.queryFirst("""
            SELECT path, size, mtime_ns, frames, sample_rate FROM audio_length_cache
            WHERE path = ?1 AND size = ?2 AND mtime_ns = ?3
            """, [.text(path), .integer(size), .integer(modificationTimeNanoseconds)],
            operation: "audio lengths.get") { row in
            AudioLengthRecord(path: row.text(0), size: row.int64(1), modificationTimeNanoseconds: row.int64(2),
                              frames: row.int64(3), sampleRate: row.int(4))
        }
    }

    /// Caches a scanned length, replacing whatever was cached for the path.
    public func putAudioLength(_ record: AudioLengthRecord) throws(StoreError) {
        try connection.run("""
            INSERT INTO audio_length_cache (path, size, mtime_ns, frames, sample_rate) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (path) DO UPDATE SET
                size = excluded.size, mtime_ns = excluded.mtime_ns, frames = excluded.frames,
                sample_rate = excluded.sample_rate
            """, [
                .text(record.path), .integer(record.size), .integer(record.modificationTimeNanoseconds),
                .integer(record.frames), .integer(Int64(record.sampleRate)),
            ], operation: "audio lengths.put")
    }

    /// Forgets the cached length of a path (for a file that is gone); returns whether there was one.
    @discardableResult
    public func removeAudioLength(path: String) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM audio_length_cache WHERE path = ?1", [.text(path)],
                           operation: "audio lengths.remove") > 0
    }
}
