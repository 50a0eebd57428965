import ControlProtocol
import StillroomCore
import Testing

/// The typed results on the wire: a session (from the daemon, which measured it and may know its
/// download, and from the CLI alone, which did not and does not) and a download, each to the exact
/// JSON the answers carry and read back to the same value.
@Suite struct ResultEncodingTests {
    static func session(remote: Bool = false) throws -> Session {
        let audio: AudioSource = remote
            ? .remote(RemoteAudio(url: try RemoteURL(parsing: "https://example.org/far.mp3"), byteCount: 123_456,
                                  sha256: try SHA256Digest(validating: String(repeating: "ab", count: 32))))
            : .bundled(try RelativePath(validating: "audio/sweep.mp3"))
        return Session(id: try ContentID(validating: remote ? "far-sweep" : "sweep"), title: "Sweep", theme: .breathe,
                       description: "A rising sound.", durationSeconds: 20, audio: audio,
                       transcript: .bundled(try RelativePath(validating: "transcripts/sweep.vtt")),
                       license: License(name: "CC0 1.0", attribution: "Stillroom project"),
                       provenance: .bundled(try RelativePath(validating: "provenance/sweep.json")))
    }

    func text(_ value: JSONValue) -> String { ControlCodec.json(value) }

    @Test func aMeasuredSessionFromTheDaemon() throws {
        let summary = SessionSummary(try Self.session(), measuredSeconds: 20.0240001, favorite: true, download: nil)
        #expect(text(summary.json) == #"{"description":"A rising sound.","duration":20.024,"durationMeasured":true,"favorite":true,"# +
            #""id":"sweep","license":{"attribution":"Stillroom project","name":"CC0 1.0"},"onBox":true,"theme":"breathe","title":"Sweep"}"#)
        #expect(SessionSummary(json: summary.json) == summary)
    }

    @Test func aSessionFromTheCLIAloneKeepsTheCatalogLengthAndSaysSo() throws {
        let summary = SessionSummary(try Self.session(), measuredSeconds: nil, favorite: false, download: nil)
        #expect(summary.duration == 20)
        #expect(summary.json["durationMeasured"] == false)
        #expect(summary.json["download"] == nil)
        #expect(SessionSummary(json: summary.json) == summary)
    }

    @Test func aRemoteSessionCarriesItsSizeAndDownload() throws {
        let status = DownloadStatus(sessionID: "far-sweep", state: .onThisBox, bytesDone: 123_456, bytesTotal: 123_456, offer: .withdrawn)
        let summary = SessionSummary(try Self.session(remote: true), measuredSeconds: 20, favorite: false, download: status)
        #expect(summary.onBox)
        #expect(summary.json["bytes"] == 123_456)
        #expect(summary.json["download"]?["offer"] == "withdrawn")
        #expect(SessionSummary(json: summary.json) == summary)
        let listed = SessionSummary.list([summary, SessionSummary(try Self.session(), measuredSeconds: nil, favorite: true, download: nil)])
        #expect(SessionSummary.list(json: listed).map(\.id) == ["far-sweep", "sweep"])
    }

    @Test func aRemoteSessionNotDownloadedIsNotOnTheBox() throws {
        let status = DownloadStatus(sessionID: "far-sweep", state: .available, bytesTotal: 123_456, offer: .remembered)
        let summary = SessionSummary(try Self.session(remote: true), measuredSeconds: nil, favorite: false, download: status)
        #expect(!summary.onBox)
        #expect(summary.download?.offer == .remembered)
    }

    @Test func aFailedDownloadWithItsReasonOnTheWire() throws {
        let status = DownloadStatus(sessionID: "far-sweep", state: .failed, bytesDone: 0, bytesTotal: 4800, failure: .httpStatus(404))
        let report = DownloadReport(status)
        #expect(text(report.json) == #"{"bytesDone":0,"bytesTotal":4800,"failure":{"advice":"\#(status.failure!.advice)","code":"http_404","# +
            #""reason":"The server answered HTTP 404 Not Found."},"offer":"current","percent":0,"previousCopy":false,"session":"far-sweep","# +
            #""state":"failed","summary":"Download failed: The server answered HTTP 404 Not Found."}"#)
        #expect(DownloadReport(json: report.json) == report)
    }

    @Test func whatIsNotASessionReadsAsNone() {
        #expect(SessionSummary(json: .object(["id": "sweep"])) == nil)
        #expect(SessionSummary(json: .null) == nil)
        #expect(DownloadReport(json: .object(["session": "x", "state": "exploded"])) == nil)
        #expect(SessionSummary.list(json: .object(["sessions": .array([.null, 3])])).isEmpty)
    }

    @Test func reminderDaysReadBackFromTheirWireText() {
        for days: ReminderWeekdays in [.all, .weekdays, [.saturday, .sunday], [.monday]] {
            let command = ControlCommand.reminder(.set(.init(minuteOfDay: 60, weekdays: days)))
            #expect(ControlCommand.decode(ControlRequest(id: 1, command)) == .success(command))
        }
        #expect(ReminderDays.names(.all) == "every day")
        #expect(ReminderDays.names([.monday, .sunday]) == "mon,sun")
    }
}
