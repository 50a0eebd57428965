import ControlProtocol
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
    func settled(_ harness: DrivenDaemon, events: Int) -> StatusReport {
        statusReport(harness.waitForStatus {
            let status = statusReport($0)
            return status.observed.inputEvents >= events && !status.observed.labelPending
        })
    }

    @Test func aBurstOfKnobTurnsSpeaksOnlyWhereItStops() throws {
        let harness = DrivenDaemon(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        try harness.start(keys: true)
        harness.ctl("settings", "set", "spoken-labels", "on")
        let before = statusReport(harness.ctl("status", "--json").stdout)
        let spokenBefore = before.observed.spokenLabels
        let eventsBefore = before.observed.inputEvents
        harness.typeKeys("\u{1B}[B\u{1B}[B\u{1B}[B\u{1B}[A\u{1B}[B") // five turns in a burst
        let after = settled(harness, events: eventsBefore + 5)
        #expect(after.observed.inputEvents == eventsBefore + 5, "\(after)")
        #expect(after.observed.spokenLabels == spokenBefore + 1)
        harness.stop()
    }

    @Test func labelsAreOffByDefault() throws {
        let harness = DrivenDaemon(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        try harness.start(keys: true)
        // The count before typing (the terminal backend reports the jack's state at start, for one).
        let eventsBefore = statusReport(harness.ctl("status", "--json").stdout).observed.inputEvents
        harness.typeKeys("\u{1B}[B\u{1B}[B")
        let after = settled(harness, events: eventsBefore + 2)
        #expect(after.observed.inputEvents == eventsBefore + 2, "\(after)")
        #expect(after.observed.spokenLabels == 0)
        harness.stop()
    }
}
