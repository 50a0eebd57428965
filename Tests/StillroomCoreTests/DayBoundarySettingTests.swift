import StillroomCore
import Testing

/// The day-boundary setting takes what docs/practice.md promises (00:00 to 11:59) and nothing else, so
/// the history never has to replace it with 04:00 behind the owner's back.
@Suite struct DayBoundarySettingTests {
    @Test(arguments: ["12:00", "23:30", "13:05", "11:60", "24:00"])
    func aBoundaryFromNoonOnIsRefused(_ text: String) {
        var settings = Settings()
        #expect(throws: SettingError.self) { try settings.set("day-boundary", to: text) }
        #expect(settings == Settings()) // nothing changed
    }

    @Test func theRefusalSaysWhatTheKeyTakes() {
        var settings = Settings()
        let message = #expect(throws: SettingError.self) { try settings.set("day-boundary", to: "23:30") }?.message ?? ""
        #expect(message.contains("between 00:00 and 11:59"), "\(message)")
        #expect(message.contains("23:30"))
    }

    @Test(arguments: [("00:00", 0), ("0:30", 30), ("04:00", 240), ("11:59", 719)])
    func aMorningBoundaryIsKept(_ text: String, minutes: Int) throws {
        var settings = Settings()
        try settings.set("day-boundary", to: text)
        #expect(settings.dayBoundary == minutes)
        // The history reads the same value the setting holds.
        #expect(PracticeDayBoundary(settingValue: settings.value(of: "day-boundary"))?.secondsAfterMidnight == minutes * 60)
    }

    @Test func aStoredAfternoonBoundaryFromAnOlderVersionIsReportedWithWhatReplacesIt() throws {
        let settings = Settings(stored: ["day-boundary": "23:30", "volume": "35"])
        #expect(settings.dayBoundary == 240)
        #expect(settings.volume == 35)
        let problem = try #require(settings.storedProblems.first)
        #expect(settings.storedProblems.count == 1)
        #expect(problem.key == "day-boundary")
        #expect(problem.storedValue == "23:30")
        #expect(problem.replacement == "04:00")
        #expect(problem.noticeMessage.contains("\"23:30\""))
        #expect(problem.noticeMessage.contains("It is now 04:00"))
        #expect(problem.noticeMessage.contains("stillroomctl settings set day-boundary"))
        #expect(settings.problems == [problem.description])
    }
}
