import DrivenDaemonSupport
import TestSupport
import Testing

/// The daemon as a test drives it through the real CLI: the real binary (`DaemonHarness`) or the daemon in
/// this process on virtual time (`DrivenDaemon`). Helpers that only run commands and wait on the status
/// take either, so a suite can keep the real binary for what only a process shows (a kill -9) and run the
/// rest on virtual time.
protocol DaemonUnderTest: AnyObject {
    var dataDirectory: String { get }
    func ctl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String)
    /// Waits (the real binary: polls in real time; the driven daemon: moves its virtual time) until
    /// `condition` holds on `stillroomctl status --json`'s text; returns that text.
    func waitForStatusText(sourceLocation: SourceLocation, _ condition: (String) -> Bool) -> String
}

extension DaemonUnderTest {
    /// Giving up fails the test at the caller's line.
    func waitUntil(sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool) -> String {
        waitForStatusText(sourceLocation: sourceLocation, condition)
    }

    @discardableResult
    func ctl(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) { ctl(arguments) }
}

extension DaemonHarness: DaemonUnderTest {
    func waitForStatusText(sourceLocation: SourceLocation, _ condition: (String) -> Bool) -> String {
        waitForStatus(sourceLocation: sourceLocation, condition)
    }
}

extension DrivenDaemon: DaemonUnderTest {
    func waitForStatusText(sourceLocation: SourceLocation, _ condition: (String) -> Bool) -> String {
        waitForStatus(sourceLocation: sourceLocation, condition)
    }
}


/// A daemon with keys on its terminal (`--input terminal`), either kind.
protocol KeyedDaemon: DaemonUnderTest {
    func typeKeys(_ keys: String)
}

extension DaemonHarness: KeyedDaemon {}
extension DrivenDaemon: KeyedDaemon {}
