import StillroomCore
import Testing

// POSIX TZ strings on their own. Expected instants come from glibc (`TZ=... date`), except where the
// RFC 8536 extension "DST all year" is concerned, which glibc does not follow at New Year.

@Suite struct POSIXTimeZoneTests {
    func parse(_ text: String) throws -> POSIXTimeZone { try POSIXTimeZone(parsing: text) }

    @Test func centralEuropeanRulesParseIntoTheirParts() throws {
        let rule = try parse("CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(rule.standard == LocalTimeType(utcOffset: 3600, isDaylightSaving: false, abbreviation: "CET"))
        let dst = try #require(rule.daylightSaving)
        #expect(dst.type == LocalTimeType(utcOffset: 7200, isDaylightSaving: true, abbreviation: "CEST"))
        #expect(dst.start == .init(date: .monthWeekDay(month: 3, week: 5, weekday: .sunday), secondsAfterMidnight: 7200))
        #expect(dst.end == .init(date: .monthWeekDay(month: 10, week: 5, weekday: .sunday), secondsAfterMidnight: 10_800))
        let changes = try #require(rule.daylightSavingChanges(inYear: 2024))
        #expect(changes.start == 1_711_846_800)
        #expect(changes.end == 1_729_990_800)
    }

    @Test func quotedNamesAndHalfHourOffsetsWithoutDST() throws {
        let tehran = try parse("<+0330>-3:30")
        #expect(tehran.standard == LocalTimeType(utcOffset: 12_600, isDaylightSaving: false, abbreviation: "+0330"))
        #expect(tehran.daylightSaving == nil)
        #expect(tehran.utcOffset(at: 1_711_846_800) == 12_600)
        #expect(tehran.nextChange(after: 0) == nil)
        let nepal = try parse("<+0545>-5:45")
        #expect(nepal.utcOffset(at: 0) == 20_700)
        let west = try parse("<-01>+1")
        #expect(west.utcOffset(at: 0) == -3600)
        let seconds = try parse("LMT-0:19:32")
        #expect(seconds.utcOffset(at: 0) == 1172)
    }

    @Test func daylightSavingWithoutRulesUsesTheUSDefaultAndAnHourAhead() throws {
        let rule = try parse("EST5EDT")
        #expect(rule.standard.utcOffset == -18_000)
        #expect(rule.daylightSaving?.type.utcOffset == -14_400)
        #expect(rule.utcOffset(at: 1_710_053_999) == -18_000) // 2024-03-10 01:59:59 EST
        #expect(rule.utcOffset(at: 1_710_054_000) == -14_400) // 03:00 EDT
        #expect(rule.utcOffset(at: 1_730_613_600) == -18_000) // 2024-11-03 01:00 EST
        let explicit = try parse("AAA3BBB2,M3.2.0,M11.1.0")
        #expect(explicit.daylightSaving?.type.utcOffset == -7200)
    }

    @Test func southernHemisphereDSTSpansNewYear() throws {
        let lordHowe = try parse("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(lordHowe.isDaylightSaving(at: 1_704_067_200)) // 2024-01-01Z: summer
        #expect(!lordHowe.isDaylightSaving(at: 1_719_792_000)) // 2024-07-01Z: winter
        #expect(lordHowe.utcOffset(at: 1_712_415_599) == 39_600)
        #expect(lordHowe.utcOffset(at: 1_712_415_600) == 37_800)
        #expect(lordHowe.nextChange(after: 1_712_415_600) == 1_728_142_200)
    }

    @Test func ruleTimesBeyondTwentyFourHoursAndNegative() throws {
        // Jerusalem: the Friday before the last Sunday of March, written as Thursday 26:00.
        let jerusalem = try parse("IST-2IDT,M3.4.4/26,M10.5.0")
        #expect(jerusalem.daylightSaving?.start.secondsAfterMidnight == 93_600) // 26 h
        #expect(jerusalem.utcOffset(at: 1_711_670_399) == 7200)
        #expect(jerusalem.utcOffset(at: 1_711_670_400) == 10_800)
        // Nuuk: Saturday 23:00 local, written as Sunday -1:00.
        let nuuk = try parse("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.daylightSaving?.start.secondsAfterMidnight == -3600)
        #expect(nuuk.utcOffset(at: 1_711_846_799) == -7200)
        #expect(nuuk.utcOffset(at: 1_711_846_800) == -3600)
        #expect(try parse("XXX3YYY,M3.2.0/167,M11.1.0/-167").daylightSaving?.end.secondsAfterMidnight == -167 * 3600)
    }

    @Test func julianDaysWithAndWithoutTheLeapDay() throws {
        // Jn never counts February 29: J60 is March 1 even in 2024.
        let julian = try parse("AAA3BBB,J60/2,J300/2")
        #expect(!julian.isDaylightSaving(at: 1_709_269_199))
        #expect(julian.isDaylightSaving(at: 1_709_269_200)) // 2024-03-01 02:00 -03
        // n counts from zero and includes February 29: day 59 is Feb 29 in 2024, Mar 1 in 2023.
        let zeroBased = try parse("AAA3BBB,59/2,300/2")
        #expect(zeroBased.isDaylightSaving(at: 1_709_182_800))
        #expect(!zeroBased.isDaylightSaving(at: 1_709_182_799))
        #expect(zeroBased.daylightSavingChanges(inYear: 2023)?.start == 1_677_646_800)
    }

    @Test func daylightSavingAllYearIsSeamlessAtNewYear() throws {
        // RFC 8536 §3.3.1: DST from Jan 1 00:00 to Dec 31 24:00 plus the shift means DST all year.
        let rule = try parse("EST5EDT,0/0,J365/25")
        for instant: Int64 in [1_704_085_199, 1_704_085_200, 1_719_835_200, 1_735_707_599, 1_735_707_600] {
            #expect(rule.isDaylightSaving(at: instant), "\(instant)")
            #expect(rule.utcOffset(at: instant) == -14_400)
        }
        #expect(rule.nextChange(after: 1_704_085_200) == nil)
    }

    @Test func theLastWeekOfAMonthFallsBackToTheFourthWhenThereIsNoFifth() {
        // February 2026 has four Sundays (1, 8, 15, 22): week 5 means the last, the 22nd.
        let days = POSIXTimeZone.DateRule.monthWeekDay(month: 2, week: 5, weekday: .sunday).daysSinceEpoch(inYear: 2026)
        #expect(CivilDate(daysSinceEpoch: days) == CivilDate(year: 2026, month: 2, day: 22))
        let first = POSIXTimeZone.DateRule.monthWeekDay(month: 2, week: 1, weekday: .sunday).daysSinceEpoch(inYear: 2026)
        #expect(CivilDate(daysSinceEpoch: first) == CivilDate(year: 2026, month: 2, day: 1))
    }

    @Test(arguments: [
        ("", 0, "expected the standard time name"),
        ("CET", 3, "expected the standard time UTC offset"),
        ("AB1", 0, "at least 3 letters"),
        ("<+03", 4, "closing \">\""),
        ("<+0 3>-3", 3, "only letters, digits"),
        ("<+3>-3", 0, "at least 3 characters"),
        ("CET-25", 4, "outside 0...24"),
        ("CET-1:60", 6, "outside 0...59"),
        ("CET-1 x", 5, "expected the daylight saving time name"),
        ("CET-1CEST,M3.5.0", 16, "\",\" before the DST end rule"),
        ("CET-1CEST;M3.5.0,M10.5.0", 9, "expected hours in the daylight saving time UTC offset"),
        ("CET-1CEST,M13.5.0,M10.5.0", 11, "month 13"),
        ("CET-1CEST,M3.6.0,M10.5.0", 13, "week 6"),
        ("CET-1CEST,M3.5.7,M10.5.0", 15, "weekday 7"),
        ("CET-1CEST,M3,M10.5.0", 12, "\".\" after the month"),
        ("CET-1CEST,J0,J365", 11, "Julian day 0"),
        ("CET-1CEST,366,0", 10, "day 366"),
        ("CET-1CEST,M3.5.0/168,M10.5.0", 17, "168 hours"),
        ("CET-1CEST,M3.5.0/,M10.5.0", 17, "expected hours"),
        ("CET-1CEST,X,M10.5.0", 10, "Jn, n or Mm.w.d"),
        ("CET-1CEST,M3.5.0,M10.5.0/3 ", 26, "unexpected text"),
        (":Europe/Berlin", 0, "names a zone file"),
    ])
    func malformedStringsSayWhereAndWhy(text: String, position: Int, reason: String) {
        #expect {
            _ = try POSIXTimeZone(parsing: text)
        } throws: { error in
            guard let error = error as? POSIXTimeZoneError else { return false }
            return error.position == position && error.reason.contains(reason) && error.text == text
        }
    }

    @Test func errorDescriptionsQuoteTheStringAndCountFromOne() {
        let error = POSIXTimeZoneError(text: "CET-25", position: 4, reason: "25 hours is outside 0...24 in the standard time UTC offset")
        #expect(error.description == "TZ string \"CET-25\" at position 5: 25 hours is outside 0...24 in the standard time UTC offset")
    }

    @Test func rulesFromAStringAloneApplyAtEveryInstant() throws {
        let rules = TimeZoneRules(posix: try parse("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(rules.utcOffset(at: -2_020_000_000) == 3600) // December 1905
        #expect(rules.utcOffset(at: 1_711_846_800) == 7200)
        #expect(rules.resolve(LocalDateTime(year: 2024, month: 3, day: 31, hour: 2, minute: 30)!)
            == .gap(transition: 1_711_846_800, shiftedForward: 1_711_848_600))
    }
}
