// Civil (proleptic Gregorian) date arithmetic without Foundation's Calendar, which needs ICU on Linux.
//
// Days are counted from 1970-01-01. The conversions work on 400-year eras: the Gregorian calendar
// repeats exactly every 146 097 days, so a date splits into an era and a day within it, and the
// day within an era maps to a year, month and day with plain integer arithmetic (March-based years
// put the leap day last, where it cannot shift the other months).

/// A day of the week. Raw values follow POSIX `tm_wday` and TZ rules (`Mm.w.d`): Sunday is 0.
public enum Weekday: Int, CaseIterable, Sendable, Hashable, Comparable {
    case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday

    public static func < (a: Weekday, b: Weekday) -> Bool { a.rawValue < b.rawValue }
}

/// A date on the proleptic Gregorian calendar, with no time zone attached.
///
/// Practice days are civil dates: the date a run "belongs to" after the day boundary is applied.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Astronomical numbering: 0 is 1 BC.
    public let year: Int
    /// 1 ... 12.
    public let month: Int
    /// 1 ... the length of the month.
    public let day: Int

    /// Years accepted from callers: far beyond any calendar in use, and far enough from Int64's ends
    /// that day, second and millisecond arithmetic on them cannot overflow.
    public static let yearRange = -100_000_000...100_000_000

    /// Nil unless `year` is within `yearRange`, `month` is 1...12 and `day` exists in that month.
    public init?(year: Int, month: Int, day: Int) {
        guard Self.yearRange.contains(year), (1...12).contains(month), day >= 1, day <= Self.daysInMonth(month, year: year) else {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// For dates known to exist (computed, not taken from a caller).
    init(validYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative: before it).
    public init(daysSinceEpoch days: Int64) {
        // Shift the origin to 0000-03-01, the start of an era.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097                                   // 0 ... 146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365 // 0 ... 399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100) // 0 ... 365, from March 1
        let monthIndex = (5 * dayOfYear + 2) / 153                               // 0 = March ... 11 = February
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// Days from 1970-01-01 to this date (negative before it).
    public var daysSinceEpoch: Int64 {
        Self.daysSinceEpoch(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to a year, month and day; `day` may run past the month's end (or below 1),
    /// which counts on into the following (or previous) days. `month` must be 1...12.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let marchYear = Int64(month <= 2 ? year - 1 : year)
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400                                    // 0 ... 399
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)            // 0 ... 11
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the week (1970-01-01 was a Thursday).
    public var weekday: Weekday { Self.weekday(daysSinceEpoch: daysSinceEpoch) }

    static func weekday(daysSinceEpoch days: Int64) -> Weekday {
        let index = (days % 7 + 7 + 4) % 7
        return Weekday(rawValue: Int(index))!
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + Int64(count))
    }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: CivilDate) -> Int64 { other.daysSinceEpoch - daysSinceEpoch }

    /// The month this date falls in.
    public var civilMonth: CivilMonth { CivilMonth(validYear: year, month: month) }

    /// Gregorian: every fourth year, except centuries not divisible by 400.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// 28 ... 31; 0 for a month outside 1...12.
    public static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: 31
        case 4, 6, 9, 11: 30
        case 2: isLeapYear(year) ? 29 : 28
        default: 0
        }
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// ISO 8601: "2024-03-31" (years outside 0...9999 keep their sign and digits).
    public var description: String {
        "\(Self.yearText(year))-\(twoDigits(month))-\(twoDigits(day))"
    }

    static func yearText(_ year: Int) -> String {
        if (0...9999).contains(year) {
            let digits = String(year)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
        return String(year)
    }
}

func twoDigits(_ value: Int) -> String { value < 10 && value >= 0 ? "0\(value)" : String(value) }

/// Floor division and the matching non-negative remainder (Swift's `/` and `%` truncate toward zero).
@inline(__always)
func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let quotient = value / divisor
    let remainder = value % divisor
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
}
