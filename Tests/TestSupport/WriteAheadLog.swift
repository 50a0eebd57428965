/// An SQLite write-ahead log (a database's `-wal` file) read from outside the process writing it: how many
/// transactions it holds. With `synchronous=FULL` every commit is one fsync of this file, so counting
/// commit frames counts the fsyncs a workload cost, on the real file, without tracing the process.
///
/// The format (sqlite.org/fileformat2.html, "The Write-Ahead Log"): a 32-byte header (magic, version,
/// page size, checkpoint sequence, salt-1, salt-2, checksums), then frames of a 24-byte header (page
/// number; the database size in pages for the last frame of a transaction, 0 otherwise; the header's two
/// salts; checksums) and one page. Only frames carrying the header's salts belong to the log as it is now:
/// after a restart SQLite writes new salts and overwrites from the start, and the old frames past the new
/// end no longer count. (Checksums are not verified: the reader reads after the writer's commit returned.)
public struct WriteAheadLog: Equatable {
    /// Frames written since the log was last restarted.
    public let frames: Int
    /// Transactions committed since the log was last restarted.
    public let commits: Int
    /// Salt-1 of the header: changes when the log restarts (after a checkpoint), so two reads with the same
    /// salt see the same log, the later one grown by what was committed in between.
    public let salt: UInt32

    /// Reads the log at `path`; nil when there is none, or it is shorter than its header.
    public init?(path: String) {
        let bytes = Files.read(path)
        guard bytes.count >= 32 else { return nil }
        func word(_ offset: Int) -> UInt32 {
            bytes[offset ..< offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let pageSize = Int(word(8))
        let salt1 = word(16), salt2 = word(20)
        var frames = 0, commits = 0
        var offset = 32
        while offset + 24 + pageSize <= bytes.count, word(offset + 8) == salt1, word(offset + 12) == salt2 {
            frames += 1
            if word(offset + 4) != 0 { commits += 1 }
            offset += 24 + pageSize
        }
        self.frames = frames
        self.commits = commits
        salt = salt1
    }
}
