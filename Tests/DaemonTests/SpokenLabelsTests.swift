import Glibc
import StillroomCore
import TestSupport
import Testing

/// Spoken labels through the real daemon: keys on its terminal, speech counted in its status.
@Suite struct SpokenLabelsTests {
    func spoken(_ harness: DaemonHarness) -> Int {
        statusJSON(harness.ctl("status", "--json").stdout)["spokenLabels"]?.integerValue ?? -1
    }

    @Test func aBurstOfKnobTurnsSpeaksOnlyWhereItStops() {
        let harness = DaemonHarness(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        harness.start(keys: true)
        harness.ctl("settings", "set", "spoken-labels", "on")
        let before = spoken(harness)
        harness.typeKeys("\u{1B}[B\u{1B}[B\u{1B}[B\u{1B}[A\u{1B}[B") // five turns in a burst
        _ = harness.waitForStatus { statusJSON($0)["spokenLabels"]?.integerValue ?? 0 > before }
        usleep(400_000) // longer than the settle time: any further label would have been spoken by now
        #expect(spoken(harness) == before + 1)
        harness.stop()
    }

    @Test func labelsAreOffByDefault() {
        let harness = DaemonHarness(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        harness.start(keys: true)
        harness.typeKeys("\u{1B}[B\u{1B}[B")
        usleep(400_000)
        #expect(spoken(harness) == 0)
        harness.stop()
    }
}
