import EventLoop
import FoundationEssentials
import MonotonicTime
import SystemCalls

/// An event loop on virtual time, and the hand that moves that time: the loop seam's test side.
///
/// The loop is the real `EventLoop` (real epoll, real descriptors: sockets, inotify, pipes), but its clock
/// is a `ManualClock`, so timers fire when the test moves time and never because time passed. Moving time
/// stops at every deadline on the way, in order, and runs what is ready there before going on, exactly as
/// the kernel's clocks would have fired them, only without the waiting: a paced sink plays a minute of
/// audio, checkpoints are taken and a session completes in the time the work itself takes.
public final class VirtualLoop {
    public let clock: ManualClock
    public let loop: EventLoop
    /// The most iterations one `settle` may take: more means a timer re-arms itself at its own deadline
    /// (a loop that would spin on the box too), which is a failure, not something to wait out.
    public static let turnLimit = 100_000
    /// The longest one turn of the loop took in real time (the kernel's clock, not the virtual one): what
    /// a turn kept everything else waiting, the watchdog's ping among them. Virtual time stands still
    /// within a turn, so only the real clock can see a stall.
    public private(set) var longestTurn: Duration = .zero
    /// Run after time reaches each deadline and what was due there ran: a caller's wait for work that
    /// ends outside the loop's clock (a transfer through the kernel's loopback), so that work lands at the
    /// virtual instant it began, not at a later step's.
    public var afterEachStep: (() -> Void)?

    public init(clock: ManualClock = ManualClock()) throws(SystemError) {
        self.clock = clock
        loop = try EventLoop(clock: clock)
    }

    /// Runs everything ready now (descriptors that are ready, timers that are due) until nothing is.
    /// Time does not move. Returns the number of handlers run.
    @discardableResult
    public func settle() throws(SystemError) -> Int {
        var total = 0
        for _ in 0..<Self.turnLimit {
            let started = SystemClocks.monotonicNow()
            let dispatched = try loop.runOnce(timeout: .zero)
            longestTurn = max(longestTurn, SystemClocks.monotonicNow() - started)
            if dispatched == 0 { return total }
            total += dispatched
        }
        preconditionFailure("the loop never settles: something re-arms itself at its own deadline")
    }

    /// When the next timer is due on the monotonic clock, counting wall-clock timers by the wall time
    /// left until them; nil when no timer waits.
    public var nextEvent: MonotonicInstant? {
        let wall = loop.nextWallDeadline.map { deadline -> MonotonicInstant in
            let seconds = max(0, deadline.timeIntervalSince(clock.wallNow))
            return clock.now + .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
        }
        switch (loop.nextDeadline, wall) {
        case let (monotonic?, wall?): return min(monotonic, wall)
        case let (monotonic?, nil): return monotonic
        case let (nil, wall?): return wall
        case (nil, nil): return nil
        }
    }

    /// Moves time forward by `duration`, stopping at each deadline on the way and settling there.
    public func advance(by duration: Duration) throws(SystemError) {
        let target = clock.now + duration
        try settle()
        while let next = nextEvent, next <= target {
            try step(to: next)
        }
        clock.advance(to: target)
        try settle()
        afterEachStep?()
    }

    /// Moves time forward deadline by deadline until `condition` holds, for at most `limit` of virtual
    /// time; returns whether it held. A guard against a hang, not a timing: the caller's expectations
    /// then fail on what the state is.
    public func advance(until condition: () -> Bool, within limit: Duration) throws(SystemError) -> Bool {
        let target = clock.now + limit
        try settle()
        while !condition() {
            guard let next = nextEvent, next <= target else {
                clock.advance(to: target)
                try settle()
                afterEachStep?()
                return condition()
            }
            try step(to: next)
        }
        return true
    }

    /// Moves time to `next` (a deadline) and runs what is due there. A deadline still waiting at or before
    /// the time reached means its timer did not fire: a broken loop, which must fail rather than spin.
    private func step(to next: MonotonicInstant) throws(SystemError) {
        clock.advance(to: next)
        try settle()
        afterEachStep?()
        if let still = nextEvent, still <= next, still <= clock.now {
            preconditionFailure("a timer due at \(still) did not fire when time reached it")
        }
    }
}
