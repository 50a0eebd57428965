import StillroomCore
import Testing
import TestSupport

// The practice calendar in Europe/Berlin (real tzdata). Instants are written in UTC with the local
// reading beside them, so a wrong offset cannot hide behind the code under test.

func day(_ year: Int, _ month: Int, _ day: Int) -> CivilDate { CivilDate(year: year, month: month, day: day)! }

func run(_ id: Int64?, _ startedAt: UnixMilliseconds, seconds: Double = 600, session: String = "evening-unwind",
         completed: Bool = false, trusted: Bool = true) -> PracticeRunRecord {
    PracticeRunRecord(id: id, sessionID: session, startedAt: startedAt, actualListeningSeconds: seconds,
                      coveredSeconds: min(seconds, 300), recordingSeconds: 300,
                      completedAt: completed ? startedAt + Int64(seconds * 1000) : nil, clockTrusted: trusted,
                      updatedAt: startedAt + Int64(seconds * 1000))
}

/// Milliseconds of a UTC reading.
func utc(_ year: Int, _ month: Int, _ dayOfMonth: Int, _ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> UnixMilliseconds {
    LocalDateTime(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)!.secondsSinceLocalEpoch * 1000
}

@Suite struct PracticeHistoryTests {
    let berlin: PracticeCalendar
    /// 2024-05-20 12:00 CEST.
    let now = utc(2024, 5, 20, 10)

    init() throws {
        berlin = PracticeCalendar(timeZone: try zoneRules("Europe/Berlin"))
    }

    func history(_ runs: [PracticeRunRecord], now: UnixMilliseconds?? = nil, boundary: PracticeDayBoundary = .standard) -> PracticeHistory {
        PracticeHistory(runs: runs, calendar: PracticeCalendar(timeZone: berlin.timeZone, dayBoundary: boundary),
                        now: now ?? self.now)
    }

    // MARK: Practice days

    @Test func runsBeforeFourInTheMorningCountForTheEveningBefore() {
        #expect(berlin.practiceDay(at: utc(2024, 5, 13, 23, 30)) == day(2024, 5, 13)) // 01:30 CEST on the 14th
        #expect(berlin.practiceDay(at: utc(2024, 5, 14, 1, 59, 59)) == day(2024, 5, 13)) // 03:59:59
        #expect(berlin.practiceDay(at: utc(2024, 5, 14, 2)) == day(2024, 5, 14)) // 04:00:00
        #expect(berlin.practiceDay(at: utc(2024, 5, 13, 22)) == day(2024, 5, 13)) // midnight
        #expect(berlin.practiceDay(at: utc(2024, 5, 13, 21, 59)) == day(2024, 5, 13)) // 23:59
        #expect(berlin.practiceDay(at: utc(2024, 5, 13, 2) - 1) == day(2024, 5, 12)) // 03:59:59.999
    }

    @Test func aMidnightBoundaryCountsByTheDate() {
        let midnight = PracticeCalendar(timeZone: berlin.timeZone, dayBoundary: PracticeDayBoundary(hour: 0)!)
        #expect(midnight.practiceDay(at: utc(2024, 5, 13, 23, 30)) == day(2024, 5, 14))
        #expect(midnight.practiceDay(at: utc(2024, 5, 13, 21, 59)) == day(2024, 5, 13))
    }

    @Test func theBoundaryFollowsTheWallClockAcrossDSTChanges() {
        // 2024-03-31: 02:00 CET became 03:00 CEST (01:00Z).
        #expect(berlin.practiceDay(at: utc(2024, 3, 31, 0, 30)) == day(2024, 3, 30)) // 01:30 CET
        #expect(berlin.practiceDay(at: utc(2024, 3, 31, 1, 30)) == day(2024, 3, 30)) // 03:30 CEST
        #expect(berlin.practiceDay(at: utc(2024, 3, 31, 1, 59)) == day(2024, 3, 30)) // 03:59 CEST
        #expect(berlin.practiceDay(at: utc(2024, 3, 31, 2)) == day(2024, 3, 31)) // 04:00 CEST
        // 2024-10-27: 03:00 CEST became 02:00 CET (01:00Z); 04:00 CET is 03:00Z, not 02:00Z.
        #expect(berlin.practiceDay(at: utc(2024, 10, 27, 0, 30)) == day(2024, 10, 26)) // 02:30 CEST
        #expect(berlin.practiceDay(at: utc(2024, 10, 27, 1, 30)) == day(2024, 10, 26)) // 02:30 CET
        #expect(berlin.practiceDay(at: utc(2024, 10, 27, 2, 30)) == day(2024, 10, 26)) // 03:30 CET
        #expect(berlin.practiceDay(at: utc(2024, 10, 27, 3)) == day(2024, 10, 27)) // 04:00 CET
        // The local start shown in the list is the wall clock of that moment.
        let dating = history([], now: utc(2025, 1, 1, 0)).dating(of: run(1, utc(2024, 10, 27, 1, 30)))
        #expect(dating == .dated(day: day(2024, 10, 26), localStart: LocalDateTime(year: 2024, month: 10, day: 27, hour: 2, minute: 30)!, utcOffset: 3600))
    }

    @Test func dayBoundarySettingsReadAndWrite() {
        #expect(PracticeDayBoundary.standard.settingValue == "04:00")
        #expect(PracticeDayBoundary(settingValue: "04:00") == .standard)
        #expect(PracticeDayBoundary(settingValue: "0:30")?.secondsAfterMidnight == 1800)
        #expect(PracticeDayBoundary(settingValue: "11:59")?.settingValue == "11:59")
        for bad in ["12:00", "4", "04:0", "04:60", "-1:00", "04:00:00", "", "٤:00", " 4:00"] {
            #expect(PracticeDayBoundary(settingValue: bad) == nil, "\(bad)")
        }
        #expect(PracticeDayBoundary(hour: 12) == nil)
    }

    // MARK: The month page

    @Test func perDayMinutesAreListeningTimeAndMonthsEndAtTheBoundary() {
        let runs = [
            run(1, utc(2024, 3, 31, 23, 30), seconds: 599), // 01:30 CEST on April 1st: March 31st
            run(2, utc(2024, 3, 31, 8), seconds: 1200, completed: true), // 10:00 on March 31st
            run(3, utc(2024, 4, 1, 2), seconds: 300), // 04:00 on April 1st: April
            run(4, utc(2024, 2, 29, 23), seconds: 60), // 00:00 CET on March 1st: February 29th
            run(5, utc(2024, 3, 1, 3), seconds: 30), // 04:00 CET on March 1st
        ]
        let march = history(runs).month(CivilMonth(year: 2024, month: 3)!)
        #expect(march.days.count == 31)
        #expect(march.days[30].amount.listeningSeconds == 1799)
        #expect(march.days[30].amount.wholeMinutes == 29) // 29:59 is not 30 minutes
        #expect(march.days[30].amount.runCount == 2)
        #expect(march.days[30].amount.completedRunCount == 1)
        #expect(march.days[0].amount.listeningSeconds == 30)
        #expect(march.days[0].amount.wholeMinutes == 0)
        #expect(march.days[0].practised) // half a minute is still practice
        #expect(march.practisedDayCount == 2)
        #expect(march.amount.listeningSeconds == 1829)
        let april = history(runs).month(CivilMonth(year: 2024, month: 4)!)
        #expect(april.days[0].amount.listeningSeconds == 300)
        #expect(april.amount.runCount == 1)
        let february = history(runs).month(CivilMonth(year: 2024, month: 2)!)
        #expect(february.days.count == 29)
        #expect(february.days[28].amount.listeningSeconds == 60)
    }

    @Test func untrustedRunsNeverReachTheCalendar() {
        let runs = [run(1, 133_000, seconds: 900, completed: true, trusted: false), run(2, utc(2024, 5, 10, 18), seconds: 600)]
        let history = history(runs)
        #expect(history.month(CivilMonth(year: 1970, month: 1)!).amount.runCount == 0)
        #expect(history.month(CivilMonth(year: 2024, month: 5)!).amount.runCount == 1)
        let totals = history.totals()
        #expect(totals.allTime.listeningSeconds == 1500)
        #expect(totals.allTime.runCount == 2)
        #expect(totals.allTime.completedRunCount == 1)
        #expect(totals.thisMonth?.listeningSeconds == 600)
        #expect(totals.undatedRunCount == 1)
        #expect(history.dating(of: runs[0]) == .unknown)
        #expect(history.recentSessions().last?.dating == .unknown)
        #expect(history.streak()?.days == 0)
    }

    @Test func runsDatedAfterNowAreShownTodayNeverInTheFuture() {
        // The clock was set back: this run claims to start three days from now.
        let future = run(1, now + 3 * 86_400_000, seconds: 400)
        let history = history([future])
        #expect(history.today == day(2024, 5, 20))
        #expect(history.dating(of: future) == .clampedToToday(day: day(2024, 5, 20)))
        let may = history.month(CivilMonth(year: 2024, month: 5)!)
        #expect(may.days[19].amount.listeningSeconds == 400)
        #expect(may.days[22].amount.runCount == 0)
        // Even a future month's page stays empty.
        let farFuture = run(2, utc(2025, 1, 10, 12))
        #expect(self.history([farFuture]).month(CivilMonth(year: 2025, month: 1)!).amount.runCount == 0)
        #expect(self.history([farFuture]).month(CivilMonth(year: 2024, month: 5)!).amount.runCount == 1)
        #expect(history.recentSessions().first?.localStart == nil)
        #expect(history.totals().thisMonth?.runCount == 1)
        #expect(history.streak() == PracticeStreak(days: 1, lastDay: day(2024, 5, 20), includesToday: true))
    }

    @Test func withoutATrustedNowThereIsNoTodayButThePastStillShows() {
        let runs = [run(1, utc(2024, 5, 10, 18)), run(2, utc(2030, 1, 1, 12))]
        let history = history(runs, now: .some(nil))
        #expect(history.today == nil)
        #expect(history.streak() == nil)
        #expect(history.totals().thisMonth == nil)
        #expect(history.totals().allTime.runCount == 2)
        #expect(history.month(CivilMonth(year: 2024, month: 5)!).amount.runCount == 1)
        #expect(history.dating(of: runs[1]).practiceDay == day(2030, 1, 1)) // nothing to compare it with
    }

    @Test func thisMonthFollowsThePracticeDayOfNow() {
        // 01:30 CEST on June 1st is still May 31st's practice day, so "this month" is May.
        let lateNight = utc(2024, 5, 31, 23, 30)
        let runs = [run(1, utc(2024, 5, 2, 18), seconds: 120), run(2, lateNight - 600_000, seconds: 60)]
        let totals = history(runs, now: lateNight).totals()
        #expect(totals.thisMonth?.listeningSeconds == 180)
    }

    // MARK: Recent sessions

    @Test func recentSessionsAreNewestFirstByIdWithUnsavedRunsOnTop() {
        var runs: [PracticeRunRecord] = []
        for id in Int64(1)...30 { runs.append(run(id, utc(2024, 5, 1, 12) + id * 3_600_000, seconds: Double(id) * 60, completed: id % 3 == 0)) }
        runs.append(run(31, 45_000, seconds: 90, trusted: false)) // after a boot without network: newest, undated
        runs.append(run(nil, utc(2024, 5, 20, 9), seconds: 15)) // in progress, not yet stored
        runs.shuffle()
        let recent = history(runs).recentSessions(limit: 5)
        #expect(recent.map(\.runID) == [nil, 31, 30, 29, 28])
        #expect(recent[1].dating == .unknown)
        #expect(recent[2].completed)
        #expect(!recent[3].completed)
        #expect(recent[2].wholeMinutes == 30)
        #expect(recent[2].practiceDay == day(2024, 5, 2)) // 2024-05-02 18:00Z = 20:00 CEST
        #expect(recent[2].localStart == LocalDateTime(year: 2024, month: 5, day: 2, hour: 20))
        #expect(history(runs).recentSessions(limit: 0).isEmpty)
        #expect(history(runs).recentSessions(limit: 100).count == 32)
    }

    // MARK: Streak

    @Test func streaksCountConsecutiveDaysUpToTodayOrYesterday() {
        let evening = { (dayOfMay: Int) in run(Int64(dayOfMay), utc(2024, 5, dayOfMay, 18)) }
        // Practice on the 14th, 15th, 17th, 18th, 19th; today is the 20th.
        var runs = [14, 15, 17, 18, 19].map(evening)
        #expect(history(runs).streak() == PracticeStreak(days: 3, lastDay: day(2024, 5, 19), includesToday: false))
        runs.append(run(20, utc(2024, 5, 20, 6)))
        #expect(history(runs).streak() == PracticeStreak(days: 4, lastDay: day(2024, 5, 20), includesToday: true))
        // A gap of a day ends it; two runs on one day count once.
        let older = [run(1, utc(2024, 5, 17, 18)), run(2, utc(2024, 5, 17, 19)), run(3, utc(2024, 5, 18, 18))]
        #expect(history(older).streak() == PracticeStreak(days: 0, lastDay: nil, includesToday: false))
        // A session at 01:30 keeps yesterday's streak going, it does not start today's.
        let night = [run(1, utc(2024, 5, 18, 18)), run(2, utc(2024, 5, 19, 23, 30))] // 01:30 CEST on the 20th
        #expect(history(night).streak() == PracticeStreak(days: 2, lastDay: day(2024, 5, 19), includesToday: false))
    }

    @Test func untrustedRunsDoNotMakeAStreak() {
        let runs = [run(1, utc(2024, 5, 19, 18)), run(2, 5_000, trusted: false)]
        #expect(history(runs).streak()?.days == 1)
    }

    // MARK: Export

    @Test func csvQuotesOddSessionIDsAsRFC4180Says() {
        let runs = [
            run(1, utc(2024, 3, 31, 1, 30), seconds: 612.5, session: "plain-id", completed: true),
            run(2, utc(2024, 4, 1, 18), session: "comma,id"),
            run(3, utc(2024, 4, 2, 18), session: "say \"hi\""),
            run(4, utc(2024, 4, 3, 18), session: "two\nlines"),
            run(5, utc(2024, 4, 4, 18), session: "carriage\rreturn"),
            run(6, 133_250, seconds: 45.25, session: "=1+2", trusted: false),
        ]
        let csv = history(runs.reversed()).exportCSV()
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines[0] == PracticeHistory.csvColumns.joined(separator: ","))
        #expect(lines[1] == "1,plain-id,dated,2024-03-30,2024-03-31T03:30:00+02:00,2024-03-31T01:30:00Z,1711848600000,true,612.500,300.000,300.000,true,2024-03-31T01:40:12.500Z")
        #expect(lines[2].hasPrefix("2,\"comma,id\",dated,2024-04-01,"))
        #expect(lines[3].hasPrefix("3,\"say \"\"hi\"\"\",dated,"))
        #expect(lines[4].hasPrefix("4,\"two\nlines\",dated,"))
        #expect(lines[5].hasPrefix("5,\"carriage\rreturn\",dated,"))
        #expect(lines[6] == "6,=1+2,unknown,,,,133250,false,45.250,45.250,300.000,false,")
        #expect(lines[7] == "")
        #expect(lines.count == 8)
        #expect(PracticeHistory.csvField("") == "")
        #expect(PracticeHistory.csvField("\"") == "\"\"\"\"")
    }

    @Test func jsonExportRoundTripsThroughTheParser() throws {
        let runs = [
            run(2, 133_250, seconds: 45.25, trusted: false),
            run(1, utc(2024, 3, 31, 1, 30), seconds: 612.5, session: "a/b \"c\"", completed: true),
        ]
        let history = history(runs)
        let text = history.exportJSONText()
        #expect(text.hasSuffix("}\n"))
        let parsed = try JSONValue.parse(Array(text.utf8))
        #expect(parsed == history.exportJSON())
        #expect(parsed["format"] == "stillroom.practice-history")
        #expect(parsed["version"] == 1)
        #expect(parsed["dayBoundary"] == "04:00")
        let exported = try #require(parsed["runs"]?.arrayValue)
        #expect(exported.count == 2)
        #expect(exported[0]["id"] == 1)
        #expect(exported[0]["sessionId"] == "a/b \"c\"")
        #expect(exported[0]["practiceDay"] == "2024-03-30")
        #expect(exported[0]["localStart"] == "2024-03-31T03:30:00+02:00")
        #expect(exported[0]["startedAt"] == "2024-03-31T01:30:00Z")
        #expect(exported[0]["listeningSeconds"] == 612.5)
        #expect(exported[0]["completed"] == true)
        #expect(exported[1]["date"] == "unknown")
        #expect(exported[1]["practiceDay"] == .null)
        #expect(exported[1]["startedAt"] == .null)
        #expect(exported[1]["startedAtUnixMs"] == 133_250)
        #expect(text.contains("a/b")) // slashes are not escaped
    }

    @Test func jsonTextAndJSONValueAgreeForAnyRun() throws {
        var generator = SeededGenerator(seed: 7)
        var runs: [PracticeRunRecord] = []
        for id in Int64(1)...300 {
            var record = run(id % 50 == 0 ? nil : id, utc(2024, 1, 1, 0) + Int64.random(in: 0..<40_000_000_000, using: &generator),
                             seconds: Double.random(in: 0...7200, using: &generator), completed: Bool.random(using: &generator),
                             trusted: id % 7 != 0)
            record.coveredRanges = [CoveredRange(start: 0, end: Double.random(in: 0...300, using: &generator)),
                                    CoveredRange(start: 301.0005, end: 1e-4)]
            runs.append(record)
        }
        runs.append(run(999, utc(2024, 6, 1, 12), session: "tab\tquote\"ctl\u{1}\u{1F}é€😀/"))
        let history = history(runs, now: utc(2025, 6, 1, 0))
        #expect(try JSONValue.parse(Array(history.exportJSONText().utf8)) == history.exportJSON())
        let empty = self.history([])
        #expect(empty.exportJSONText() == "{\n  \"dayBoundary\": \"04:00\",\n  \"format\": \"stillroom.practice-history\",\n  \"runs\": [],\n  \"version\": 1\n}\n")
        #expect(try JSONValue.parse(Array(empty.exportJSONText().utf8)) == empty.exportJSON())
        #expect(empty.exportCSV() == PracticeHistory.csvColumns.joined(separator: ",") + "\r\n")
    }

    @Test func extremeClocksDoNotTrap() {
        // A clock read as the largest possible instant, and runs at both ends of time.
        let edge = { (id: Int64, startedAt: Int64) in
            PracticeRunRecord(id: id, sessionID: "edge", startedAt: startedAt, actualListeningSeconds: 60,
                              recordingSeconds: 300, completedAt: startedAt, clockTrusted: true, updatedAt: startedAt)
        }
        let runs = [edge(1, .max), edge(2, .min), run(3, 0), run(4, utc(2024, 5, 10, 18))]
        let history = history(runs, now: .max)
        let month = try! #require(history.today?.civilMonth)
        #expect(history.month(month).amount.runCount == 1)
        #expect(history.totals().allTime.runCount == 4)
        #expect(history.recentSessions().count == 4)
        #expect(history.streak() != nil)
        #expect(!history.exportCSV().isEmpty)
        let past = self.history(runs, now: .min)
        #expect(past.totals().thisMonth != nil)
        #expect(past.month(CivilMonth(year: 2024, month: 5)!).amount.runCount == 0) // all clamped to "today"
    }
}

/// The seeded generator the randomised tests use.
typealias SeededGenerator = SplitMix64
