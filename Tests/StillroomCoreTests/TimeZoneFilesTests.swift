import StillroomCore
import Testing
import TestSupport

// Real zone files from the system's tzdata; expected instants were read from glibc (`date`), an
// independent implementation. The test reads the file; the parser only sees bytes.

func zoneRules(_ name: String) throws -> TimeZoneRules {
    let bytes = Files.read("/usr/share/zoneinfo/\(name)")
    try #require(!bytes.isEmpty, "tzdata file \(name) is missing")
    return try TimeZoneRules(tzif: bytes)
}

func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> LocalDateTime {
    LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!
}

@Suite struct TimeZoneFilesTests {
    @Test func berlinSwitchesToSummerTimeAtOneUTCOnTheLastSundayOfMarch() throws {
        let berlin = try zoneRules("Europe/Berlin")
        let change: Int64 = 1_711_846_800 // 2024-03-31 01:00:00Z
        #expect(berlin.utcOffset(at: change - 1) == 3600)
        #expect(berlin.utcOffset(at: change) == 7200)
        #expect(!berlin.isDaylightSaving(at: change - 1))
        #expect(berlin.isDaylightSaving(at: change))
        #expect(berlin.localTimeType(at: change - 1).abbreviation == "CET")
        #expect(berlin.localTimeType(at: change).abbreviation == "CEST")
        #expect(berlin.localDateTime(at: change - 1) == local(2024, 3, 31, 1, 59, 59))
        #expect(berlin.localDateTime(at: change) == local(2024, 3, 31, 3, 0, 0))
        #expect(berlin.nextChange(after: change - 10 * 86_400) == change)
        #expect(berlin.nextChange(after: change) == 1_729_990_800) // 2024-10-27 01:00:00Z
        #expect(berlin.footer?.text == "CET-1CEST,M3.5.0,M10.5.0/3")
    }

    @Test func berlinSpringForwardGapAndFallBackOverlap() throws {
        let berlin = try zoneRules("Europe/Berlin")
        // 02:30 on 2024-03-31 never happened: the clock went from 02:00 to 03:00.
        #expect(berlin.resolve(local(2024, 3, 31, 2, 30)) == .gap(transition: 1_711_846_800, shiftedForward: 1_711_848_600))
        #expect(berlin.unixSeconds(for: local(2024, 3, 31, 2, 30)) == 1_711_848_600) // 03:30 CEST
        #expect(berlin.unixSeconds(for: local(2024, 3, 31, 2, 30), gap: .transitionInstant) == 1_711_846_800)
        #expect(berlin.localDateTime(at: 1_711_848_600) == local(2024, 3, 31, 3, 30))
        // 02:30 on 2024-10-27 happened twice: first in CEST, then in CET.
        #expect(berlin.resolve(local(2024, 10, 27, 2, 30)) == .overlap(earlier: 1_729_989_000, later: 1_729_992_600))
        #expect(berlin.unixSeconds(for: local(2024, 10, 27, 2, 30)) == 1_729_989_000)
        #expect(berlin.unixSeconds(for: local(2024, 10, 27, 2, 30), overlap: .later) == 1_729_992_600)
        // The edges: 03:00 in March is the first reading after the gap; 02:00 and 03:00 in October.
        #expect(berlin.resolve(local(2024, 3, 31, 3, 0)) == .unique(1_711_846_800))
        #expect(berlin.resolve(local(2024, 3, 31, 1, 59, 59)) == .unique(1_711_846_799))
        #expect(berlin.resolve(local(2024, 10, 27, 3, 0)) == .unique(1_729_994_400))
        #expect(berlin.resolve(local(2024, 10, 27, 2, 0)) == .overlap(earlier: 1_729_987_200, later: 1_729_990_800))
        // An ordinary afternoon.
        #expect(berlin.resolve(local(2024, 7, 1, 15, 0)) == .unique(1_719_838_800))
    }

    @Test func newYorkGapOverlapAndLocalMeanTimeBeforeTheFirstTransition() throws {
        let newYork = try zoneRules("America/New_York")
        #expect(newYork.resolve(local(2024, 3, 10, 2, 30)) == .gap(transition: 1_710_054_000, shiftedForward: 1_710_055_800))
        #expect(newYork.resolve(local(2024, 11, 3, 1, 30)) == .overlap(earlier: 1_730_611_800, later: 1_730_615_400))
        #expect(newYork.utcOffset(at: 1_730_613_599) == -4 * 3600)
        #expect(newYork.utcOffset(at: 1_730_613_600) == -5 * 3600)
        #expect(newYork.localTimeType(at: 1_730_613_600).abbreviation == "EST")
        // Before railway time (1883-11-18) New York kept local mean time, -4:56:02: type 0 applies.
        #expect(newYork.utcOffset(at: -3_000_000_000) == -17_762)
        #expect(newYork.localTimeType(at: -3_000_000_000).abbreviation == "LMT")
        #expect(newYork.utcOffset(at: Int64.min) == -17_762)
    }

    @Test func lordHoweMovesHalfAnHour() throws {
        let lordHowe = try zoneRules("Australia/Lord_Howe")
        // 2024-04-07 02:00 +11 → 01:30 +10:30 at 15:00Z on the 6th.
        #expect(lordHowe.utcOffset(at: 1_712_415_599) == 39_600)
        #expect(lordHowe.utcOffset(at: 1_712_415_600) == 37_800)
        #expect(lordHowe.isDaylightSaving(at: 1_712_415_599))
        #expect(!lordHowe.isDaylightSaving(at: 1_712_415_600))
        #expect(lordHowe.resolve(local(2024, 4, 7, 1, 45)) == .overlap(earlier: 1_712_414_700, later: 1_712_416_500))
        // 2024-10-06 02:00 +10:30 → 02:30 +11: a 30-minute gap.
        #expect(lordHowe.resolve(local(2024, 10, 6, 2, 15)) == .gap(transition: 1_728_142_200, shiftedForward: 1_728_143_100))
        #expect(lordHowe.localDateTime(at: 1_728_143_100) == local(2024, 10, 6, 2, 45))
        #expect(lordHowe.localTimeType(at: 1_728_142_200).abbreviation == "+11")
    }

    @Test func kolkataHasNoDaylightSavingTime() throws {
        let kolkata = try zoneRules("Asia/Kolkata")
        for instant: Int64 in [0, 1_711_846_800, 1_729_990_800, 4_102_444_800, 13_576_813_200] {
            #expect(kolkata.utcOffset(at: instant) == 19_800)
            #expect(!kolkata.isDaylightSaving(at: instant))
        }
        #expect(kolkata.localTimeType(at: 1_700_000_000).abbreviation == "IST")
        #expect(kolkata.nextChange(after: 1_700_000_000) == nil)
        #expect(kolkata.resolve(local(2024, 3, 31, 2, 30)) == .unique(1_711_846_800 + 5400 - 19_800))
    }

    @Test func utcIsZeroEverywhere() throws {
        let utc = try zoneRules("UTC")
        for instant: Int64 in [.min, -1, 0, 1_711_846_800, .max] {
            #expect(utc.utcOffset(at: instant) == 0)
        }
        #expect(utc.localTimeType(at: 0).abbreviation == "UTC")
        #expect(utc.localDateTime(at: 1_711_846_800) == local(2024, 3, 31, 1, 0))
        #expect(TimeZoneRules.utc.utcOffset(at: 1_711_846_800) == 0)
    }

    @Test func aFarFutureDateIsCoveredByTheFooterRule() throws {
        let berlin = try zoneRules("Europe/Berlin")
        let change: Int64 = 13_576_813_200 // 2400-03-26 01:00:00Z, the last Sunday of March 2400
        try #require(change > berlin.transitions.last!, "the file lists transitions this far: pick a later year")
        #expect(berlin.utcOffset(at: change - 1) == 3600)
        #expect(berlin.utcOffset(at: change) == 7200)
        #expect(berlin.localDateTime(at: change) == local(2400, 3, 26, 3, 0))
        #expect(berlin.nextChange(after: change) == 13_595_562_000) // 2400-10-29 01:00:00Z
        #expect(berlin.resolve(local(2400, 10, 29, 2, 30)) == .overlap(earlier: 13_595_563_800 - 3600, later: 13_595_563_800))
        // Far beyond any calendar anyone uses, the rule still answers (and agrees 400 years on).
        let far: Int64 = 1 << 50
        #expect(berlin.utcOffset(at: far) == berlin.utcOffset(at: far - 146_097 * 86_400))
        #expect(berlin.utcOffset(at: .max) == 3600 || berlin.utcOffset(at: .max) == 7200)
    }

    @Test func leapSecondZonesSpeakPOSIXTime() throws {
        let bytes = Files.read("/usr/share/zoneinfo/right/Europe/Berlin")
        try #require(!bytes.isEmpty, "right/ zones are not installed")
        let right = try TimeZoneRules(tzif: bytes)
        let posix = try zoneRules("Europe/Berlin")
        // The file counts 27 leap seconds by 2024; the rules take them out again.
        #expect(right.utcOffset(at: 1_711_846_799) == 3600)
        #expect(right.utcOffset(at: 1_711_846_800) == 7200)
        #expect(right.nextChange(after: 1_700_000_000) == posix.nextChange(after: 1_700_000_000))
    }

    @Test func everyZoneFileOnTheSystemParses() throws {
        // A sample across regions and shapes (slim/fat files, v2 to v4 headers, odd footers).
        let names = ["Africa/Casablanca", "America/Sao_Paulo", "America/St_Johns", "Antarctica/Troll", "Asia/Kathmandu",
                     "Asia/Tehran", "Australia/Adelaide", "Europe/Dublin", "Europe/London", "Pacific/Apia",
                     "Pacific/Chatham", "Pacific/Kiritimati", "America/Godthab", "Etc/GMT+12", "Factory"]
        // scripts/setup installs tzdata; without it this is a counted skip (a failure under CI), never a pass.
        guard Requirement.need(Files.exists("/usr/share/zoneinfo/Europe/London"), "tzdata is not installed") else { return }
        for name in names {
            let bytes = Files.read("/usr/share/zoneinfo/\(name)")
            #expect(!bytes.isEmpty, "\(name) is missing from tzdata")
            #expect(throws: Never.self, "\(name)") { _ = try TimeZoneRules(tzif: bytes) }
        }
    }
}
