// The practice history screens and the CLI show, computed from stored runs: pure functions of the
// runs, the time zone, the day boundary and a trusted `now`. Minutes are always listening time
// (`actualListeningSeconds`): what the device really played, never coverage or the recording's length.

/// Practice history queries over `runs` (as the store returns them; any order).
public struct PracticeHistory: Sendable {
    /// Every stored run, and the open one if it is worth showing.
    public let runs: [PracticeRunRecord]
    public let calendar: PracticeCalendar
    /// The wall time when the clock is synchronised; nil when it is not. Without it there is no
    /// "today": no streak, no "this month", and no run can be told to be in the future.
    public let now: UnixMilliseconds?
    /// The practice day of `now`.
    public let today: CivilDate?

    /// Cheap: the queries do the work, so build one per screen refresh.
    public init(runs: [PracticeRunRecord], calendar: PracticeCalendar, now: UnixMilliseconds?) {
        self.runs = runs
        self.calendar = calendar
        self.now = now
        today = now.map { calendar.practiceDay(at: $0) }
    }

    /// Where `run` sits in time (see `PracticeRunDating`).
    public func dating(of run: PracticeRunRecord) -> PracticeRunDating {
        guard run.clockTrusted else { return .unknown }
        if let now, let today, run.startedAt > now { return .clampedToToday(day: today) }
        let seconds = PracticeCalendar.seconds(run.startedAt)
        let offset = calendar.timeZone.utcOffset(at: seconds)
        let localStart = LocalDateTime(unixSeconds: seconds, utcOffset: offset)
        let local = localStart.secondsSinceLocalEpoch - Int64(calendar.dayBoundary.secondsAfterMidnight)
        return .dated(day: CivilDate(daysSinceEpoch: floorDivision(local, 86_400).quotient), localStart: localStart, utcOffset: offset)
    }

    /// The practice day `run` counts for; nil when its date is unknown. Cheaper than `dating(of:)`.
    public func practiceDay(of run: PracticeRunRecord) -> CivilDate? {
        guard run.clockTrusted else { return nil }
        if let now, let today, run.startedAt > now { return today }
        return calendar.practiceDay(at: run.startedAt)
    }

    // MARK: The calendar page

    /// Minutes heard on each practice day of `month`.
    public func month(_ month: CivilMonth) -> PracticeMonth {
        var days = (1...month.numberOfDays).map { PracticeDaySummary(day: CivilDate(validYear: month.year, month: month.month, day: $0)) }
        let window = candidateWindow(month)
        for run in runs where run.clockTrusted {
            let day: CivilDate
            if let now, let today, run.startedAt > now {
                day = today
            } else {
                guard window.contains(run.startedAt) else { continue }
                day = calendar.practiceDay(at: run.startedAt)
            }
            guard month.contains(day) else { continue }
            days[day.day - 1].add(run)
        }
        return PracticeMonth(month: month, days: days)
    }

    /// Start times that can belong to `month`: its dates widened by the boundary and the largest
    /// possible UTC offset (26 h) on either side, so only these runs need a time-zone lookup.
    private func candidateWindow(_ month: CivilMonth) -> ClosedRange<UnixMilliseconds> {
        let margin: Int64 = 27 * 3600
        let boundary = Int64(calendar.dayBoundary.secondsAfterMidnight)
        let first = month.firstDay.daysSinceEpoch * 86_400 + boundary - margin
        let end = month.next.firstDay.daysSinceEpoch * 86_400 + boundary + margin
        let upper = Self.milliseconds(end)
        return Self.milliseconds(first)...(upper == .max ? .max : upper - 1)
    }

    /// Seconds to milliseconds, pinned at the ends of the range (months hundreds of millions of years out).
    private static func milliseconds(_ seconds: Int64) -> UnixMilliseconds {
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (seconds < 0 ? .min : .max) : product
    }

    // MARK: Totals

    /// All-time totals (every run, dated or not), this month's (dated runs only), and how many runs
    /// have no known date.
    public func totals() -> PracticeTotals {
        var allTime = PracticeAmount()
        var thisMonth = PracticeAmount()
        var undated = 0
        let currentMonth = today?.civilMonth
        let window = currentMonth.map(candidateWindow)
        for run in runs {
            allTime.add(run)
            guard run.clockTrusted else {
                undated += 1
                continue
            }
            guard let currentMonth, let window, let now, let today else { continue }
            if run.startedAt > now {
                if currentMonth.contains(today) { thisMonth.add(run) }
            } else if window.contains(run.startedAt), currentMonth.contains(calendar.practiceDay(at: run.startedAt)) {
                thisMonth.add(run)
            }
        }
        return PracticeTotals(allTime: allTime, thisMonth: currentMonth == nil ? nil : thisMonth, undatedRunCount: undated)
    }

    // MARK: Recent sessions

    /// The `limit` most recent runs, newest first. "Recent" is by the store's id (insertion order),
    /// not by start time: an id never lies, a clock can. Runs not yet stored (no id) come first.
    public func recentSessions(limit: Int = 20) -> [RecentSession] {
        guard limit > 0 else { return [] }
        // Keep the best `limit` (key, index) pairs, newest first. The store hands runs out oldest
        // first, so walking backwards meets the newest early and most runs fail the first comparison.
        var best: [(key: RecencyKey, index: Int)] = []
        best.reserveCapacity(limit + 1)
        for index in runs.indices.reversed() {
            let key = RecencyKey(runs[index])
            if best.count == limit, let last = best.last, !(key > last.key) { continue }
            var position = best.count
            while position > 0 && key > best[position - 1].key { position -= 1 }
            best.insert((key, index), at: position)
            if best.count > limit { best.removeLast() }
        }
        return best.map { entry in
            let run = runs[entry.index]
            return RecentSession(runID: run.id, sessionID: run.sessionID, dating: dating(of: run),
                                 listeningSeconds: run.actualListeningSeconds, completed: run.completedAt != nil, title: run.title)
        }
    }

    /// Orders runs by recency: unsaved runs (no id) first, then by id, then by start time.
    private struct RecencyKey: Comparable {
        let unsaved: Bool
        let id: Int64
        let startedAt: Int64

        init(_ run: PracticeRunRecord) {
            unsaved = run.id == nil
            id = run.id ?? 0
            startedAt = run.startedAt
        }

        static func < (a: RecencyKey, b: RecencyKey) -> Bool {
            if a.unsaved != b.unsaved { return b.unsaved }
            return (a.id, a.startedAt) < (b.id, b.startedAt)
        }
    }

    // MARK: Streak

    /// Consecutive practice days up to today (or up to yesterday, while today is still open); nil
    /// without a trusted `now`. Whether to show it is the owner's choice, and nothing here scolds.
    public func streak() -> PracticeStreak? {
        guard let today else { return nil }
        // A streak cannot be longer than the number of runs, so only the days from
        // `today - runs.count` to today matter: one flag each, no hashing.
        let todayNumber = today.daysSinceEpoch
        let span = runs.count + 1
        let earliest = todayNumber - Int64(span) + 1
        var practised = [Bool](repeating: false, count: span)
        let boundary = Int64(calendar.dayBoundary.secondsAfterMidnight)
        for run in runs where run.clockTrusted {
            let dayNumber: Int64
            if let now, run.startedAt > now {
                dayNumber = todayNumber
            } else {
                let seconds = PracticeCalendar.seconds(run.startedAt)
                let local = seconds.addingSaturating(Int64(calendar.timeZone.utcOffset(at: seconds)))
                dayNumber = floorDivision(local - boundary, 86_400).quotient
            }
            if dayNumber >= earliest && dayNumber <= todayNumber { practised[Int(dayNumber - earliest)] = true }
        }
        let todayIndex = span - 1
        let lastIndex: Int
        if practised[todayIndex] {
            lastIndex = todayIndex
        } else if todayIndex > 0 && practised[todayIndex - 1] {
            lastIndex = todayIndex - 1
        } else {
            return PracticeStreak(days: 0, lastDay: nil, includesToday: false)
        }
        var first = lastIndex
        while first > 0 && practised[first - 1] { first -= 1 }
        return PracticeStreak(days: lastIndex - first + 1, lastDay: today.adding(days: lastIndex - todayIndex),
                              includesToday: lastIndex == todayIndex)
    }
}
