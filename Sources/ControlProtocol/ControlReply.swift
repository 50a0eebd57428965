import StillroomCore

/// What the daemon answers a command with, as the types both sides share: the control socket carries its
/// `json`, and whatever runs the daemon in this process (the command fuzzer, the driven tests) reads the
/// values themselves instead of looking for words in the JSON.
public enum ControlReply {
    case status(StatusReport)
    case sessions([SessionSummary])
    case session(SessionSummary)
    case doctor(DoctorReport)
    case settings(SettingsReport)
    case historyMonth(HistoryMonthReport)
    case recentRuns(RecentRunsReport)
    case historyExport(HistoryExportReport)
    case historyDeletion(HistoryDeletionReport)
    case downloads(DownloadsReport)
    /// The download a command acted on, or none left (a removed one).
    case download(DownloadReport?)
    case reminder(ReminderReport)
    case timer(TimerReport)
    case screenshot(ScreenshotReport)
    case transcript(TranscriptReport)
    case network(DaemonNetworkReport)
    /// The system update's state, in the shape `stillroomctl update status` also makes from root's files
    /// alone (StillroomCore's UpdateStatusJSON, shared with the CLI's daemon-less path).
    case update(JSONValue)

    public var json: JSONValue {
        switch self {
        case .status(let report): report.json
        case .sessions(let sessions): SessionSummary.list(sessions)
        case .session(let session): session.json
        case .doctor(let report): report.json
        case .settings(let report): report.json
        case .historyMonth(let report): report.json
        case .recentRuns(let report): report.json
        case .historyExport(let report): report.json
        case .historyDeletion(let report): report.json
        case .downloads(let report): report.json
        case .download(let report): report?.json ?? .null
        case .reminder(let report): report.json
        case .timer(let report): report.json
        case .screenshot(let report): report.json
        case .transcript(let report): report.json
        case .network(let report): report.json
        case .update(let json): json
        }
    }
}
