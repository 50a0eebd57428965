import ControlProtocol
import SQLiteStore
import StillroomCore

/// Practice history over the control socket: calendar, recent runs, export, deletion.
extension Daemon {
    func practiceHistory() -> PracticeHistory {
        let runs = (try? store.recentPracticeRuns(limit: Int.max)) ?? []
        let boundary = PracticeDayBoundary(settingValue: settings.value(of: "day-boundary")) ?? .standard
        let calendar = PracticeCalendar(timeZone: timeZone.rules, dayBoundary: boundary)
        return PracticeHistory(runs: runs, calendar: calendar, now: clockTrusted ? wallMilliseconds : nil)
    }

    var sessionTitles: [String: String] {
        content.catalog.sessions.reduce(into: [:]) { $0[$1.id.rawValue] = $1.title }
    }

    func historyCommand(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        let history = practiceHistory()
        switch request.argument("view") ?? "month" {
        case "month":
            let month: CivilMonth
            if let text = request.argument("month") {
                guard let parsed = HistoryReport.parseMonth(text) else {
                    return .failure(ControlError(.invalidArgument, "--month takes YYYY-MM, got \"\(text)\""))
                }
                month = parsed
            } else {
                month = (history.today ?? CivilDate(daysSinceEpoch: Int64(wallMilliseconds / 86_400_000))).civilMonth
            }
            return .success(HistoryReport.month(history, month, showStreak: settings.showStreak))
        case "recent":
            return .success(HistoryReport.recent(history, titles: sessionTitles))
        case "export":
            switch request.argument("format") ?? "json" {
            case "json": return .success(.object(["text": .string(history.exportJSONText())]))
            case "csv": return .success(.object(["text": .string(history.exportCSV())]))
            case let other: return .failure(ControlError(.invalidArgument, "--format takes json or csv, got \"\(other)\""))
            }
        case "delete":
            return deleteHistory(request)
        case let other:
            return .failure(ControlError(.invalidArgument, "unknown history view \"\(other)\""))
        }
    }

    private func deleteHistory(_ request: ControlRequest) -> Result<JSONValue, ControlError> {
        do {
            if let run = request.arguments["run"]?.integerValue {
                guard try store.deletePracticeRun(id: Int64(run)) else {
                    return .failure(ControlError(.notFound, "no practice run \(run); see stillroomctl history recent"))
                }
                if ledger.open?.record.id == Int64(run) { ledger = PracticeLedger() }
                try store.purgeDeletedData()
                logger.notice("practice history: run \(run) deleted")
                return .success(.object(["deleted": .number(1)]))
            }
            guard request.arguments["all"]?.boolValue == true else {
                return .failure(ControlError(.invalidArgument, "say which: --run ID, or --all --yes"))
            }
            let count = try store.deleteAllPracticeRuns()
            ledger = PracticeLedger() // the run in progress goes too; listening from now on starts a new one
            untrustedRunsThisBoot = [:]
            try store.purgeDeletedData()
            logger.notice("practice history: all \(count) runs deleted")
            return .success(.object(["deleted": .number(Double(count))]))
        } catch {
            return .failure(ControlError(.failed, "history not deleted: \(error)"))
        }
    }
}
