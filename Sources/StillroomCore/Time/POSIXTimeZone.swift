// A POSIX TZ string, as the footer of a TZif file carries it: the rule for instants after the file's
// last transition, which keeps a zone file correct for centuries without listing every change.
//
//   std offset [dst [offset] [,start[/time],end[/time]]]      e.g. "CET-1CEST,M3.5.0,M10.5.0/3"
//
// Offsets are POSIX's, positive west of Greenwich ("CET-1" is UTC+1); this type stores them the usual
// way round (`utcOffset` +3600). Start times are read on the standard clock, end times on the DST clock.

/// A parsed POSIX TZ string (POSIX.1-2017 §8.3 with the RFC 8536 §3.3.1 extensions: rule times from
/// -167 to 167 hours, and DST all year when it starts Jan 1 00:00 and ends Dec 31 24:00 plus the DST shift).
public struct POSIXTimeZone: Hashable, Sendable, CustomStringConvertible {
    /// The day of the year a DST change happens.
    public enum DateRule: Hashable, Sendable {
        /// `Jn`: day `n` (1...365) of the year, February 29 never counted: J60 is March 1 every year.
        case julianIgnoringLeapDay(Int)
        /// `n`: zero-based day of the year (0...365), February 29 counted in leap years.
        case zeroBasedDayOfYear(Int)
        /// `Mm.w.d`: weekday `d` of week `w` (1...5; 5 means the last such weekday) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Weekday)

        /// The date this rule picks in `year`, as days since 1970-01-01.
        public func daysSinceEpoch(inYear year: Int) -> Int64 {
            switch self {
            case .julianIgnoringLeapDay(let n):
                let skipsLeapDay = CivilDate.isLeapYear(year) && n >= 60
                return CivilDate.daysSinceEpoch(year: year, month: 1, day: n + (skipsLeapDay ? 1 : 0))
            case .zeroBasedDayOfYear(let n):
                return CivilDate.daysSinceEpoch(year: year, month: 1, day: n + 1)
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate.daysSinceEpoch(year: year, month: month, day: 1)
                let firstWeekday = CivilDate.weekday(daysSinceEpoch: first).rawValue
                var day = 1 + (weekday.rawValue - firstWeekday + 7) % 7 + 7 * (week - 1)
                let length = CivilDate.daysInMonth(month, year: year)
                while day > length { day -= 7 }
                return first + Int64(day - 1)
            }
        }
    }

    /// When DST starts or ends: a day and a local time (which may be negative or past 24 h).
    public struct ChangeRule: Hashable, Sendable {
        public let date: DateRule
        /// Seconds after local midnight of that day; -167 h ... +167 h. POSIX's default is 02:00.
        public let secondsAfterMidnight: Int32

        public init(date: DateRule, secondsAfterMidnight: Int32 = 7200) {
            self.date = date
            self.secondsAfterMidnight = secondsAfterMidnight
        }
    }

    /// The daylight-saving part of the string.
    public struct DaylightSaving: Hashable, Sendable {
        public let type: LocalTimeType
        /// Read on the standard-time clock.
        public let start: ChangeRule
        /// Read on the daylight-saving clock.
        public let end: ChangeRule

        public init(type: LocalTimeType, start: ChangeRule, end: ChangeRule) {
            self.type = type
            self.start = start
            self.end = end
        }
    }

    /// The string as given.
    public let text: String
    public let standard: LocalTimeType
    /// Nil for a zone without daylight saving ("UTC0", "<+0530>-5:30").
    public let daylightSaving: DaylightSaving?

    /// For tests and callers that build rules directly; `text` is kept for descriptions only.
    public init(text: String, standard: LocalTimeType, daylightSaving: DaylightSaving?) {
        self.text = text
        self.standard = standard
        self.daylightSaving = daylightSaving
    }

    public var description: String { text }

    // MARK: Evaluation

    /// The local time type in effect at `unixSeconds`.
    public func localTimeType(at unixSeconds: Int64) -> LocalTimeType {
        guard let daylightSaving else { return standard }
        return isDaylightSaving(at: unixSeconds) ? daylightSaving.type : standard
    }

    /// Seconds to add to UTC for local time at `unixSeconds`.
    public func utcOffset(at unixSeconds: Int64) -> Int32 {
        guard let daylightSaving else { return standard.utcOffset }
        return isDaylightSaving(at: unixSeconds) ? daylightSaving.type.utcOffset : standard.utcOffset
    }

    /// Whether DST is in effect at `unixSeconds`: the latest change at or before it was a start.
    public func isDaylightSaving(at unixSeconds: Int64) -> Bool {
        guard daylightSaving != nil else { return false }
        let instant = Self.withinSafeRange(unixSeconds).instant
        let year = yearOnStandardClock(instant)
        if let latest = latestChange(atOrBefore: instant, years: (year - 1)...(year + 1)) { return latest.startsDST }
        // Rule times up to a week past the year's end can push a whole year's changes later still.
        return latestChange(atOrBefore: instant, years: (year - 3)...(year - 2))?.startsDST ?? false
    }

    /// The UTC instants at which DST starts and ends in `year` (either may come first: southern zones
    /// end DST early in the year); nil for a zone without DST.
    public func daylightSavingChanges(inYear year: Int) -> (start: Int64, end: Int64)? {
        guard let daylightSaving else { return nil }
        return (changeInstant(daylightSaving.start, year: year, clockOffset: standard.utcOffset),
                changeInstant(daylightSaving.end, year: year, clockOffset: daylightSaving.type.utcOffset))
    }

    /// The first instant after `unixSeconds` at which the UTC offset or the DST flag changes; nil when
    /// nothing ever changes (no DST, or DST all year).
    public func nextChange(after unixSeconds: Int64) -> Int64? {
        guard daylightSaving != nil else { return nil }
        let (instant, shift) = Self.withinSafeRange(unixSeconds)
        let before = isDaylightSaving(at: instant)
        let year = yearOnStandardClock(instant)
        var candidates: [Int64] = []
        for candidateYear in (year - 1)...(year + 2) {
            guard let changes = daylightSavingChanges(inYear: candidateYear) else { continue }
            candidates += [changes.start, changes.end]
        }
        for candidate in candidates.sorted() where candidate > instant && isDaylightSaving(at: candidate) != before {
            let (result, overflow) = candidate.addingReportingOverflow(shift)
            return overflow ? nil : result
        }
        return nil
    }

    // MARK: Internals

    private func yearOnStandardClock(_ instant: Int64) -> Int {
        CivilDate(daysSinceEpoch: floorDivision(instant + Int64(standard.utcOffset), 86_400).quotient).year
    }

    private func changeInstant(_ rule: ChangeRule, year: Int, clockOffset: Int32) -> Int64 {
        rule.date.daysSinceEpoch(inYear: year) * 86_400 + Int64(rule.secondsAfterMidnight) - Int64(clockOffset)
    }

    /// The last DST change at or before `instant` among those of `years`. At equal instants a start
    /// wins over an end: that is what makes "DST all year" (RFC 8536 §3.3.1) seamless at New Year.
    private func latestChange(atOrBefore instant: Int64, years: ClosedRange<Int>) -> (at: Int64, startsDST: Bool)? {
        var latest: (at: Int64, startsDST: Bool)?
        for year in years {
            guard let changes = daylightSavingChanges(inYear: year) else { return nil }
            for (at, startsDST) in [(changes.end, false), (changes.start, true)] where at <= instant {
                if let current = latest, at < current.at || (at == current.at && !startsDST) { continue }
                latest = (at, startsDST)
            }
        }
        return latest
    }

    /// The Gregorian calendar, and so any POSIX rule, repeats every 400 years (146 097 days, a whole
    /// number of weeks). Instants far out are moved by whole periods into a range where the date
    /// arithmetic cannot overflow; `shift` moves an answer back.
    private static let period: Int64 = 146_097 * 86_400
    private static let safeLimit: Int64 = 1 << 40

    private static func withinSafeRange(_ instant: Int64) -> (instant: Int64, shift: Int64) {
        guard instant > safeLimit || instant < -safeLimit else { return (instant, 0) }
        let (quotient, remainder) = floorDivision(instant, period)
        return (remainder, quotient * period)
    }
}
