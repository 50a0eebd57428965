import EventLoop
import FoundationEssentials
import Glibc
import Testing
import TestSupport

/// Setting CLOCK_REALTIME to its own current value counts as "set" for TFD_TIMER_CANCEL_ON_SET, so the
/// jump can be tested without moving the machine's clock. Needs CAP_SYS_TIME (root here and in CI).
func setClockToItself() -> Bool {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return clock_settime(CLOCK_REALTIME, &now) == 0
}

/// CAP_SYS_TIME: root here and in CI. Without it the clock-set test is a counted skip (a failure under CI).
let canSetClock: Bool = getuid() == 0

/// Serialized: a clock set wakes every loop in the process, so the wake-up count test must not overlap.
extension EventLoopSuite {
@Suite struct WakeUpTests {
    @Test func anIdleLoopWakesOnlyForItsTimer() throws {
        let loop = try EventLoop()
        var fired = false
        let timer = loop.makeTimer { fired = true }
        timer.schedule(after: .milliseconds(30))
        let before = loop.iterations
        while !fired { try loop.runOnce() }
        // Blocking wait, one timerfd wake-up: no polling iterations in between.
        #expect(loop.iterations - before == 1)
    }

    @Test func aClockSetRunsClockChangeHandlersBeforeDueWallTimers() throws {
        guard Requirement.need(canSetClock, "setting CLOCK_REALTIME needs root (CAP_SYS_TIME)") else { return }
        let loop = try EventLoop()
        var events: [String] = []
        loop.onClockChange { events.append("clock changed") }
        let far = loop.makeWallClockTimer { events.append("far timer") }
        far.schedule(at: loop.wallNow.addingTimeInterval(3600))
        #expect(setClockToItself())
        while events.isEmpty { try loop.runOnce() }
        #expect(events == ["clock changed"])
        #expect(far.isScheduled) // not due: still waiting, re-armed with cancel-on-set

        // A second set is noticed too (the timerfd was re-armed).
        #expect(setClockToItself())
        while events.count < 2 { try loop.runOnce() }
        #expect(events == ["clock changed", "clock changed"])
    }

    @Test func wallClockTimersFireAtTheirTime() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        let second = loop.makeWallClockTimer { fired.append("second") }
        let first = loop.makeWallClockTimer { fired.append("first") }
        second.schedule(at: loop.wallNow.addingTimeInterval(0.02))
        first.schedule(at: loop.wallNow.addingTimeInterval(0.01))
        while fired.count < 2 { try loop.runOnce() }
        #expect(fired == ["first", "second"])
        #expect(loop.wallNow >= second.deadline ?? loop.wallNow)
    }
}
}
