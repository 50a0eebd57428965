import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// The breathing timer from the box's controls, through the daemon (in this process, on virtual time):
/// keys on its terminal, the timer read back over the control socket.
@Suite struct BreathingTimerKeysTests {
    func timer(_ harness: DrivenDaemon) -> JSONValue {
        statusJSON(harness.ctl("timer", "--json").stdout)
    }

    /// The stored value of a setting, as `stillroomctl settings --json` lists it.
    func setting(_ harness: DrivenDaemon, _ key: String) -> String? {
        statusJSON(harness.ctl("settings", "--json").stdout)["settings"]?.arrayValue?
            .first { $0["key"]?.stringValue == key }?["value"]?.stringValue
    }

    @Test func theLibraryCardSetsUpStartsAndStopsTheTimer() throws {
        let harness = DrivenDaemon(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        try harness.start(keys: true)
        // The library: the filter, Sweep (focused), Long sweep, then the timer's card.
        harness.typeKeys("\u{1B}[B\u{1B}[B")
        harness.typeKeys("\r") // the set-up: Start focused
        harness.typeKeys("\u{1B}[B\r") // Length: 5 → 10 minutes, remembered as a setting
        _ = harness.waitForStatus { _ in setting(harness, "timer-minutes") == "10" }
        #expect(setting(harness, "timer-minutes") == "10")
        harness.typeKeys(" ") // PLAY starts it
        _ = harness.waitForStatus { _ in timer(harness)["running"] == .bool(true) }
        #expect(timer(harness)["running"] == .bool(true))
        let running = timer(harness)
        #expect(running["pattern"] == .string("4-6"))
        #expect(running["minutes"]?.doubleValue == 10)
        // BACK stops it (a lone Esc).
        harness.typeKeys("\u{1B}")
        _ = harness.waitForStatus { _ in timer(harness)["running"] == .bool(false) }
        #expect(timer(harness)["running"] == .bool(false))
        // The CLI's start, with no choice given, uses the one made on the box.
        harness.ctl("timer", "start")
        #expect(timer(harness)["minutes"]?.doubleValue == 10)
        harness.ctl("timer", "stop")
        harness.stop()
    }
}
