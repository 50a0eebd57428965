import ControlProtocol
import StillroomCore
import Testing

/// History and transcript answers on the wire, in UTC with the standard 04:00 day boundary: a month's
/// calendar and totals, the recent runs (in the history's order), an export, a deletion, a transcript; to
/// the exact JSON and back.
@Suite struct HistoryReportTests {
    /// 2026-11-03 21:00 UTC, and ten and a half minutes heard then; one run the clock could not date.
    static let evening: UnixMilliseconds = 1_793_739_600_000
    static let history = PracticeHistory(
        runs: [
            PracticeRunRecord(id: 7, sessionID: "sweep", startedAt: evening, actualListeningSeconds: 630.04, coveredSeconds: 300,
                              recordingSeconds: 300, completedAt: evening + 630_000, clockTrusted: true, updatedAt: evening + 630_000),
            PracticeRunRecord(id: 8, sessionID: "gone", startedAt: 5_000, actualListeningSeconds: 61, recordingSeconds: 300,
                              clockTrusted: false, updatedAt: 66_000, title: "Gone sweep"),
        ],
        calendar: PracticeCalendar(timeZone: .utc), now: evening + 3_600_000)

    @Test func aMonthWithItsDayTotalsAndNoStreakWhenHidden() throws {
        let month = try #require(HistoryReport.parseMonth("2026-11"))
        let noSilentPractice = PracticeHistory(runs: [], calendar: PracticeCalendar(timeZone: .utc), now: nil)
        let report = HistoryMonthReport(Self.history, month, showStreak: false, silent: noSilentPractice)
        #expect(report.days.count == 30)
        let practised = report.days.filter { $0.runs > 0 }
        #expect(practised.map(\.day) == ["2026-11-03"] && practised.map(\.minutes) == [10] && practised.map(\.completed) == [1])
        var json = report.json
        json = .object((json.objectValue ?? [:]).filter { $0.key != "days" })
        #expect(ControlCodec.json(json) == #"{"completedRuns":1,"month":"2026-11","monthMinutes":10,"practisedDays":1,"# +
            #""silentMonthMinutes":0,"silentTotalMinutes":0,"streak":null,"today":"2026-11-03","totalMinutes":11,"totalRuns":2,"undatedRuns":1}"#)
        #expect(HistoryMonthReport(json: report.json) == report)
        let withStreak = HistoryMonthReport(Self.history, month, showStreak: true)
        #expect(withStreak.json["streak"] == .object(["days": 1, "includesToday": true]))
        #expect(withStreak.json["silentTotalMinutes"] == nil) // the CLI alone has no silent practice apart
        #expect(HistoryMonthReport(json: withStreak.json) == withStreak)
    }

    @Test func recentRunsWithTodaysTitlesOrTheOneTheyWereHeardUnder() {
        let report = RecentRunsReport(Self.history, titles: ["sweep": "Sweep"])
        #expect(ControlCodec.json(report.json) == #"{"recent":[{"completed":false,"day":null,"minutes":1,"run":8,"seconds":61,"# +
            #""session":"gone","title":"Gone sweep"},{"completed":true,"day":"2026-11-03","minutes":10,"run":7,"seconds":630,"# +
            #""session":"sweep","start":"2026-11-03T21:00:00","title":"Sweep"}]}"#)
        #expect(RecentRunsReport(json: report.json) == report)
    }

    @Test func anExportAndADeletion() {
        #expect(ControlCodec.json(HistoryExportReport(text: "a,b\r\n").json) == #"{"text":"a,b\r\n"}"#)
        #expect(HistoryExportReport(json: HistoryExportReport(text: "x").json).text == "x")
        let deletion = HistoryDeletionReport(deleted: 2, wiped: false, removedCopies: ["/data/stillroom.db.damaged-1"])
        #expect(ControlCodec.json(deletion.json) == #"{"deleted":2,"removedCopies":["/data/stillroom.db.damaged-1"],"wiped":false}"#)
        #expect(HistoryDeletionReport(json: deletion.json) == deletion)
    }

    @Test func aTranscriptsCuesAsPlainText() throws {
        let transcript = try WebVTTParser.parse(Array("WEBVTT\n\n00:00.000 --> 00:01.500\n<i>A rising</i> sound.\n".utf8), fileName: "t.vtt")
        let report = TranscriptReport(session: "sweep", title: "Sweep", source: .downloaded, transcript: transcript)
        #expect(ControlCodec.json(report.json) ==
            #"{"cues":[{"end":1.5,"start":0,"text":"A rising sound."}],"session":"sweep","source":"downloaded","title":"Sweep"}"#)
        #expect(TranscriptReport(json: report.json) == report)
    }
}
