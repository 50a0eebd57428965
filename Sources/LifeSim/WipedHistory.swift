import SystemCalls

/// Deleted history's bytes are gone from the files: a deleted run is wiped from the database and its `-wal`
/// as soon as the card has room (docs/data.md, "Deleting for good"), and until then the box says it waits.
/// A run's bytes are known by what SQLite writes of its row: the session's id followed by the start, an
/// integer of six bytes, big-endian (the columns `session_id, started_at` of `practice_run`, side by side in
/// the row's record; no other table writes them so).
struct WipedHistory {
    /// The runs deleted in the box's life, by session: their starts (a whole history deleted gives its
    /// first and last five rows, enough to see a wipe that did not happen).
    private var deletedStarts: [String: Set<Int64>] = [:]
    /// A deletion the box has neither said it wiped, nor said it waits to wipe.
    private var unanswered = false
    /// A wipe the box said it waits for (room on the card): the bytes may still be there.
    private var waiting = false
    /// Times the files were read and found clean (the life's summary).
    private(set) var filesChecked = 0

    /// The person deleted these runs (session id, start in unix milliseconds) and the box said it did.
    mutating func deleted(_ runs: [(session: String, startMilliseconds: Int64)]) {
        let chosen = runs.count <= 10 ? runs : Array(runs.prefix(5) + runs.suffix(5))
        for run in chosen { deletedStarts[run.session, default: []].insert(run.startMilliseconds) }
        unanswered = true
    }

    /// A line of the box's log, read in order.
    mutating func logged(_ line: Substring) {
        if line.contains("practice history: deleted runs wiped from the database files") {
            unanswered = false
            waiting = false
        } else if line.contains("practice history: deleted runs are not yet wiped") || line.contains("practice history: wiping deleted runs failed") {
            unanswered = false
            waiting = true
        }
    }

    /// Checked once a day and after every start: the box answered every deletion, and once it said it
    /// wiped them no deleted row is left in `database` or its `-wal`. `cardTrouble`: the card could not be
    /// written in this life (the deletion itself may have been refused, and a wipe waits for room).
    mutating func check(database: String, cardTrouble: Bool) throws(Oracle.Violation) {
        guard !deletedStarts.isEmpty else { return }
        if unanswered && !cardTrouble {
            throw Oracle.Violation(invariant: "deleted history's bytes are gone from the files",
                                   detail: "a deletion was neither wiped nor said to wait for room")
        }
        guard !unanswered, !waiting else { return }
        for path in [database, database + "-wal"] {
            guard let bytes = try? Files.readAll(path, limit: 1 << 28), !bytes.isEmpty else { continue }
            for (session, starts) in deletedStarts {
                if let start = Self.deletedRow(in: bytes, session: Array(session.utf8), starts: starts) {
                    throw Oracle.Violation(invariant: "deleted history's bytes are gone from the files",
                                           detail: "the run of \(session) deleted, started at \(start) ms, is still in \(Files.name(of: path)) after the box said it wiped it")
                }
            }
        }
        filesChecked += 1
    }

    /// The start of a deleted run whose row is in `bytes`: each place the session's id is written, followed
    /// by six bytes that read as one of `starts`.
    private static func deletedRow(in bytes: [UInt8], session: [UInt8], starts: Set<Int64>) -> Int64? {
        guard let first = session.first, bytes.count >= session.count + 6 else { return nil }
        let last = bytes.count - session.count - 6
        var index = 0
        while index <= last {
            if bytes[index] == first && bytes[index..<index + session.count].elementsEqual(session) {
                var start: Int64 = 0
                for byte in bytes[index + session.count..<index + session.count + 6] { start = start << 8 | Int64(byte) }
                if starts.contains(start) { return start }
            }
            index += 1
        }
        return nil
    }
}
