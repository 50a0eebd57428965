import TestSupport

/// Practice the box has kept, every run, read from `stillroomctl history export --format csv` (three
/// decimals; `history recent` rounds to a tenth and lists only the last 20). Listening runs and the
/// breathing timer's silent runs (session "timer:…") apart.
struct PracticeKept {
    var runs = 0
    var listeningSeconds = 0.0
    var silentSeconds = 0.0

    init(_ harness: DaemonUnderTest) {
        self.init(csv: harness.ctl("history", "export", "--format", "csv").stdout)
    }

    init(csv: String) {
        let rows = csv.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }).dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let session = 1, listening = 8 // session_id, listening_seconds (PracticeHistory.csvColumns)
        for row in rows where row.count > listening {
            let seconds = Double(String(row[listening])) ?? 0
            runs += 1
            if row[session].hasPrefix("timer:") { silentSeconds += seconds } else { listeningSeconds += seconds }
        }
    }
}
