import StillroomCore

extension SQLiteStore {
    /// Saves the playback position of a session, replacing its previous checkpoint, and gives it a sequence
    /// number above every other checkpoint's. One small commit (one WAL page and one fsync) when it stands
    /// alone; with `saveProgress`, part of the commit that keeps the practice run. Returns the stored record.
    @discardableResult
    public func saveCheckpoint(
        sessionID: String, positionFrames: Int64, sampleRate: Int, clockTrusted: Bool, now: UnixMilliseconds
    ) throws(StoreError) -> PlaybackCheckpointRecord {
        // The session already holds the highest sequence (it is the one playing): only its place changes, so
        // the sequence's index is not rewritten — one page written to the -wal instead of two.
        if let sequence = try connection.queryFirst("""
            UPDATE playback_checkpoint SET
                position_frames = ?2, sample_rate = ?3, saved_at = ?4, clock_trusted = ?5
            WHERE session_id = ?1 AND sequence = (SELECT max(sequence) FROM playback_checkpoint)
            RETURNING sequence
            """, [
                .text(sessionID), .integer(positionFrames), .integer(Int64(sampleRate)), .integer(now), .bool(clockTrusted),
            ], operation: "checkpoints.save", { row in row.int64(0) }) {
            return PlaybackCheckpointRecord(
                sessionID: sessionID, positionFrames: positionFrames, sampleRate: sampleRate, savedAt: now,
                clockTrusted: clockTrusted, sequence: sequence)
        }
        // The sequence is computed inside the same statement, under the write lock: no read-then-write race.
        let sequence = try connection.queryFirst("""
            INSERT INTO playback_checkpoint
                (session_id, position_frames, sample_rate, saved_at, clock_trusted, sequence)
            VALUES (?1, ?2, ?3, ?4, ?5, (SELECT coalesce(max(sequence), 0) + 1 FROM playback_checkpoint))
            ON CONFLICT (session_id) DO UPDATE SET
                position_frames = excluded.position_frames, sample_rate = excluded.sample_rate,
                saved_at = excluded.saved_at, clock_trusted = excluded.clock_trusted, sequence = excluded.sequence
            RETURNING sequence
            """, [
                .text(sessionID), .integer(positionFrames), .integer(Int64(sampleRate)), .integer(now),
                .bool(clockTrusted),
            ], operation: "checkpoints.save") { row in row.int64(0) }
        return PlaybackCheckpointRecord(
            sessionID: sessionID, positionFrames: positionFrames, sampleRate: sampleRate, savedAt: now,
            clockTrusted: clockTrusted, sequence: sequence ?? 0)
    }

    /// The most recently saved checkpoint (highest sequence, whatever the clock said), or nil.
    public func latestCheckpoint() throws(StoreError) -> PlaybackCheckpointRecord? {
        try connection.queryFirst("""
            SELECT session_id, position_frames, sample_rate, saved_at, clock_trusted, sequence
            FROM playback_checkpoint ORDER BY sequence DESC LIMIT 1
            """, operation: "checkpoints.latest", Self.decodeCheckpoint)
    }

    /// The checkpoint of one session, or nil.
    public func checkpoint(sessionID: String) throws(StoreError) -> PlaybackCheckpointRecord? {
        try connection.queryFirst("""
            SELECT session_id, position_frames, sample_rate, saved_at, clock_trusted, sequence
            FROM playback_checkpoint WHERE session_id = ?1
            """, [.text(sessionID)], operation: "checkpoints.get", Self.decodeCheckpoint)
    }

    /// Clears a session's checkpoint (when it finishes, or the owner dismisses the resume offer); returns
    /// whether there was one.
    @discardableResult
    public func clearCheckpoint(sessionID: String) throws(StoreError) -> Bool {
        try connection.run("DELETE FROM playback_checkpoint WHERE session_id = ?1", [.text(sessionID)],
                           operation: "checkpoints.clear") > 0
    }

    /// Clears every checkpoint; returns how many there were.
    @discardableResult
    public func clearAllCheckpoints() throws(StoreError) -> Int {
        try connection.run("DELETE FROM playback_checkpoint", operation: "checkpoints.clear all")
    }

    private static func decodeCheckpoint(_ row: Statement) throws(StoreError) -> PlaybackCheckpointRecord {
        PlaybackCheckpointRecord(
            sessionID: row.text(0), positionFrames: row.int64(1), sampleRate: row.int(2), savedAt: row.int64(3),
            clockTrusted: row.bool(4), sequence: row.int64(5))
    }
}
