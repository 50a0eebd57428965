import StillroomCore

/// Practice history as the protocol carries it: one builder, used by the daemon (and by the CLI reading
/// the database itself when the daemon is down), so both answers have the same shape.
public enum HistoryReport {
    /// The month's calendar (minutes per practice day), totals and the streak (unless hidden).
    /// `silent` holds the breathing-timer runs, reported apart from listening.
    public static func month(_ history: PracticeHistory, _ month: CivilMonth, showStreak: Bool,
                             silent: PracticeHistory? = nil) -> JSONValue {
        let page = history.month(month)
        let totals = history.totals()
        var result: [String: JSONValue] = [
            "month": .string(month.description),
            "days": .array(page.days.map { day in
                .object(["day": .string(day.day.description), "minutes": .number(Double(day.amount.wholeMinutes)),
                         "runs": .number(Double(day.amount.runCount)), "completed": .number(Double(day.amount.completedRunCount))])
            }),
            "monthMinutes": .number(Double(page.amount.wholeMinutes)),
            "practisedDays": .number(Double(page.practisedDayCount)),
            "totalMinutes": .number(Double(totals.allTime.wholeMinutes)),
            "totalRuns": .number(Double(totals.allTime.runCount)),
            "completedRuns": .number(Double(totals.allTime.completedRunCount)),
            "undatedRuns": .number(Double(totals.undatedRunCount)),
            "today": history.today.map { .string($0.description) } ?? .null,
        ]
        if let silent {
            result["silentMonthMinutes"] = .number(Double(silent.month(month).amount.wholeMinutes))
            result["silentTotalMinutes"] = .number(Double(silent.totals().allTime.wholeMinutes))
        }
        if showStreak, let streak = history.streak() {
            result["streak"] = .object(["days": .number(Double(streak.days)), "includesToday": .bool(streak.includesToday)])
        } else {
            result["streak"] = .null
        }
        return .object(result)
    }

    /// The most recent runs, newest first, with titles from `titles` (session id → title).
    public static func recent(_ history: PracticeHistory, titles: [String: String], limit: Int = 20) -> JSONValue {
        .object(["recent": .array(history.recentSessions(limit: limit).map { run in
            var fields: [String: JSONValue] = [
                "run": run.runID.map { .number(Double($0)) } ?? .null,
                "session": .string(run.sessionID),
                // Today's title when the session is still known, else the one it was heard under.
                "title": .string(titles[run.sessionID] ?? run.title ?? run.sessionID),
                "minutes": .number(Double(run.wholeMinutes)),
                "seconds": .number((run.listeningSeconds * 10).rounded() / 10),
                "completed": .bool(run.completed),
                "day": run.practiceDay.map { .string($0.description) } ?? .null,
            ]
            if let start = run.localStart { fields["start"] = .string(start.description) }
            return .object(fields)
        })])
    }

    /// "2026-11" into a month; nil for anything else, and for years no practice can have (the box counts
    /// time from 1970: "0000-01" is a slip, not a month with history).
    public static func parseMonth(_ text: String) -> CivilMonth? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), monthYears.contains(year) else {
            return nil
        }
        return CivilMonth(year: year, month: month)
    }

    /// The years `parseMonth` accepts.
    public static let monthYears = 1970...9999

    /// What `--month` takes, for messages.
    public static let monthRangeText = "(a year from 1970, a month from 01 to 12)"
}
