import ControlProtocol
import DrivenDaemonSupport
import Testing

/// A device's report never re-enters the box while the box's effects are being performed (Daemon+Box's
/// `report`): the engine opens a recording at once and says so from inside `.load`, but the box hears it
/// only once everything PLAY asked for is done.
@Suite struct DeviceReportsTests {
    /// The box heard PLAY to its end — the player shown loading, logged — before it heard the recording
    /// loaded, then played. Seen failing with the engine's report fed at once: "loading" never logged,
    /// the box having heard `.loaded` in the middle of PLAY's effects and PLAY's end finding it playing.
    @Test func theEnginesAnswerToALoadIsHeardAfterEverythingPlayAskedFor() throws {
        let harness = DrivenDaemon()
        try harness.start()
        defer { harness.stop() }
        #expect(throws: Never.self) { try harness.request(.play(session: "sweep")).get() }
        #expect(harness.status().state == .playing)
        let lines = harness.log.split(separator: "\n")
        let loading = try #require(lines.firstIndex { $0.contains("loading sweep") }, "\(lines)")
        let playing = try #require(lines.firstIndex { $0.contains("playing sweep from 0:00") }, "\(lines)")
        #expect(loading < playing, "\(lines)")
    }
}
