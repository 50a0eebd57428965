import EventLoop
import Glibc
import TestSupport
import Testing

/// A datagram socket standing in for systemd's notify socket.
final class NotifySocket {
    let fd: Int32
    let path: String

    init(path: String) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(bound == 0, "bind \(path): errno \(errno)")
    }

    /// The next datagram (blocking).
    func receive() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer[..<max(0, count)], as: UTF8.self)
    }

    deinit { close(fd) }
}

extension EventLoopSuite {
@Suite struct SystemdNotifierTests {
    @Test func sendsReadyWatchdogAndStoppingToTheNotifySocket() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let listener = NotifySocket(path: directory.file("notify"))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.path])
        #expect(notifier.isConnected)
        notifier.ready(status: "Playing nothing")
        notifier.watchdog()
        notifier.stopping()
        #expect(listener.receive() == "READY=1\nSTATUS=Playing nothing")
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(listener.receive() == "STOPPING=1")
    }

    @Test func withoutNotifySocketNothingIsSent() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isConnected)
        notifier.ready(status: "ignored") // must not crash
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUsecForThisProcessOnly() {
        let mine = SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "\(getpid())"])
        #expect(mine.watchdogInterval == .seconds(5))
        let other = SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"])
        #expect(other.watchdogInterval == nil)
        let off = SystemdNotifier(environment: [:])
        #expect(off.watchdogInterval == nil)
        let garbage = SystemdNotifier(environment: ["WATCHDOG_USEC": "soon"])
        #expect(garbage.watchdogInterval == nil)
    }
}
}
