import ControlProtocol
import Glibc
import StillroomCore
import TestSupport
import Testing

/// The simulator's keys, typed into the real daemon's stdin (a pipe: the terminal backend reads it the
/// same way, without raw mode).
@Suite struct TerminalKeysTests {
    @Test func spacePlaysTheFirstSessionArrowsSeekJPullsTheHeadphonesQQuits() {
        let harness = DaemonHarness(extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"])
        harness.start(keys: true) // the terminal's headphones start plugged in
        harness.typeKeys(" ")
        let playing = harness.waitForStatus { statusReport($0).state == .playing }
        #expect(statusReport(playing).session == "sweep") // the catalog's first-boot session
        #expect(statusReport(playing).live?.headphones == true)
        harness.typeKeys("j") // pulled out: pause at once
        let paused = harness.waitForStatus { statusReport($0).state == .paused }
        #expect(statusReport(paused).live?.pauseReason == .headphonesRemoved)
        harness.typeKeys("q")
        let status = harness.daemon?.wait()
        #expect(status == 0)
        let log = harness.daemon?.readStderr() ?? ""
        #expect(log.contains("stopping: quit from the terminal"))
        harness.daemon = nil
    }
}
