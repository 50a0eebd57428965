import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// Spoken labels through the daemon (in this process, on virtual time): keys on its terminal, speech
/// counted in its status. Nothing is asserted until the daemon says it has handled every key typed and
/// holds no label waiting out its settle: then whatever was going to be spoken has been.
@Suite struct SpokenLabelsTests {
    /// Waits until the daemon has handled `events` input events in all and has no label pending; returns
    /// that status.
    func settled(_ harness: DrivenDaemon, events: Int) -> JSONValue {
        statusJSON(harness.waitForStatus {
            let status = statusJSON($0)
            return (status["inputEvents"]?.integerValue ?? 0) >= events && status["labelPending"]?.boolValue == false
        })
    }

    @Test func aBurstOfKnobTurnsSpeaksOnlyWhereItStops() throws {
        let harness = DrivenDaemon(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        try harness.start(keys: true)
        harness.ctl("settings", "set", "spoken-labels", "on")
        let before = statusJSON(harness.ctl("status", "--json").stdout)
        let spokenBefore = before["spokenLabels"]?.integerValue ?? -1
        let eventsBefore = before["inputEvents"]?.integerValue ?? -1
        harness.typeKeys("\u{1B}[B\u{1B}[B\u{1B}[B\u{1B}[A\u{1B}[B") // five turns in a burst
        let after = settled(harness, events: eventsBefore + 5)
        #expect(after["inputEvents"]?.integerValue == eventsBefore + 5, "\(after)")
        #expect(after["spokenLabels"]?.integerValue == spokenBefore + 1)
        harness.stop()
    }

    @Test func labelsAreOffByDefault() throws {
        let harness = DrivenDaemon(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        try harness.start(keys: true)
        // The count before typing (the terminal backend reports the jack's state at start, for one).
        let eventsBefore = statusJSON(harness.ctl("status", "--json").stdout)["inputEvents"]?.integerValue ?? -1
        harness.typeKeys("\u{1B}[B\u{1B}[B")
        let after = settled(harness, events: eventsBefore + 2)
        #expect(after["inputEvents"]?.integerValue == eventsBefore + 2, "\(after)")
        #expect(after["spokenLabels"]?.integerValue == 0)
        harness.stop()
    }
}
