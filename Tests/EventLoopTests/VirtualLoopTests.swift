import DeviceFakes
import EventLoop
import FoundationEssentials
import Glibc
import MonotonicTime
import Testing

/// The loop on virtual time (DeviceFakes' VirtualLoop): the same EventLoop, on a manual clock. Timers fire
/// when the test moves time, at their own deadline, in order; descriptors still work; nothing waits.
@Suite struct VirtualLoopTests {
    @Test func timersFireOnlyWhenTimeIsMovedEachAtItsOwnDeadlineInOrder() throws {
        let virtual = try VirtualLoop()
        let start = virtual.loop.now
        var fired: [(String, Duration)] = []
        let late = virtual.loop.makeTimer { fired.append(("late", virtual.loop.now - start)) }
        let early = virtual.loop.makeTimer { fired.append(("early", virtual.loop.now - start)) }
        late.schedule(after: .seconds(90))
        early.schedule(after: .milliseconds(250))
        try virtual.settle()
        #expect(fired.isEmpty, "a timer fired before its time was reached")
        try virtual.advance(by: .seconds(60))
        #expect(fired.map(\.0) == ["early"])
        #expect(fired.first?.1 == .milliseconds(250), "the handler saw the loop's time at its own deadline")
        try virtual.advance(by: .seconds(60))
        #expect(fired.map(\.0) == ["early", "late"])
        #expect(fired.last?.1 == .seconds(90))
        #expect(virtual.loop.now - start == .seconds(120))
    }

    @Test func anHourOfARepeatingTimerIsEveryTickAndTheWallClockMovesWithIt() throws {
        let virtual = try VirtualLoop()
        let wallAtStart = virtual.loop.wallNow
        var ticks = 0
        var timer: LoopTimer!
        timer = virtual.loop.makeTimer {
            ticks += 1
            timer.schedule(after: .seconds(10))
        }
        timer.schedule(after: .seconds(10))
        try virtual.advance(by: .seconds(3600))
        #expect(ticks == 360)
        #expect(virtual.loop.wallNow.timeIntervalSince(wallAtStart) == 3600)
    }

    @Test func aWallTimerFiresWhenWallTimeReachesItAndAJumpRunsTheClockHandlersFirst() throws {
        let virtual = try VirtualLoop()
        var events: [String] = []
        virtual.loop.onClockChange { events.append("clock set") }
        let inAMinute = virtual.loop.makeWallClockTimer { events.append("in a minute") }
        inAMinute.schedule(at: virtual.loop.wallNow.addingTimeInterval(60))
        let tomorrow = virtual.loop.makeWallClockTimer { events.append("tomorrow") }
        tomorrow.schedule(at: virtual.loop.wallNow.addingTimeInterval(86_400))
        try virtual.advance(by: .seconds(59))
        #expect(events.isEmpty)
        try virtual.advance(by: .seconds(1))
        #expect(events == ["in a minute"])
        // A time sync moves the wall clock a day on: the handlers run, then the timer the jump made due.
        virtual.clock.setWall(virtual.loop.wallNow.addingTimeInterval(86_400))
        try virtual.settle()
        #expect(events == ["in a minute", "clock set", "tomorrow"])
        try virtual.settle()
        #expect(events.count == 3, "one jump is reported once")
    }

    @Test func readyDescriptorsAreDispatchedWithoutTimeMoving() throws {
        let virtual = try VirtualLoop()
        let pipe = Pipe()
        defer { pipe.closeBoth() }
        var received = ""
        let watch = try virtual.loop.watch(pipe.readEnd, for: .readable) { _ in received += pipe.drain() }
        defer { watch.cancel() }
        let before = virtual.loop.now
        pipe.send("hello")
        try virtual.settle()
        #expect(received == "hello")
        #expect(virtual.loop.now == before)
    }

    @Test func advancingUntilAConditionStopsAtTheDeadlineThatMadeItTrueOrAtTheLimit() throws {
        let virtual = try VirtualLoop()
        let start = virtual.loop.now
        var done = false
        let timer = virtual.loop.makeTimer { done = true }
        timer.schedule(after: .seconds(42))
        #expect(try virtual.advance(until: { done }, within: .seconds(600)))
        #expect(virtual.loop.now - start == .seconds(42))
        #expect(try !virtual.advance(until: { false }, within: .seconds(5)))
        #expect(virtual.loop.now - start == .seconds(47))
    }

    /// A handler that keeps the loop busy (here: moves the clock itself, as a stall would) makes a turn
    /// longer than the limit, and only that turn is reported, with its length; a turn at the limit is not.
    @Test func aTurnLongerThanTheLimitIsReportedWithItsLengthAndNoOtherIs() throws {
        let virtual = try VirtualLoop()
        var reported: [Duration] = []
        virtual.loop.reportSlowTurns(longerThan: .seconds(2)) { reported.append($0) }
        let atTheLimit = virtual.loop.makeTimer { virtual.clock.advance(by: .seconds(2)) }
        atTheLimit.schedule(after: .seconds(1))
        try virtual.advance(by: .seconds(10))
        #expect(reported.isEmpty, "a turn of exactly the limit was reported")
        let stalled = virtual.loop.makeTimer { virtual.clock.advance(by: .seconds(7)) }
        stalled.schedule(after: .seconds(1))
        try virtual.advance(by: .seconds(10))
        #expect(reported == [.seconds(7)])
        try virtual.advance(by: .seconds(60))
        #expect(reported == [.seconds(7)], "an idle loop reported a slow turn")
    }
}
