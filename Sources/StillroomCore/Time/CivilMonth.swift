/// A month of a year: the unit of the practice calendar's page.
public struct CivilMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    /// 1 ... 12.
    public let month: Int

    /// Nil unless `month` is 1...12 and `year` is within `CivilDate.yearRange`.
    public init?(year: Int, month: Int) {
        guard CivilDate.yearRange.contains(year), (1...12).contains(month) else { return nil }
        self.init(validYear: year, month: month)
    }

    init(validYear year: Int, month: Int) {
        self.year = year
        self.month = month
    }

    public var firstDay: CivilDate { CivilDate(validYear: year, month: month, day: 1) }
    public var lastDay: CivilDate { CivilDate(validYear: year, month: month, day: numberOfDays) }
    /// 28 ... 31.
    public var numberOfDays: Int { CivilDate.daysInMonth(month, year: year) }

    /// The month after this one.
    public var next: CivilMonth {
        month == 12 ? CivilMonth(validYear: year + 1, month: 1) : CivilMonth(validYear: year, month: month + 1)
    }

    /// The month before this one.
    public var previous: CivilMonth {
        month == 1 ? CivilMonth(validYear: year - 1, month: 12) : CivilMonth(validYear: year, month: month - 1)
    }

    public func contains(_ date: CivilDate) -> Bool { date.year == year && date.month == month }

    public static func < (a: CivilMonth, b: CivilMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }

    /// "2024-03".
    public var description: String { "\(CivilDate.yearText(year))-\(twoDigits(month))" }
}
