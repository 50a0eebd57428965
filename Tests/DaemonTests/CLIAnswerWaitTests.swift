import ControlProtocol
import Glibc
import TestSupport
import Testing

/// What the real stillroomctl says when the daemon takes its request and does not answer: a daemon too
/// busy to answer in time is not one that closed the connection, and the person is told which, and how to
/// give it longer. The daemon here is a bare listening socket that never reads.
@Suite struct CLIAnswerWaitTests {
    /// A Unix stream socket listening at `path`, whose connections the kernel queues and nobody serves.
    final class SilentListener {
        let fd: Int32

        init(path: String) {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let bound = withUnixSocketAddress(path) { bind(fd, $0, $1) }
            precondition(bound == 0 && listen(fd, 4) == 0, "listen \(path): errno \(errno)")
        }

        /// Takes the waiting connection, reads its request line, and closes it unanswered.
        func acceptReadAndClose() {
            let connection = accept(fd, nil, nil)
            precondition(connection >= 0, "accept: errno \(errno)")
            var byte: UInt8 = 0
            while read(connection, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
            close(connection)
        }

        deinit { close(fd) }
    }

    @Test func aDaemonThatDoesNotAnswerInTimeIsSaidToBeSlowNotGone() throws {
        let directory = TemporaryDirectory("stillroom-cli-wait")
        defer { directory.remove() }
        let socketPath = directory.file("control.sock")
        let listener = SilentListener(path: socketPath)
        let result = Subprocess.run(BuiltProducts.path("stillroomctl"), ["--socket", socketPath, "--wait", "1", "status"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the daemon did not answer within 1 s"), "\(result.stderr)")
        #expect(result.stderr.contains("--wait gives it longer"), "\(result.stderr)")
        #expect(!result.stderr.contains("closed the connection"), "\(result.stderr)")
        _ = listener
    }

    @Test func aDaemonThatClosesWithoutAnsweringIsSaidToHaveClosed() throws {
        let directory = TemporaryDirectory("stillroom-cli-wait")
        defer { directory.remove() }
        let socketPath = directory.file("control.sock")
        let listener = SilentListener(path: socketPath)
        let process = Subprocess(BuiltProducts.path("stillroomctl"), ["--socket", socketPath, "status"])
        listener.acceptReadAndClose()
        let stderr = process.readStderr()
        #expect(process.wait() == 1)
        #expect(stderr.contains("the daemon closed the connection without answering"), "\(stderr)")
    }

    @Test(arguments: ["0", "-5", "3601", "1e9", "ten", "", "99999999999999999999999"])
    func anAbsurdWaitIsAWrongCommandLine(_ value: String) {
        let result = Subprocess.run(BuiltProducts.path("stillroomctl"), ["--socket", "/nonexistent/control.sock", "--wait", value, "status"])
        #expect(result.status == 2, "--wait \(value): \(result.stderr)")
        #expect(result.stderr.contains("--wait takes whole seconds from 1 to 3600"), "\(result.stderr)")
    }

    /// The real daemon, stopped (SIGSTOP: a loop wedged, or an emulated box busy past the wait): `pause`
    /// is told it was not answered in time. Once the daemon runs again it carries out the pause that was
    /// waiting in its socket, as the message says, and answers the next request; nothing else changed.
    @Test func aStoppedDaemonIsSaidNotToAnswerAndCarriesTheRequestOutOnceItRuns() throws {
        let harness = DaemonHarness()
        harness.start()
        defer { harness.stop() }
        #expect(harness.ctl("play", "long").status == 0)
        let daemon = try #require(harness.daemon)
        daemon.signal(SIGSTOP)
        let late = harness.ctl("--wait", "1", "pause")
        daemon.signal(SIGCONT)
        #expect(late.status == 1)
        #expect(late.stderr.contains("the daemon did not answer within 1 s"), "\(late.stderr)")
        #expect(late.stderr.contains("it will still carry the request out"), "\(late.stderr)")
        let status = harness.waitForStatus { statusReport($0).state == .paused || statusReport($0).state == .ended }
        #expect(statusReport(status).state == .paused, "\(status)")
        #expect(statusReport(status).session == "long", "\(status)")
        #expect(statusReport(status).live?.pauseReason == .user, "\(status)")
    }
}
