/// Which practice day an instant belongs to, in the box's time zone.
///
/// A practice day is the local date after moving the wall clock back by the day boundary: with the
/// standard 04:00, a run that starts at 01:30 on Tuesday counts for Monday. The wall clock is read
/// through the zone's rules, so DST changes are honoured; only a boundary that itself falls inside a
/// repeated (fall-back) hour can see the repeated part count for the previous day, as its clock says.
public struct PracticeCalendar: Sendable {
    public let timeZone: TimeZoneRules
    public let dayBoundary: PracticeDayBoundary

    /// `timeZone` from the box's zone file (or `.utc`), `dayBoundary` from settings.
    public init(timeZone: TimeZoneRules, dayBoundary: PracticeDayBoundary = .standard) {
        self.timeZone = timeZone
        self.dayBoundary = dayBoundary
    }

    /// The practice day of the instant `milliseconds`.
    public func practiceDay(at milliseconds: UnixMilliseconds) -> CivilDate {
        let seconds = Self.seconds(milliseconds)
        let local = seconds.addingSaturating(Int64(timeZone.utcOffset(at: seconds)))
        return CivilDate(daysSinceEpoch: floorDivision(local - Int64(dayBoundary.secondsAfterMidnight), 86_400).quotient)
    }

    /// The wall-clock reading at `milliseconds` (to the second).
    public func localDateTime(at milliseconds: UnixMilliseconds) -> LocalDateTime {
        timeZone.localDateTime(at: Self.seconds(milliseconds))
    }

    /// The UTC offset at `milliseconds`.
    public func utcOffset(at milliseconds: UnixMilliseconds) -> Int32 {
        timeZone.utcOffset(at: Self.seconds(milliseconds))
    }

    /// Whole seconds, rounded down (so -1 ms is still the second before the epoch).
    static func seconds(_ milliseconds: UnixMilliseconds) -> Int64 {
        floorDivision(milliseconds, 1000).quotient
    }
}
