// Deleted rows are not gone from the files when DELETE commits: SQLite leaves them in free pages and in
// the unused space of pages (secure_delete is off to spare the SD card), and older copies of the pages
// stay in the -wal until it is checkpointed. A purge rewrites the files without them. A deletion that
// must not stay readable leaves a marker (table purge_pending) in its own transaction; the purge removes
// it only when done. So a card too full for the purge, or a power cut before it, only delays it.

internal import CSQLite

/// What `finishPendingPurge()` did.
public enum PurgeOutcome: Hashable, Sendable {
    /// No deletion is waiting to be wiped.
    case nothingPending
    /// The deleted rows are gone from the database and its -wal.
    case purged
    /// Not tried: the file system has less room than the rewrite needs. The marker stays.
    case waitingForRoom(neededBytes: Int64, availableBytes: Int64)
}

extension SQLiteStore {
    /// Whether deleted rows are waiting to be wiped from the files.
    public func hasPendingPurge() throws(StoreError) -> Bool {
        try connection.queryFirst("SELECT 1 FROM purge_pending", operation: "purge.pending") { _ in true } ?? false
    }

    /// Wipes the deleted rows from the files if a deletion left them there and there is room for the
    /// rewrite. Cheap when nothing is pending (one read of a one-row table).
    ///
    /// - Throws: `StoreError` when the rewrite was tried and failed (`diskFull` if the estimate of the room
    ///   it needs was short, `busy` if a reader held the -wal); the marker stays and a later call tries again.
    public func finishPendingPurge() throws(StoreError) -> PurgeOutcome {
        try finishPendingPurge(availableBytes: FileSystem.availableBytes(FileSystem.directory(of: path)))
    }

    /// `finishPendingPurge()` with the free room given (nil: do not check), for tests that need the rewrite
    /// to be tried on a full disk.
    func finishPendingPurge(availableBytes: Int64?) throws(StoreError) -> PurgeOutcome {
        guard try hasPendingPurge() else { return .nothingPending }
        let needed = try purgeRoomNeeded()
        if let availableBytes, availableBytes < needed {
            return .waitingForRoom(neededBytes: needed, availableBytes: availableBytes)
        }
        do {
            try purgeDeletedData()
        } catch {
            // A rewrite stopped by a full disk leaves the -wal as large as the disk allowed; give the room back
            // (the checkpoint only copies committed frames into the database, which the deletion shrank).
            _ = try? connection.executeReturningText("PRAGMA wal_checkpoint(TRUNCATE)", operation: "purge.give back room")
            throw error
        }
        // Last, and on its own: a power cut before this commit only means purging again at the next start.
        try connection.run("DELETE FROM purge_pending", operation: "purge.done")
        return .purged
    }

    /// Room the rewrite needs: VACUUM builds a copy of the live pages in a temporary database (which may
    /// be on the same file system) and writes them back through the -wal, so about twice their size, plus
    /// a margin for the -wal's frame headers and the temporary file's journal.
    func purgeRoomNeeded() throws(StoreError) -> Int64 {
        func number(_ sql: StaticString) throws(StoreError) -> Int64 {
            Int64(try connection.executeReturningText(sql, operation: "purge.measure").first ?? "") ?? 0
        }
        let livePages = try number("PRAGMA page_count") - number("PRAGMA freelist_count")
        return 2 * livePages * (try number("PRAGMA page_size")) + 256 * 1024
    }

    /// Rewrites the files without deleted rows, whether or not a marker asks for it: checkpoints the -wal
    /// into the database and empties it, rebuilds the database without free pages (VACUUM), and empties
    /// the -wal again. Rare, so its writes do not matter for wear.
    ///
    /// - Throws: `busy` when a reader kept the -wal from being emptied (its old frames may hold the rows).
    func purgeDeletedData() throws(StoreError) {
        try checkpointEmptyingWAL(operation: "purge.checkpoint")
        try connection.execute("VACUUM", operation: "purge.vacuum")
        try checkpointEmptyingWAL(operation: "purge.truncate wal")
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`, which reports (not throws) when a reader stopped it.
    func checkpointEmptyingWAL(operation: String) throws(StoreError) {
        let busy = try connection.executeReturningText("PRAGMA wal_checkpoint(TRUNCATE)", operation: operation)
        guard busy.first == "0" else {
            throw StoreError.store(.busy, operation: operation, message: "a reader kept the -wal from being emptied; try again later",
                                   code: SQLITE_BUSY)
        }
    }

    /// Records, inside the caller's transaction, that deleted rows must be wiped from the files.
    func markPurgePending(operation: String) throws(StoreError) {
        try connection.run("INSERT OR IGNORE INTO purge_pending (id) VALUES (1)", operation: operation)
    }

    /// `transaction` for bodies that throw only `StoreError`.
    func storeTransaction<T>(operation: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        do {
            return try transaction { try body() }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.store(.other, operation: operation, message: "\(error)")
        }
    }
}
