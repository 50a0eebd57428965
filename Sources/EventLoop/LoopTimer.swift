import FoundationEssentials
import MonotonicTime

/// A one-shot timer on the monotonic clock. Re-schedule it from its handler to repeat.
public final class LoopTimer: ScheduledTimer {
    private weak var loop: EventLoop?
    private let handler: () -> Void
    var scheduledSequence: UInt64?
    /// When it will fire; nil when not scheduled.
    public private(set) var deadline: MonotonicInstant?

    init(loop: EventLoop, handler: @escaping () -> Void) {
        self.loop = loop
        self.handler = handler
    }

    /// Fires at `deadline` (at once, on the next iteration, if it has passed).
    public func schedule(at deadline: MonotonicInstant) {
        guard let loop else { return }
        self.deadline = deadline
        loop.monotonicQueue.schedule(self, at: deadline)
    }

    /// Fires `delay` after the current iteration's `now`.
    public func schedule(after delay: Duration) {
        guard let loop else { return }
        schedule(at: loop.now + delay)
    }

    public func cancel() {
        deadline = nil
        loop?.monotonicQueue.remove(self)
    }

    public var isScheduled: Bool { scheduledSequence != nil }

    func fire() {
        deadline = nil
        handler()
    }
}

/// A one-shot timer on the wall clock, for times of day (reminders). A clock jump runs the loop's
/// clock-change handlers first; a timer the jump made due then fires.
public final class WallClockTimer: ScheduledTimer {
    private weak var loop: EventLoop?
    private let handler: () -> Void
    var scheduledSequence: UInt64?
    public private(set) var deadline: Date?

    init(loop: EventLoop, handler: @escaping () -> Void) {
        self.loop = loop
        self.handler = handler
    }

    public func schedule(at deadline: Date) {
        guard let loop else { return }
        self.deadline = deadline
        loop.wallQueue.schedule(self, at: deadline)
    }

    public func cancel() {
        deadline = nil
        loop?.wallQueue.remove(self)
    }

    public var isScheduled: Bool { scheduledSequence != nil }

    func fire() {
        deadline = nil
        handler()
    }
}
