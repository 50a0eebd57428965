import ControlProtocol
import SQLiteStore
import StillroomCore

/// Practice history over the control socket: calendar, recent runs, export, deletion.
extension Daemon {
    enum RunKind { case listening, silent, all }

    /// Listening history, the breathing-timer runs (silent practice, kept apart), or both.
    func practiceHistory(_ kind: RunKind = .listening) -> PracticeHistory {
        let all = (try? store.recentPracticeRuns(limit: Int.max)) ?? []
        let runs = kind == .all ? all : all.filter { $0.sessionID.hasPrefix(BreathingTimer.practicePrefix) == (kind == .silent) }
        let boundary = PracticeDayBoundary(settingValue: settings.value(of: "day-boundary")) ?? .standard
        let calendar = PracticeCalendar(timeZone: timeZone.rules, dayBoundary: boundary)
        return PracticeHistory(runs: runs, calendar: calendar, now: clockTrusted ? wallMilliseconds : nil)
    }

    /// Titles of every session the daemon knows: bundled, and remote (from the manifests, downloaded or
    /// not). A run of a session no longer known keeps its id (HistoryReport falls back to it).
    var sessionTitles: [String: String] {
        let known = (downloads?.remoteSessions ?? []) + content.catalog.sessions // bundled last: their titles win
        var titles = known.reduce(into: [String: String]()) { $0[$1.id.rawValue] = $1.title }
        for (name, _) in BreathingTimer.patterns { titles[BreathingTimer.practicePrefix + name] = "Breathing timer, \(name)" }
        return titles
    }

    func historyCommand(_ request: ControlCommand.HistoryRequest) -> Result<ControlReply, ControlError> {
        switch request {
        case .month(let asked):
            let history = practiceHistory()
            let month = asked ?? (history.today ?? CivilDate(daysSinceEpoch: Int64(wallMilliseconds / 86_400_000))).civilMonth
            return .success(.historyMonth(HistoryMonthReport(history, month, showStreak: settings.showStreak, silent: practiceHistory(.silent))))
        case .recent:
            return .success(.recentRuns(RecentRunsReport(practiceHistory(.all), titles: sessionTitles)))
        case .export(let format):
            let everything = practiceHistory(.all)
            return .success(.historyExport(HistoryExportReport(text: format == .csv ? everything.exportCSV() : everything.exportJSONText())))
        case .deleteRun(let run): return deleteHistory(run: Int64(run))
        case .deleteAll: return deleteHistory(run: nil)
        }
    }

    /// Deletes one run, or all of them (`run` nil). The runs are gone from the history when the deletion
    /// commits; wiping them from the files follows at once when the card has room, or later (Daemon+Purge):
    /// the answer says which, as `wiped`. Deleting all also removes the damaged databases set aside
    /// earlier, which still hold older history (`removedCopies`).
    func deleteHistory(run: Int64?) -> Result<ControlReply, ControlError> {
        defer { refreshModel(historyChanged: true) }
        let count: Int
        do {
            if let run {
                guard try store.deletePracticeRun(id: run) else {
                    return .failure(ControlError(.notFound, "no practice run \(run); see stillroomctl history recent"))
                }
                feed(.runsDeleted(run: run))
                count = 1
            } else {
                count = try store.deleteAllPracticeRuns()
                feed(.runsDeleted(run: nil)) // the run in progress goes too; listening from now on starts a new one
            }
        } catch {
            logger.error("practice history: not deleted: \(error)")
            return .failure(ControlError(.failed, "history not deleted: \(storageWords(error))"))
        }
        logger.notice("practice history: " + (run.map { "run \($0) deleted" } ?? "all \(count) runs deleted"))
        var removedCopies: [String] = []
        if run == nil {
            do {
                removedCopies = try removeSetAsideCopies()
            } catch {
                return .failure(ControlError(.failed, "the history was deleted, but the damaged copies of the database set aside "
                    + "earlier could not be removed and still hold older history: \(storageWords(error))"))
            }
        }
        storage.purgePending = true
        let wiped = finishPendingPurge(after: "the deletion")
        return .success(.historyDeletion(HistoryDeletionReport(deleted: count, wiped: wiped, removedCopies: removedCopies)))
    }

    /// Removes the damaged databases the store set aside (with their -wal and -shm) and dismisses the
    /// notices that named them. The owner asked for all history to go; those copies hold the history they had.
    private func removeSetAsideCopies() throws(StoreError) -> [String] {
        let removed = try store.removeMovedAsideCopies()
        guard !removed.isEmpty else { return [] }
        logger.notice("practice history: removed the damaged copies set aside earlier: \(removed.joined(separator: ", "))")
        _ = try? store.dismissNotices(of: .databaseMovedAside, now: wallMilliseconds) // they named files now gone
        modelSources.storeChanged = true
        return removed
    }
}
