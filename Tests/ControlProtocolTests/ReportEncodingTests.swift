import ControlProtocol
import StillroomCore
import Testing

/// The other typed results on the wire (settings, timer, reminder, downloads, doctor): each to the exact
/// JSON the answers carried before they were typed, and read back to the same value.
@Suite struct ReportEncodingTests {
    func text(_ value: JSONValue) -> String { ControlCodec.json(value) }

    @Test func settingsListEveryKeyInOrderWithWhatItDoes() {
        let report = SettingsReport(Settings(stored: ["volume": "35"]))
        #expect(report.entries.map(\.key) == Settings.keys)
        #expect(report.entries.first { $0.key == "volume" }?.value == "35")
        #expect(report.json["settings"]?.arrayValue?.first == .object([
            "key": .string(Settings.keys[0]), "value": .string(Settings(stored: ["volume": "35"]).value(of: Settings.keys[0])),
            "about": .string(Settings.explanations[Settings.keys[0]] ?? ""),
        ]))
        #expect(SettingsReport(json: report.json) == report)
    }

    @Test func aTimerRunningAndNot() {
        let running = TimerReport(running: .init(pattern: "box", minutes: 5, remainingSeconds: 241.5, phase: "inhale"))
        #expect(text(running.json) == #"{"minutes":5,"pattern":"box","phase":"inhale","remaining":241.5,"running":true}"#)
        #expect(TimerReport(json: running.json) == running)
        let between = TimerReport(running: .init(pattern: "4-6", minutes: 1, remainingSeconds: 3, phase: nil))
        #expect(between.json["phase"] == .null)
        #expect(TimerReport(json: between.json) == between)
        #expect(text(TimerReport(running: nil).json) == #"{"running":false}"#)
        #expect(TimerReport(json: TimerReport(running: nil).json).running == nil)
    }

    static let preference = ReminderPreferenceRecord(enabled: true, minuteOfDay: 21 * 60 + 30, weekdays: .weekdays, style: .glow,
                                                     quietStartMinute: 22 * 60, quietEndMinute: 7 * 60, updatedAt: 1)

    @Test func aReminderFromTheDaemonSaysWhenAndWhetherItWaits() {
        let report = ReminderReport(Self.preference, next: "2026-11-03 21:30", waiting: false, card: true)
        #expect(text(report.json) == #"{"card":true,"days":"mon,tue,wed,thu,fri","enabled":true,"next":"2026-11-03 21:30","# +
            #""quiet":"22:00-07:00","style":"glow","time":"21:30","waiting":false}"#)
        #expect(ReminderReport(json: report.json) == report)
    }

    @Test func aReminderFromTheDatabaseAloneLeavesOutWhatOnlyTheDaemonKnows() {
        var everyDay = Self.preference
        everyDay.weekdays = .all
        everyDay.quietEndMinute = everyDay.quietStartMinute
        let report = ReminderReport(everyDay, next: nil, waiting: nil, card: nil)
        #expect(text(report.json) == #"{"days":"every day","enabled":true,"next":null,"quiet":null,"style":"glow","time":"21:30"}"#)
        #expect(ReminderReport(json: report.json) == report)
    }

    @Test func aReminderOffSaysSoAndNoNextTime() {
        var off = Self.preference
        off.enabled = false
        #expect(text(ReminderReport(off, next: "2026-11-03 21:30", waiting: true, card: false).json) == #"{"card":false,"enabled":false,"next":null}"#)
        #expect(text(ReminderReport(nil, next: nil, waiting: nil, card: nil).json) == #"{"enabled":false,"next":null}"#)
        #expect(ReminderReport(json: ReminderReport(nil, next: nil, waiting: nil, card: nil).json).schedule == nil)
    }

    @Test func downloadsWithTheirSources() {
        let failure = DownloadReport.Failure(code: "cannot_connect", reason: "No connection.", advice: "Check the network.")
        let report = DownloadsReport(
            downloads: [DownloadReport(DownloadStatus(sessionID: "far-sweep", state: .downloading, bytesDone: 1200, bytesTotal: 4800))],
            sources: [DownloadsReport.Source(url: "https://example.org/m.json", state: "loaded", summary: "3 sessions listed",
                                             remembered: false, sessions: 3),
                      DownloadsReport.Source(url: "https://example.org/n.json", state: "failed", summary: "No connection.",
                                             remembered: true, failure: failure)])
        #expect(text(report.json["sources"]!) == #"[{"remembered":false,"sessions":3,"state":"loaded","summary":"3 sessions listed","# +
            #""url":"https://example.org/m.json"},{"failure":{"advice":"Check the network.","code":"cannot_connect","reason":"No connection."},"# +
            #""remembered":true,"state":"failed","summary":"No connection.","url":"https://example.org/n.json"}]"#)
        #expect(report.json["downloads"]?.arrayValue?.first?["percent"] == 25)
        #expect(DownloadsReport(json: report.json) == report)
        #expect(text(DownloadsReport(downloads: [], sources: []).json) == #"{"downloads":[],"sources":[]}"#)
    }

    @Test func doctorIsOkOnlyWhenEveryCheckIsAndTheEssentialOnesAreTheThreePlayNeeds() {
        let checks = [
            DoctorReport.Check("database", ok: true, detail: "quick_check ok", fix: ""),
            DoctorReport.Check("content", ok: true, detail: "2 sessions", fix: ""),
            DoctorReport.Check("audio output", ok: true, detail: "paced", fix: ""),
            DoctorReport.Check("clock", ok: false, detail: "not synchronised", fix: "connect the box to a network"),
        ]
        let report = DoctorReport(checks: checks)
        #expect(!report.ok)
        #expect(report.essential.ok)
        #expect(report.essential.checks.map(\.name) == ["database", "content", "audio output"])
        #expect(!DoctorReport(checks: Array(checks.prefix(2))).essential.ok) // one of the three missing
        #expect(text(DoctorReport(checks: [checks[0]]).json) ==
            #"{"checks":[{"check":"database","detail":"quick_check ok","fix":"","ok":true}],"ok":true}"#)
        #expect(DoctorReport(json: report.json) == report)
        let amended = DoctorReport(checks: Array(checks.prefix(3))).adding(.init("network", ok: false, detail: "no interface", fix: "plug in"))
        #expect(!amended.ok && amended.checks.count == 4)
        #expect(!DoctorReport(checks: [], ok: false).adding(checks[0]).ok) // the daemon down stays a failure
    }

    @Test func whatOnlyTheDaemonKnowsOfTheNetworkAndAScreenshot() {
        let network = DaemonNetworkReport(downloadHosts: ["content.example.org"], wifiProblem: .wrongPassphrase(ssid: "home"))
        #expect(text(network.json) == #"{"downloadHosts":["content.example.org"],"wifiProblem":{"kind":"wrong-passphrase","ssid":"home"}}"#)
        #expect(DaemonNetworkReport(json: network.json) == network)
        #expect(text(DaemonNetworkReport(downloadHosts: [], wifiProblem: nil).json) == #"{"downloadHosts":[]}"#)
        #expect(DaemonNetworkReport(json: .object([:])) == nil)
        let screenshot = ScreenshotReport(path: "/tmp/screen.png", width: 800, height: 480)
        #expect(text(screenshot.json) == #"{"height":480,"path":"/tmp/screen.png","width":800}"#)
        #expect(ScreenshotReport(json: screenshot.json) == screenshot)
    }
}
