// What the history queries return: plain values for the screens, the CLI and the control protocol.

/// Where a run sits in time, as far as anyone can honestly say.
public enum PracticeRunDating: Hashable, Sendable {
    /// On the calendar: its practice day and the local reading when it started.
    case dated(day: CivilDate, localStart: LocalDateTime, utcOffset: Int32)
    /// It claims to start after `now`: the clock has been set back since. It is shown on today's
    /// practice day, never in the future; its own start time is not shown.
    case clampedToToday(day: CivilDate)
    /// Recorded before the clock was synchronised and never re-dated: "date unknown". It counts in
    /// all-time totals only; it never lands on the calendar (or in 1970).
    case unknown

    /// The practice day it counts for; nil when the date is unknown.
    public var practiceDay: CivilDate? {
        switch self {
        case .dated(let day, _, _), .clampedToToday(let day): day
        case .unknown: nil
        }
    }
}

/// Listening on one practice day.
public struct PracticeDaySummary: Hashable, Sendable {
    public let day: CivilDate
    public private(set) var amount = PracticeAmount()

    public init(day: CivilDate) { self.day = day }

    /// Whether any run counts for this day (even one shorter than a minute).
    public var practised: Bool { amount.runCount > 0 }

    mutating func add(_ run: PracticeRunRecord) { amount.add(run) }
}

/// One calendar page: a summary per day of the month, in order.
public struct PracticeMonth: Hashable, Sendable {
    public let month: CivilMonth
    /// `days[0]` is the 1st.
    public let days: [PracticeDaySummary]

    /// The month's total.
    public var amount: PracticeAmount {
        days.reduce(into: PracticeAmount()) { $0.combine($1.amount) }
    }

    /// How many days of the month have practice.
    public var practisedDayCount: Int { days.count(where: \.practised) }
}

/// Listening time and runs, summed.
public struct PracticeAmount: Hashable, Sendable {
    /// Seconds the device really played (the sum of `actualListeningSeconds`).
    public private(set) var listeningSeconds: Double = 0
    public private(set) var runCount = 0
    /// Runs that reached the completion threshold.
    public private(set) var completedRunCount = 0

    public init() {}

    /// Minutes heard, rounded down: the history never claims a minute that was not heard.
    public var wholeMinutes: Int { Int((listeningSeconds / 60).rounded(.down)) }

    mutating func add(_ run: PracticeRunRecord) {
        listeningSeconds += max(0, run.actualListeningSeconds)
        runCount += 1
        if run.completedAt != nil { completedRunCount += 1 }
    }

    mutating func combine(_ other: PracticeAmount) {
        listeningSeconds += other.listeningSeconds
        runCount += other.runCount
        completedRunCount += other.completedRunCount
    }
}

/// The totals line of the history screen.
public struct PracticeTotals: Hashable, Sendable {
    /// Every run, including those with an unknown date.
    public let allTime: PracticeAmount
    /// Runs whose practice day is in the current month; nil without a trusted `now`.
    public let thisMonth: PracticeAmount?
    /// Runs recorded before the clock was synchronised ("date unknown"): in `allTime`, nowhere else.
    public let undatedRunCount: Int

    public init(allTime: PracticeAmount, thisMonth: PracticeAmount?, undatedRunCount: Int) {
        self.allTime = allTime
        self.thisMonth = thisMonth
        self.undatedRunCount = undatedRunCount
    }
}

/// One line of the recent-sessions list. The title is the caller's to look up from `sessionID`.
public struct RecentSession: Hashable, Sendable {
    public let runID: Int64?
    public let sessionID: String
    public let dating: PracticeRunDating
    /// Seconds the device really played during the run.
    public let listeningSeconds: Double
    /// Whether the run reached the completion threshold.
    public let completed: Bool
    /// The title the session had when it was heard (nil for runs saved before titles were kept).
    public let title: String?

    public init(runID: Int64?, sessionID: String, dating: PracticeRunDating, listeningSeconds: Double, completed: Bool,
                title: String? = nil) {
        self.title = title
        self.runID = runID
        self.sessionID = sessionID
        self.dating = dating
        self.listeningSeconds = listeningSeconds
        self.completed = completed
    }

    /// The practice day it counts for; nil for "date unknown".
    public var practiceDay: CivilDate? { dating.practiceDay }

    /// The local start time, when it is known and not in the future.
    public var localStart: LocalDateTime? {
        if case .dated(_, let localStart, _) = dating { return localStart }
        return nil
    }

    /// Minutes heard, rounded down.
    public var wholeMinutes: Int { Int((listeningSeconds / 60).rounded(.down)) }
}

/// Consecutive practice days.
public struct PracticeStreak: Hashable, Sendable {
    /// Days in a row with practice, ending today or yesterday; 0 when neither has any.
    public let days: Int
    /// The latest day of the streak; nil when `days` is 0.
    public let lastDay: CivilDate?
    /// False while the streak runs to yesterday and today is still open.
    public let includesToday: Bool

    public init(days: Int, lastDay: CivilDate?, includesToday: Bool) {
        self.days = days
        self.lastDay = lastDay
        self.includesToday = includesToday
    }
}
