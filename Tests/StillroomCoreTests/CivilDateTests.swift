import StillroomCore
import Testing

@Suite struct CivilDateTests {
    @Test func knownDatesAndWeekdays() {
        #expect(CivilDate(daysSinceEpoch: 0) == CivilDate(year: 1970, month: 1, day: 1))
        #expect(CivilDate(daysSinceEpoch: 0).weekday == .thursday)
        #expect(CivilDate(year: 2000, month: 2, day: 29)!.daysSinceEpoch == 11_016)
        #expect(CivilDate(year: 2024, month: 3, day: 31)!.weekday == .sunday)
        #expect(CivilDate(year: 1969, month: 12, day: 31)!.daysSinceEpoch == -1)
        #expect(CivilDate(year: 1969, month: 12, day: 31)!.weekday == .wednesday)
        #expect(CivilDate(year: 1600, month: 3, day: 1)!.daysSinceEpoch == -135_080)
        #expect(CivilDate(year: -1, month: 12, day: 31)!.adding(days: 1) == CivilDate(year: 0, month: 1, day: 1))
    }

    @Test func everyDayOfEightHundredYearsRoundTrips() {
        let start = CivilDate(year: 1800, month: 1, day: 1)!.daysSinceEpoch
        var expected = CivilDate(year: 1800, month: 1, day: 1)!
        var weekday = expected.weekday
        for days in start..<(start + 146_097 * 2) {
            let date = CivilDate(daysSinceEpoch: days)
            guard date == expected, date.daysSinceEpoch == days, date.weekday == weekday else {
                Issue.record("day \(days): \(date), expected \(expected)")
                return
            }
            let last = CivilDate.daysInMonth(expected.month, year: expected.year)
            expected = expected.day < last ? CivilDate(year: expected.year, month: expected.month, day: expected.day + 1)!
                : expected.month < 12 ? CivilDate(year: expected.year, month: expected.month + 1, day: 1)!
                : CivilDate(year: expected.year + 1, month: 1, day: 1)!
            weekday = Weekday(rawValue: (weekday.rawValue + 1) % 7)!
        }
    }

    @Test func invalidDatesAreRefused() {
        #expect(CivilDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 1900, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2024, month: 13, day: 1) == nil)
        #expect(CivilDate(year: 2024, month: 4, day: 31) == nil)
        #expect(CivilDate(year: 2024, month: 4, day: 0) == nil)
        #expect(LocalDateTime(year: 2024, month: 1, day: 1, hour: 24) == nil)
        #expect(LocalDateTime(year: 2024, month: 1, day: 1, second: 60) == nil)
        #expect(CivilDate(year: Int.max, month: 1, day: 1) == nil)
        #expect(CivilMonth(year: -200_000_000, month: 1) == nil)
        #expect(CivilDate(year: 100_000_000, month: 12, day: 31) != nil)
    }

    @Test func monthsStepAcrossYears() {
        let december = CivilMonth(year: 2024, month: 12)!
        #expect(december.next == CivilMonth(year: 2025, month: 1))
        #expect(december.next.previous == december)
        #expect(CivilMonth(year: 2024, month: 2)!.numberOfDays == 29)
        #expect(CivilMonth(year: 2024, month: 2)!.lastDay == CivilDate(year: 2024, month: 2, day: 29))
        #expect(december.description == "2024-12")
        #expect(CivilMonth(year: 2024, month: 0) == nil)
    }

    @Test func localReadingsPrintAndCountFromTheLocalEpoch() {
        let reading = LocalDateTime(year: 2024, month: 3, day: 31, hour: 2, minute: 30)!
        #expect(reading.description == "2024-03-31T02:30:00")
        #expect(reading.description(utcOffset: 7200) == "2024-03-31T02:30:00+02:00")
        #expect(LocalDateTime.offsetText(-12_600) == "-03:30")
        #expect(LocalDateTime.offsetText(1172) == "+00:19:32")
        #expect(LocalDateTime(secondsSinceLocalEpoch: reading.secondsSinceLocalEpoch) == reading)
        #expect(LocalDateTime(secondsSinceLocalEpoch: -1) == LocalDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(LocalDateTime(unixSeconds: .max, utcOffset: 3600).date.year > 292_000_000_000)
    }
}
