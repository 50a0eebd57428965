import ControlProtocol
import StillroomCore
import Testing

/// The status on the wire: from the daemon (every field it gave before it was typed) and from the
/// database alone (the few it can know), each read back to the same value.
@Suite struct StatusReportTests {
    static func playing() -> StatusReport {
        var observed = StatusReport.Observed()
        observed.spokenLabels = 2
        observed.spoken = ["Play", "Sweep"]
        observed.inputEvents = 3
        observed.framesPresented = 7
        observed.heardSeconds = 12.25
        observed.screen = "on"
        observed.page = "player"
        let live = StatusReport.Live(pauseReason: nil, volume: 60, effectiveVolume: 40, headphones: true, outputName: "paced",
                                     outputAvailable: true, outputProblem: nil, error: nil, storageProblem: nil, observed: observed)
        return StatusReport(state: .playing, session: "sweep", title: "Sweep", position: 12.5, duration: 300.024, resumeOffer: nil,
                            lastCheckpoint: .init(session: "sweep", position: 10, ageSeconds: 2.5),
                            notices: [.init(id: -2, kind: NoticeKind(rawValue: "output"), message: "No sound output")], live: live)
    }

    @Test func theDaemonsStatusHasEveryFieldItHadBefore() {
        let json = Self.playing().json
        #expect(Set(json.objectValue?.keys.map { $0 } ?? []) == [
            "state", "session", "title", "position", "duration", "pauseReason", "volume", "effectiveVolume", "headphones", "output",
            "daemon", "spokenLabels", "labelPending", "spoken", "describer", "cuesPlayed", "outputIdle", "inputEvents",
            "framesPresented", "framePending", "heardSeconds", "screen", "page", "resumeOffer", "lastCheckpoint", "notices", "storage",
        ])
        #expect(ControlCodec.json(json["output"]!) == #"{"available":true,"name":"paced","problem":null}"#)
        #expect(ControlCodec.json(json["lastCheckpoint"]!) == #"{"ageSeconds":2.5,"position":10,"session":"sweep"}"#)
        #expect(ControlCodec.json(json["notices"]!) == #"[{"id":-2,"kind":"output","message":"No sound output"}]"#)
        #expect(json["storage"] == .object(["canSave": true]))
        #expect(json["pauseReason"] == .null)
        #expect(StatusReport(json: json) == Self.playing())
    }

    @Test func aFailureAStorageProblemAndATimeWarpAreSaid() {
        var status = Self.playing()
        status.state = .paused
        status.live?.pauseReason = .headphonesRemoved
        status.live?.error = "the recording is damaged at 0:12"
        status.live?.storageProblem = "read-only file system"
        status.live?.observed.timeWarp = .init(factor: 60, wallTime: 1_790_000_000.5)
        status.resumeOffer = .init(session: "sweep", title: "Sweep", position: 9.5)
        let json = status.json
        #expect(json["error"] == "the recording is damaged at 0:12")
        #expect(json["pauseReason"] == "headphonesRemoved")
        #expect(json["storage"] == .object(["canSave": false, "problem": "read-only file system"]))
        #expect(ControlCodec.json(json["timeWarp"]!) == #"{"factor":60,"wallTime":1790000000.5}"#)
        #expect(StatusReport(json: json) == status)
    }

    @Test func fromTheDatabaseAloneOnlyWhatItKnows() {
        let status = StatusReport(state: .stopped, session: "sweep", title: "Sweep", position: 1.5, duration: 3, resumeOffer: nil,
                                  lastCheckpoint: .init(session: "sweep", position: 1.5), notices: [], live: nil)
        #expect(ControlCodec.json(status.json) == #"{"daemon":false,"duration":3,"lastCheckpoint":{"position":1.5,"session":"sweep"},"# +
            #""notices":[],"position":1.5,"resumeOffer":null,"session":"sweep","state":"stopped","title":"Sweep"}"#)
        #expect(StatusReport(json: status.json) == status)
    }

    /// A newer daemon's words this CLI does not know read as unknown, not as something it does know.
    @Test func wordsThisCLIDoesNotKnowAreUnknown() {
        var json = Self.playing().json
        json = .object((json.objectValue ?? [:]).merging(["state": "rewinding", "pauseReason": "sleepTimer"]) { $1 })
        let read = StatusReport(json: json)
        #expect(read.state == .unknown)
        #expect(read.live?.pauseReason == nil)
    }
}
