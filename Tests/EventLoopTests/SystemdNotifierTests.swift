import EventLoop
import Glibc
import TestSupport
import Testing

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
