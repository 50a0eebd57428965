import ControlProtocol
import StillroomCore

/// Human-readable renderings of results (with `--json`, the result object is printed instead).
enum Output {
    static func status(_ result: JSONValue) -> String {
        let status = StatusReport(json: result)
        var lines: [String] = []
        if let title = status.title, let id = status.session {
            lines.append("\(status.state.rawValue.capitalizedFirst): \(title) (\(id)) at \(TimeText.clock(status.position)) of \(TimeText.clock(status.duration))")
        } else {
            lines.append(status.live != nil ? "\(status.state.rawValue.capitalizedFirst): nothing chosen" : "The daemon is not running.")
        }
        if status.live == nil, let saved = status.lastCheckpoint {
            lines.append("Last saved place: \(TimeText.clock(saved.position)) (from the database)")
        }
        if let live = status.live {
            if let reason = live.pauseReason { lines.append(Wording.pause(reason)) }
            if let error = live.error { lines.append("Error: \(error)") }
        }
        if let offer = status.resumeOffer {
            lines.append("Offering: Resume \(offer.title) at \(TimeText.clock(offer.position)) (stillroomctl play, or dismiss)")
        }
        if let live = status.live {
            lines.append("Output: \(live.outputName)" + (live.outputAvailable ? "" : " — lost: \(live.outputProblem ?? "unavailable")"))
            lines.append("Headphones: \(live.headphones ? "in" : "out")")
            lines.append("Volume: \(live.volume)" + (live.effectiveVolume != live.volume ? " (capped to \(live.effectiveVolume))" : ""))
        }
        if let age = status.lastCheckpoint?.ageSeconds { lines.append("Last checkpoint: \(Int(age)) s ago") }
        for notice in status.notices { lines.append("Notice \(notice.id): \(notice.message)") }
        return lines.joined(separator: "\n")
    }

    static func sessions(_ all: [SessionSummary], filter: [String: String]) -> String {
        let sessions = all.filter { session in
            if let theme = filter["--theme"], session.theme.rawValue != theme { return false }
            if filter["--favorites"] != nil, !session.favorite { return false }
            if filter["--offline"] != nil, !session.onBox { return false }
            return true
        }
        guard !sessions.isEmpty else { return "No sessions match." }
        return sessions.map { session in
            let star = session.favorite ? "*" : " "
            let offer = session.download?.offer
            var place = session.onBox ? "on this box" : "download \(megabytes(session.bytes.map(Double.init)))"
            if offer == .withdrawn { place += "; no longer offered" }
            if offer == .remembered && !session.onBox { place += " when online" }
            return "\(star) \(session.id.padded(to: 22)) \(session.theme.rawValue.padded(to: 8)) "
                + "\(TimeText.clock(session.duration).leftPadded(to: 6))  \(session.title)  (\(place))"
        }.joined(separator: "\n")
    }

    static func session(_ result: JSONValue) -> String {
        guard let session = SessionSummary(json: result) else { return "The answer does not describe a session." }
        let offer = session.download?.offer
        return [
            "\(session.title) (\(session.id))",
            "Theme: \(session.theme.rawValue)   Length: \(TimeText.clock(session.duration))"
                + (session.durationMeasured ? "" : " (as the catalog gives it)") + (session.favorite ? "   Favourite" : ""),
            session.onBox
                ? "On this box" + (offer == .withdrawn ? "; no longer offered by its source" : "")
                : "Downloadable (\(megabytes(session.bytes.map(Double.init))))" + (offer == .remembered ? " when the box is online" : ""),
            "",
            session.description,
            "",
            "Licence: \(session.licenseName) — \(session.licenseAttribution)",
        ].joined(separator: "\n")
    }

    static func historyMonth(_ result: JSONValue) -> String {
        let report = HistoryMonthReport(json: result)
        var lines = ["Practice in \(report.month): \(Wording.count(report.monthMinutes, "minute")) on \(Wording.count(report.practisedDays, "day"))"]
        for day in report.days where day.runs > 0 {
            lines.append("  \(day.day)  \(String(day.minutes).leftPadded(to: 3)) min" + (day.completed > 0 ? "  (\(day.completed) completed)" : ""))
        }
        lines.append("All time: \(Wording.count(report.totalMinutes, "minute")) in \(Wording.count(report.totalRuns, "session")), "
                     + "\(report.completedRuns) completed")
        if let silent = report.silentTotalMinutes, silent > 0 {
            lines.append("Silent practice (breathing timer): \(Wording.count(report.silentMonthMinutes ?? 0, "minute")) this month, \(silent) in all")
        }
        if report.undatedRuns > 0 {
            lines.append(report.undatedRuns == 1 ? "1 session has no date yet (the clock was not set when it was played)"
                                                 : "\(report.undatedRuns) sessions have no date yet (the clock was not set when they were played)")
        }
        if let streak = report.streak, streak.days > 1 { lines.append("\(streak.days) days in a row") }
        return lines.joined(separator: "\n")
    }

    static func historyRecent(_ result: JSONValue) -> String {
        let runs = RecentRunsReport(json: result).runs
        guard !runs.isEmpty else { return "No practice recorded yet." }
        return runs.map { run in
            let number = run.run.map { "#\($0)" } ?? "(now)"
            return "\(number.padded(to: 6)) \((run.start ?? "date unknown").padded(to: 20)) \(String(run.minutes).leftPadded(to: 3)) min  "
                + run.title + (run.completed ? "  (completed)" : "")
        }.joined(separator: "\n")
    }

    /// Each cue on a line after its start time; a cue's further lines are indented under its first.
    static func transcript(_ result: JSONValue) -> String {
        TranscriptReport(json: result).cues.map { cue in
            let text = cue.text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + String(repeating: " ", count: 8))
            return "\(TimeText.clock(cue.start).leftPadded(to: 6))  \(text)"
        }.joined(separator: "\n")
    }

    static func downloads(_ result: JSONValue) -> String {
        let report = DownloadsReport(json: result)
        var lines = report.downloads.isEmpty ? ["No downloads."] : report.downloads.map(downloadLine)
        for source in report.sources { lines.append("Source: \(source.url) — \(source.summary)") }
        return lines.joined(separator: "\n")
    }

    /// A download's answer (`download ID`, `download cancel ID`): its line, or the daemon's null when it
    /// has nothing to say about the session any more.
    static func downloadStatus(_ result: JSONValue) -> String {
        DownloadReport(json: result).map(downloadLine) ?? ""
    }

    static func downloadLine(_ download: DownloadReport) -> String { "\(download.session.padded(to: 22)) \(download.summary)" }

    static func reminder(_ result: JSONValue) -> String {
        let report = ReminderReport(json: result)
        guard let schedule = report.schedule else { return "Reminder: off" }
        var line = "Reminder: \(schedule.time), \(schedule.days), \(schedule.style)"
        if let quiet = schedule.quiet { line += ", quiet \(quiet)" }
        if let next = report.next { line += "\nNext: \(next)" }
        if report.waiting == true { line += "\nWaiting for the session to end" }
        if report.card == true { line += "\nA reminder card is on the screen" }
        return line
    }

    static func timer(_ result: JSONValue) -> String {
        guard let timer = TimerReport(json: result).running else { return "No breathing timer running." }
        return "Breathing timer \(timer.pattern): \(TimeText.clock(timer.remainingSeconds)) left, \(timer.phase ?? "resting")"
    }

    static func settings(_ result: JSONValue) -> String {
        SettingsReport(json: result).entries.map { "\($0.key.padded(to: 15)) \($0.value.padded(to: 8))  \($0.about)" }.joined(separator: "\n")
    }

    static func doctor(_ result: JSONValue) -> String {
        DoctorReport(json: result).checks.map { check in
            let line = "\(check.ok ? "ok  " : "FAIL") \(check.name.padded(to: 13)) \(check.detail)"
            guard !check.ok, !check.fix.isEmpty else { return line }
            return line + "\n     \(String(repeating: " ", count: 13)) what to do: \(check.fix)"
        }.joined(separator: "\n")
    }

    static func megabytes(_ bytes: Double?) -> String {
        guard let bytes else { return "size unknown" }
        return "\(NumberText.oneDecimal(bytes / 1_000_000)) MB"
    }
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    func padded(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
