import StillroomCore

/// The `history` month answer: the calendar (minutes per practice day), the month's and all-time totals,
/// the streak (null when hidden or none), and the breathing timer's silent minutes apart (the daemon only:
/// the CLI alone leaves them out).
///
///     {"month": "2026-11", "days": [{"day": "2026-11-03", "minutes": 12, "runs": 2, "completed": 1}, …],
///      "monthMinutes": 40, "practisedDays": 4, "totalMinutes": 300, "totalRuns": 31, "completedRuns": 20,
///      "undatedRuns": 0, "today": "2026-11-05", "streak": {"days": 3, "includesToday": true},
///      "silentMonthMinutes": 5, "silentTotalMinutes": 12}
public struct HistoryMonthReport: Equatable, Sendable {
    public struct Day: Equatable, Sendable {
        public var day: String
        public var minutes: Int
        public var runs: Int
        public var completed: Int
    }

    public struct Streak: Equatable, Sendable {
        public var days: Int
        public var includesToday: Bool
    }

    public var month: String
    public var days: [Day]
    public var monthMinutes: Int
    public var practisedDays: Int
    public var totalMinutes: Int
    public var totalRuns: Int
    public var completedRuns: Int
    public var undatedRuns: Int
    public var today: String?
    public var streak: Streak?
    public var silentMonthMinutes: Int?
    public var silentTotalMinutes: Int?

    /// `silent` holds the breathing-timer runs, reported apart from listening.
    public init(_ history: PracticeHistory, _ month: CivilMonth, showStreak: Bool, silent: PracticeHistory? = nil) {
        let page = history.month(month)
        let totals = history.totals()
        self.month = month.description
        days = page.days.map {
            Day(day: $0.day.description, minutes: $0.amount.wholeMinutes, runs: $0.amount.runCount, completed: $0.amount.completedRunCount)
        }
        monthMinutes = page.amount.wholeMinutes
        practisedDays = page.practisedDayCount
        totalMinutes = totals.allTime.wholeMinutes
        totalRuns = totals.allTime.runCount
        completedRuns = totals.allTime.completedRunCount
        undatedRuns = totals.undatedRunCount
        today = history.today?.description
        streak = showStreak ? history.streak().map { Streak(days: $0.days, includesToday: $0.includesToday) } : nil
        silentMonthMinutes = silent?.month(month).amount.wholeMinutes
        silentTotalMinutes = silent?.totals().allTime.wholeMinutes
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "month": .string(month),
            "days": .array(days.map { .object(["day": .string($0.day), "minutes": number($0.minutes), "runs": number($0.runs),
                                               "completed": number($0.completed)]) }),
            "monthMinutes": number(monthMinutes), "practisedDays": number(practisedDays), "totalMinutes": number(totalMinutes),
            "totalRuns": number(totalRuns), "completedRuns": number(completedRuns), "undatedRuns": number(undatedRuns),
            "today": today.map { .string($0) } ?? .null,
            "streak": streak.map { .object(["days": number($0.days), "includesToday": .bool($0.includesToday)]) } ?? .null,
        ]
        if let silentMonthMinutes { fields["silentMonthMinutes"] = number(silentMonthMinutes) }
        if let silentTotalMinutes { fields["silentTotalMinutes"] = number(silentTotalMinutes) }
        return .object(fields)
    }

    public init(json: JSONValue) {
        let whole = { (key: String) in json[key]?.integerValue ?? 0 }
        month = json["month"]?.stringValue ?? "?"
        days = (json["days"]?.arrayValue ?? []).map { day in
            Day(day: day["day"]?.stringValue ?? "", minutes: day["minutes"]?.integerValue ?? 0, runs: day["runs"]?.integerValue ?? 0,
                completed: day["completed"]?.integerValue ?? 0)
        }
        monthMinutes = whole("monthMinutes")
        practisedDays = whole("practisedDays")
        totalMinutes = whole("totalMinutes")
        totalRuns = whole("totalRuns")
        completedRuns = whole("completedRuns")
        undatedRuns = whole("undatedRuns")
        today = json["today"]?.stringValue
        streak = json["streak"].flatMap { streak in
            streak["days"]?.integerValue.map { Streak(days: $0, includesToday: streak["includesToday"]?.boolValue ?? false) }
        }
        silentMonthMinutes = json["silentMonthMinutes"]?.integerValue
        silentTotalMinutes = json["silentTotalMinutes"]?.integerValue
    }
}

private func number(_ value: Int) -> JSONValue { .number(Double(value)) }
