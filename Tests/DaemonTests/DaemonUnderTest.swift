import DrivenDaemonSupport
import TestSupport

/// The daemon as a test drives it through the real CLI: the real binary (`DaemonHarness`) or the daemon in
/// this process on virtual time (`DrivenDaemon`). Helpers that only run commands and wait on the status
/// take either, so a suite can keep the real binary for what only a process shows (a kill -9) and run the
/// rest on virtual time.
protocol DaemonUnderTest: AnyObject {
    var dataDirectory: String { get }
    func ctl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String)
    /// Waits (the real binary: polls in real time; the driven daemon: moves its virtual time) until
    /// `condition` holds on `stillroomctl status --json`'s text; returns that text.
    func waitUntil(_ condition: (String) -> Bool) -> String
}

extension DaemonUnderTest {
    @discardableResult
    func ctl(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) { ctl(arguments) }
}

extension DaemonHarness: DaemonUnderTest {
    func waitUntil(_ condition: (String) -> Bool) -> String { waitForStatus(condition) }
}

extension DrivenDaemon: DaemonUnderTest {
    func waitUntil(_ condition: (String) -> Bool) -> String { waitForStatus(condition) }
}


/// A daemon with keys on its terminal (`--input terminal`), either kind.
protocol KeyedDaemon: DaemonUnderTest {
    func typeKeys(_ keys: String)
}

extension DaemonHarness: KeyedDaemon {}
extension DrivenDaemon: KeyedDaemon {}
