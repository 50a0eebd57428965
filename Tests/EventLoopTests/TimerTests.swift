import EventLoop
import StillroomCore
import Testing

/// Runs the loop until `done()` holds. No time limit here: a hang is a failure the test runner reports.
func run(_ loop: EventLoop, until done: () -> Bool) throws {
    while !done() { try loop.runOnce() }
}

extension EventLoopSuite {
@Suite struct TimerTests {
    @Test func timersFireInDeadlineOrderAndTiesInScheduleOrder() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        let late = loop.makeTimer { fired.append("late") }
        let tieFirst = loop.makeTimer { fired.append("tie-1") }
        let tieSecond = loop.makeTimer { fired.append("tie-2") }
        let early = loop.makeTimer { fired.append("early") }
        let base = loop.now
        late.schedule(at: base + .milliseconds(30))
        tieFirst.schedule(at: base + .milliseconds(20))
        tieSecond.schedule(at: base + .milliseconds(20))
        early.schedule(at: base + .milliseconds(10))
        try run(loop) { fired.count == 4 }
        #expect(fired == ["early", "tie-1", "tie-2", "late"])
    }

    @Test func timersDueInTheSameIterationStillFireInDeadlineOrder() throws {
        let loop = try EventLoop()
        var fired: [Int] = []
        let timers = (0..<5).map { index in loop.makeTimer { fired.append(index) } }
        // All deadlines are in the past: one wake-up, five timers, deadline order.
        for (index, timer) in timers.enumerated().reversed() {
            timer.schedule(at: MonotonicInstant(nanoseconds: UInt64(1000 + index)))
        }
        try loop.runOnce()
        #expect(fired == [0, 1, 2, 3, 4])
    }

    @Test func aCancelledTimerDoesNotFire() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        let cancelled = loop.makeTimer { fired.append("cancelled") }
        let kept = loop.makeTimer { fired.append("kept") }
        cancelled.schedule(after: .milliseconds(1))
        kept.schedule(after: .milliseconds(5))
        cancelled.cancel()
        #expect(!cancelled.isScheduled)
        try run(loop) { !fired.isEmpty }
        #expect(fired == ["kept"])
    }

    @Test func aTimerCancelledByAnEarlierTimerInTheSameBatchDoesNotFire() throws {
        let loop = try EventLoop()
        var fired: [String] = []
        var victim: LoopTimer!
        let killer = loop.makeTimer {
            fired.append("killer")
            victim.cancel()
        }
        victim = loop.makeTimer { fired.append("victim") }
        killer.schedule(at: MonotonicInstant(nanoseconds: 1))
        victim.schedule(at: MonotonicInstant(nanoseconds: 2))
        try loop.runOnce()
        #expect(fired == ["killer"])
    }

    @Test func reArmingFromTheHandlerRepeatsAndReschedulingMovesTheDeadline() throws {
        let loop = try EventLoop()
        var count = 0
        var ticker: LoopTimer!
        ticker = loop.makeTimer {
            count += 1
            if count < 3 { ticker.schedule(after: .milliseconds(1)) }
        }
        ticker.schedule(after: .milliseconds(1))
        try run(loop) { count == 3 }
        #expect(!ticker.isScheduled)

        var order: [String] = []
        let moved = loop.makeTimer { order.append("moved") }
        let fixed = loop.makeTimer { order.append("fixed") }
        moved.schedule(after: .milliseconds(1))
        fixed.schedule(after: .milliseconds(10))
        moved.schedule(after: .milliseconds(20)) // re-scheduling replaces the earlier deadline
        try run(loop) { order.count == 2 }
        #expect(order == ["fixed", "moved"])
    }

    @Test func theClockIsReadOncePerIteration() throws {
        let loop = try EventLoop()
        var seen: [MonotonicInstant] = []
        let a = loop.makeTimer { seen.append(loop.now) }
        let b = loop.makeTimer { seen.append(loop.now) }
        a.schedule(at: MonotonicInstant(nanoseconds: 1))
        b.schedule(at: MonotonicInstant(nanoseconds: 2))
        try loop.runOnce()
        #expect(seen.count == 2)
        #expect(seen[0] == seen[1])
    }
}
}
