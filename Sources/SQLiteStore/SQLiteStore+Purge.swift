extension SQLiteStore {
    /// Makes deleted rows really gone from the files: SQLite leaves freed pages (secure_delete is off to
    /// spare the SD card) and old copies in the WAL. This checkpoints the WAL into the database, rebuilds
    /// the database without free pages (VACUUM), and truncates the WAL to nothing. Used after the owner
    /// deletes history; rare, so its writes do not matter for wear.
    public func purgeDeletedData() throws(StoreError) {
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)", operation: "purge.checkpoint")
        try connection.execute("VACUUM", operation: "purge.vacuum")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)", operation: "purge.truncate wal")
    }
}
