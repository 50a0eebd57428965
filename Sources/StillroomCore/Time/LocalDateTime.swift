/// A wall-clock reading — a civil date and a time of day — with no time zone attached.
///
/// What a clock on the wall shows: it names an instant only together with a UTC offset, and around a
/// daylight-saving change some readings name two instants (fall back) or none (spring forward); see
/// `TimeZoneRules.resolve(_:)`.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: CivilDate
    /// 0 ... 23.
    public let hour: Int
    /// 0 ... 59.
    public let minute: Int
    /// 0 ... 59 (leap seconds are not represented; POSIX time has none).
    public let second: Int

    /// Nil unless every field is in range and the date exists.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: second)
    }

    /// Nil unless the time of day is in range.
    public init?(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The reading `seconds` seconds after 1970-01-01T00:00:00 on the same wall clock.
    public init(secondsSinceLocalEpoch seconds: Int64) {
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        date = CivilDate(daysSinceEpoch: days)
        hour = Int(secondOfDay / 3600)
        minute = Int(secondOfDay % 3600 / 60)
        second = Int(secondOfDay % 60)
    }

    /// The reading at `unixSeconds` on a clock `utcOffset` seconds ahead of UTC.
    public init(unixSeconds: Int64, utcOffset: Int32) {
        self.init(secondsSinceLocalEpoch: unixSeconds.addingSaturating(Int64(utcOffset)))
    }

    /// Seconds from 1970-01-01T00:00:00 to this reading on the same wall clock: the instant it would
    /// name if the clock showed UTC.
    public var secondsSinceLocalEpoch: Int64 {
        date.daysSinceEpoch * 86_400 + Int64(secondsIntoDay)
    }

    /// Seconds since midnight: 0 ... 86399.
    public var secondsIntoDay: Int { hour * 3600 + minute * 60 + second }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.date, a.secondsIntoDay) < (b.date, b.secondsIntoDay)
    }

    /// ISO 8601 without an offset: "2024-03-31T02:30:00".
    public var description: String {
        "\(date)T\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))"
    }

    /// ISO 8601 with the offset: "2024-03-31T03:30:00+02:00" ("Z" is not used: the offset is the point).
    public func description(utcOffset: Int32) -> String {
        "\(self)\(Self.offsetText(utcOffset))"
    }

    /// "+02:00", "-03:30", "+05:45"; seconds are shown only when there are any ("+00:19:32").
    public static func offsetText(_ offset: Int32) -> String {
        let magnitude = Int(offset.magnitude)
        let sign = offset < 0 ? "-" : "+"
        let seconds = magnitude % 60
        let base = "\(sign)\(twoDigits(magnitude / 3600)):\(twoDigits(magnitude % 3600 / 60))"
        return seconds == 0 ? base : "\(base):\(twoDigits(seconds))"
    }
}

extension Int64 {
    /// `self + other`, pinned at the ends of the range instead of trapping.
    @inline(__always)
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
