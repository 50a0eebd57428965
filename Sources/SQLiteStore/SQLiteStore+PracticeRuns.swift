import StillroomCore

extension SQLiteStore {
    /// Inserts a new run (its `id` is ignored) and returns it with the id the store assigned.
    public func insertPracticeRun(_ run: PracticeRunRecord) throws(StoreError) -> PracticeRunRecord {
        let operation = "practice runs.insert"
        var values = try Self.runValues(run, operation: operation)
        values.removeFirst() // The id: assigned by AUTOINCREMENT.
        let id = try connection.queryFirst("""
            INSERT INTO practice_run
                (session_id, started_at, actual_listening_seconds, covered_seconds, covered_ranges,
                 recording_seconds, completed_at, clock_trusted, updated_at, title)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            RETURNING id
            """, values, operation: operation) { row in row.int64(0) }
        var stored = run
        stored.id = id
        return stored
    }

    /// Rewrites every field of the run with `run.id`; returns false when there is no such run.
    ///
    /// The two columns the calendar's index holds (`clock_trusted`, `started_at`) are written by a second
    /// statement only when they change (a run re-dated once the clock is trusted): a playback checkpoint then
    /// rewrites one page of the table, not also a page of the index. Both in one transaction.
    /// - Throws: `invalidArgument` when `run.id` is nil.
    @discardableResult
    public func updatePracticeRun(_ run: PracticeRunRecord) throws(StoreError) -> Bool {
        let operation = "practice runs.update"
        guard run.id != nil else {
            throw StoreError.store(.invalidArgument, operation: operation, message: "the run has no id (insert it first)")
        }
        let values = try Self.runValues(run, operation: operation)
        return try storeTransaction(operation: operation) { () throws(StoreError) -> Bool in
            guard try connection.run("""
                UPDATE practice_run SET
                    session_id = ?2, actual_listening_seconds = ?4, covered_seconds = ?5, covered_ranges = ?6,
                    recording_seconds = ?7, completed_at = ?8, updated_at = ?10, title = ?11
                WHERE id = ?1
                """, values, operation: operation) > 0 else { return false }
            try connection.run("""
                UPDATE practice_run SET started_at = ?3, clock_trusted = ?9
                WHERE id = ?1 AND (started_at IS NOT ?3 OR clock_trusted IS NOT ?9)
                """, Array(values.prefix(9)), operation: operation) // ?1 to ?9: a statement binds no more than it names
            return true
        }
    }

    /// One run by id, or nil.
    public func practiceRun(id: Int64) throws(StoreError) -> PracticeRunRecord? {
        try connection.queryFirst("""
            SELECT id, session_id, started_at, actual_listening_seconds, covered_seconds, covered_ranges,
                   recording_seconds, completed_at, clock_trusted, updated_at, title
            FROM practice_run WHERE id = ?1
            """, [.integer(id)], operation: "practice runs.get", Self.decodeRun)
    }

    /// Runs with a trusted clock that started in `[from, to)`, oldest first: the calendar's data. Runs
    /// recorded before the clock was synchronised are left out (they would land in 1970); see
    /// `untrustedPracticeRuns()`.
    public func practiceRuns(startedFrom from: UnixMilliseconds, before to: UnixMilliseconds) throws(StoreError) -> [PracticeRunRecord] {
        try connection.query("""
            SELECT id, session_id, started_at, actual_listening_seconds, covered_seconds, covered_ranges,
                   recording_seconds, completed_at, clock_trusted, updated_at, title
            FROM practice_run WHERE clock_trusted = 1 AND started_at >= ?1 AND started_at < ?2
            ORDER BY started_at, id
            """, [.integer(from), .integer(to)], operation: "practice runs.list range", Self.decodeRun)
    }

    /// The `limit` most recently started runs, newest first, by id (insertion order), not by clock.
    public func recentPracticeRuns(limit: Int) throws(StoreError) -> [PracticeRunRecord] {
        try connection.query("""
            SELECT id, session_id, started_at, actual_listening_seconds, covered_seconds, covered_ranges,
                   recording_seconds, completed_at, clock_trusted, updated_at, title
            FROM practice_run ORDER BY id DESC LIMIT ?1
            """, [.integer(Int64(max(0, limit)))], operation: "practice runs.recent", Self.decodeRun)
    }

    /// Runs recorded while the clock was not trusted, oldest first: to be dated once the time is known
    /// (update them with `clockTrusted = true` and a corrected `startedAt`).
    public func untrustedPracticeRuns() throws(StoreError) -> [PracticeRunRecord] {
        try connection.query("""
            SELECT id, session_id, started_at, actual_listening_seconds, covered_seconds, covered_ranges,
                   recording_seconds, completed_at, clock_trusted, updated_at, title
            FROM practice_run WHERE clock_trusted = 0 ORDER BY id
            """, operation: "practice runs.list untrusted", Self.decodeRun)
    }

    /// Deletes one run; returns whether it existed. The deleted run stays readable in the files until
    /// `finishPendingPurge()` rewrites them; the need to purge is recorded in the same transaction.
    @discardableResult
    public func deletePracticeRun(id: Int64) throws(StoreError) -> Bool {
        let operation = "practice runs.delete"
        return try storeTransaction(operation: operation) { () throws(StoreError) -> Bool in
            guard try connection.run("DELETE FROM practice_run WHERE id = ?1", [.integer(id)], operation: operation) > 0 else {
                return false
            }
            try markPurgePending(operation: operation)
            return true
        }
    }

    /// Deletes the whole practice history; returns how many runs there were. Ids are not reused afterwards.
    /// As with `deletePracticeRun`, a purge is recorded as pending in the same transaction.
    @discardableResult
    public func deleteAllPracticeRuns() throws(StoreError) -> Int {
        let operation = "practice runs.delete all"
        return try storeTransaction(operation: operation) { () throws(StoreError) -> Int in
            let count = try connection.run("DELETE FROM practice_run", operation: operation)
            if count > 0 { try markPurgePending(operation: operation) }
            return count
        }
    }

    /// The bound values in column order, id first.
    private static func runValues(_ run: PracticeRunRecord, operation: String) throws(StoreError) -> [SQLValue] {
        for (name, value) in [("actualListeningSeconds", run.actualListeningSeconds),
                              ("coveredSeconds", run.coveredSeconds), ("recordingSeconds", run.recordingSeconds)] {
            // SQLite stores NaN as NULL; refuse it (and infinities) here with a clear message.
            guard value.isFinite else {
                throw StoreError.store(.invalidArgument, operation: operation, message: "\(name) is \(value)")
            }
        }
        return [
            .optional(run.id), .text(run.sessionID), .integer(run.startedAt), .real(run.actualListeningSeconds),
            .real(run.coveredSeconds), .text(try CoveredRangesText.encode(run.coveredRanges, operation: operation)),
            .real(run.recordingSeconds), .optional(run.completedAt), .bool(run.clockTrusted), .integer(run.updatedAt),
            run.title.map { .text($0) } ?? .null,
        ]
    }

    private static func decodeRun(_ row: Statement) throws(StoreError) -> PracticeRunRecord {
        PracticeRunRecord(
            id: row.int64(0), sessionID: row.text(1), startedAt: row.int64(2), actualListeningSeconds: row.double(3),
            coveredSeconds: row.double(4),
            coveredRanges: try CoveredRangesText.decode(row.text(5), operation: row.operation),
            recordingSeconds: row.double(6), completedAt: row.optionalInt64(7), clockTrusted: row.bool(8),
            updatedAt: row.int64(9), title: row.optionalText(10))
    }
}
