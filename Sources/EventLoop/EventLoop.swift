import FoundationEssentials
import Glibc
import MonotonicTime
import SystemCalls

/// One thread, one epoll: every source of work is a file descriptor in this loop.
///
/// Each iteration waits in epoll_wait, then reads the clocks once (`now`, `wallNow`) and dispatches the
/// ready descriptors. Timers are kept in two queues. On the kernel's clocks each queue sits behind one
/// timerfd: monotonic timers, and wall-clock timers whose timerfd uses TFD_TIMER_CANCEL_ON_SET so a set
/// clock (time sync, manual change) is noticed. On a manual clock (`init(clock:)`, tests on virtual time)
/// there are no timerfds: each iteration fires the timers the clock has made due, and waits only for
/// descriptors. Not thread-safe: everything but `wake()` must be called on the loop's thread.
public final class EventLoop {
    /// The monotonic time read when the current iteration woke up.
    public private(set) var now: MonotonicInstant
    /// The wall-clock time read when the current iteration woke up.
    public private(set) var wallNow: Date
    /// Completed iterations; tests use it to show that an idle loop does not spin.
    public private(set) var iterations: UInt64 = 0

    private let epoll: Epoll
    private var registrations: [Int32: Registration] = [:]
    private var nextGeneration: UInt32 = 1
    private var stopRequested = false

    /// The clock every reading comes from (the kernel's, or a manual one under test).
    private let clock: LoopClock
    /// The timerfds, on the kernel's clocks only: a manual clock's time never has to be waited for.
    private let monotonicTimerFD: TimerFD?
    private let wallTimerFD: TimerFD?
    private var wallSetsSeen: UInt64 = 0
    var monotonicQueue = TimerQueue<MonotonicInstant>()
    var wallQueue = TimerQueue<Date>()
    private var armedMonotonic: MonotonicInstant?
    private var armedWall: Date??
    private var clockChangeHandlers: [() -> Void] = []
    private var clockChangePending = false
    private var slowTurnLimit: Duration?
    private var slowTurnHandler: ((Duration) -> Void)?

    /// How fast the loop's clocks run against the kernel's (1 on the box; more in time-warped soaks).
    public let timeWarp: TimeWarp

    private let wakeFD: EventFD
    private var wakeHandler: (() -> Void)?
    private var signalFD: SignalFD?
    private var signalHandler: ((Int32) -> Void)?

    struct Registration {
        let generation: UInt32
        let handler: (IOEvents) -> Void
    }

    /// `timeWarpFactor` > 1 makes `now`, `wallNow` and every timer run that many times faster than the
    /// kernel's clocks (simulated devices only: real hardware keeps real time).
    public convenience init(timeWarpFactor: Int64 = 1) throws(SystemError) {
        let warp = timeWarpFactor == 1 ? TimeWarp.none
            : TimeWarp(factor: timeWarpFactor, monotonicOrigin: SystemClocks.monotonicNanoseconds(),
                       wallOrigin: SystemClocks.wallNanoseconds())
        try self.init(clock: KernelClock(timeWarp: warp))
    }

    /// A loop on `clock`. With a clock other than the kernel's (a manual one), time moves only when the
    /// clock is moved: each iteration fires what is due by then, and nothing ever waits for a deadline.
    public init(clock: LoopClock) throws(SystemError) {
        epoll = try Epoll()
        self.clock = clock
        let kernel = clock as? KernelClock
        monotonicTimerFD = kernel == nil ? nil : try TimerFD(clock: CLOCK_MONOTONIC)
        wallTimerFD = kernel == nil ? nil : try TimerFD(clock: CLOCK_REALTIME)
        wakeFD = try EventFD()
        timeWarp = kernel?.timeWarp ?? .none
        wallSetsSeen = clock.wallSets
        now = .zero
        wallNow = Date(timeIntervalSince1970: 0)
        readClocks()
        if let monotonicTimerFD, let wallTimerFD {
            _ = try register(monotonicTimerFD.fd, events: .readable) { [unowned self] _ in monotonicTimerFired() }
            _ = try register(wallTimerFD.fd, events: .readable) { [unowned self] _ in wallTimerFired() }
        }
        _ = try register(wakeFD.fd, events: .readable) { [unowned self] _ in
            wakeFD.consume()
            wakeHandler?()
        }
        // Armed from the start so a clock jump is noticed even before any wall timer exists.
        try armWallTimerFD()
    }

    // MARK: File descriptors

    /// Watches `fd` for `events`; `handler` runs on the loop with the events that were ready.
    ///
    /// The caller keeps owning `fd`: cancel the watch before closing it. An event already collected for
    /// a watch that was cancelled (or for a new watch that reused the same descriptor number) is dropped.
    public func watch(_ fd: Int32, for events: IOEvents,
                      handler: @escaping (IOEvents) -> Void) throws(SystemError) -> IOWatch {
        let generation = try register(fd, events: events, handler: handler)
        return IOWatch(loop: self, fd: fd, generation: generation)
    }

    private func register(_ fd: Int32, events: IOEvents,
                          handler: @escaping (IOEvents) -> Void) throws(SystemError) -> UInt32 {
        precondition(registrations[fd] == nil, "fd \(fd) is already watched")
        let generation = nextGeneration
        nextGeneration = nextGeneration == UInt32.max ? 1 : nextGeneration + 1
        try epoll.add(fd, events: events, data: Self.pack(fd: fd, generation: generation))
        registrations[fd] = Registration(generation: generation, handler: handler)
        return generation
    }

    func update(_ watch: IOWatch, events: IOEvents) throws(SystemError) {
        guard registrations[watch.fd]?.generation == watch.generation else { return }
        try epoll.modify(watch.fd, events: events, data: Self.pack(fd: watch.fd, generation: watch.generation))
    }

    func cancel(_ watch: IOWatch) {
        guard registrations[watch.fd]?.generation == watch.generation else { return }
        registrations[watch.fd] = nil
        epoll.remove(watch.fd)
    }

    /// Whether `watch` is still registered (not cancelled).
    func isActive(_ watch: IOWatch) -> Bool { registrations[watch.fd]?.generation == watch.generation }

    static func pack(fd: Int32, generation: UInt32) -> UInt64 {
        UInt64(generation) << 32 | UInt64(UInt32(bitPattern: fd))
    }

    // MARK: Signals and wake-ups

    /// Routes `signals` to `handler` through a signalfd (they are blocked for normal delivery).
    /// Call once, before any other thread exists, so every thread inherits the blocked mask.
    public func handleSignals(_ signals: [Int32], handler: @escaping (Int32) -> Void) throws(SystemError) {
        precondition(signalFD == nil, "signals are routed once")
        let made = try SignalFD(signals: signals)
        signalFD = made
        signalHandler = handler
        _ = try register(made.fd, events: .readable) { [unowned self] _ in
            for signal in made.consume() { signalHandler?(signal) }
        }
    }

    /// Sets what runs on the loop after `wake()`; several wakes before the loop runs coalesce into one call.
    public func onWake(_ handler: @escaping () -> Void) { wakeHandler = handler }

    /// Wakes the loop. Use `waker` to wake it from another thread.
    public func wake() { wakeFD.signal() }

    var wakeDescriptor: Int32 { wakeFD.fd }

    /// Calls `handler` with the time one iteration spent dispatching when that time is over `limit`: a turn
    /// that long delays every other source, the watchdog's ping among them, and the log should say so.
    public func reportSlowTurns(longerThan limit: Duration, _ handler: @escaping (Duration) -> Void) {
        slowTurnLimit = limit
        slowTurnHandler = handler
    }

    /// Adds a handler called when the wall clock is set (a jump, not the normal passing of time).
    /// Handlers run before any wall-clock timer the jump made due.
    public func onClockChange(_ handler: @escaping () -> Void) { clockChangeHandlers.append(handler) }

    // MARK: Running

    /// Waits up to `timeout` (nil: until something happens), then dispatches what is ready.
    /// Returns the number of descriptors dispatched.
    @discardableResult
    public func runOnce(timeout: Duration? = nil) throws(SystemError) -> Int {
        try armTimerFDs()
        let milliseconds: Int32
        if clockChangePending || virtualTimersDue {
            milliseconds = 0
        } else if let timeout {
            let nanos = max(0, timeout.totalNanoseconds)
            milliseconds = Int32(clamping: (nanos + 999_999) / 1_000_000)
        } else {
            milliseconds = -1
        }
        let ready = try epoll.wait(timeoutMilliseconds: milliseconds)
        readClocks()
        var dispatched = 0
        if clock.wallSets != wallSetsSeen {
            wallSetsSeen = clock.wallSets
            clockChangePending = true
        }
        if clockChangePending {
            clockChangePending = false
            clockWasSet()
            dispatched += 1
        }
        if monotonicTimerFD == nil { dispatched += fireVirtualTimers() }
        for (events, data) in ready {
            let fd = Int32(bitPattern: UInt32(truncatingIfNeeded: data))
            let generation = UInt32(truncatingIfNeeded: data >> 32)
            // A handler earlier in this batch may have cancelled this watch, or closed the fd and
            // registered a new one with the same number: the generation tells them apart.
            guard let registration = registrations[fd], registration.generation == generation else { continue }
            registration.handler(events)
            dispatched += 1
        }
        iterations += 1
        if let slowTurnLimit, let slowTurnHandler {
            let took = clock.now - now
            if took > slowTurnLimit { slowTurnHandler(took) }
        }
        return dispatched
    }

    private func readClocks() {
        now = clock.now
        wallNow = clock.wallNow
    }

    /// On a manual clock: whether a timer is already due, so the iteration must not wait.
    private var virtualTimersDue: Bool {
        guard monotonicTimerFD == nil else { return false }
        if clock.wallSets != wallSetsSeen { return true }
        let (monotonic, wall) = (clock.now, clock.wallNow)
        return monotonicQueue.earliest.map { $0 <= monotonic } == true || wallQueue.earliest.map { $0 <= wall } == true
    }

    /// On a manual clock: fires the timers due at this iteration's readings (what the timerfds do on the
    /// kernel's clocks). Returns how many fired.
    private func fireVirtualTimers() -> Int {
        let due = monotonicQueue.fireDue(at: now) + wallQueue.fireDue(at: wallNow)
        for fire in due { fire() }
        return due.count
    }

    /// The earliest monotonic deadline waiting, if any (a manual clock's driver moves time to it).
    public var nextDeadline: MonotonicInstant? { monotonicQueue.earliest }

    /// The earliest wall-clock deadline waiting, if any.
    public var nextWallDeadline: Date? { wallQueue.earliest }

    /// Runs until `stop()` is called from a handler.
    public func run() throws(SystemError) {
        stopRequested = false
        while !stopRequested { try runOnce() }
    }

    /// Makes `run()` return after the current iteration.
    public func stop() { stopRequested = true }

    // MARK: Timers

    /// A timer on the monotonic clock. It does nothing until scheduled.
    public func makeTimer(_ handler: @escaping () -> Void) -> LoopTimer {
        LoopTimer(loop: self, handler: handler)
    }

    /// A timer on the wall clock (CLOCK_REALTIME), for things due at a time of day.
    public func makeWallClockTimer(_ handler: @escaping () -> Void) -> WallClockTimer {
        WallClockTimer(loop: self, handler: handler)
    }

    private func armTimerFDs() throws(SystemError) {
        guard let monotonicTimerFD else { return }
        let nextMonotonic = monotonicQueue.earliest
        if nextMonotonic != armedMonotonic {
            if let deadline = nextMonotonic {
                let real = timeWarp.realMonotonic(forDeadline: Int64(clamping: deadline.nanoseconds))
                try monotonicTimerFD.arm(atNanoseconds: UInt64(max(0, real)))
            } else {
                monotonicTimerFD.disarm()
            }
            armedMonotonic = nextMonotonic
        }
        if armedWall != .some(wallQueue.earliest) { try armWallTimerFD() }
    }

    /// The wall timerfd stays armed even with no wall timer (at a far deadline), so clock jumps are seen.
    private func armWallTimerFD() throws(SystemError) {
        guard let wallTimerFD else { return }
        let earliest = wallQueue.earliest
        let seconds = earliest?.timeIntervalSince1970 ?? 4_000_000_000 // year 2096: "never", still armed
        let warped = Int64(max(0, min(seconds, 9e9)) * 1e9) // capped where nanoseconds still fit an Int64
        let nanoseconds = UInt64(max(0, timeWarp.realWall(forDeadline: warped)))
        do {
            try wallTimerFD.arm(atNanoseconds: nanoseconds, cancelOnClockSet: true)
        } catch where error.errno == ECANCELED {
            // The clock was set since the last read: reading clears that; report it on this iteration.
            _ = wallTimerFD.consume()
            clockChangePending = true
            try wallTimerFD.arm(atNanoseconds: nanoseconds, cancelOnClockSet: true)
        }
        armedWall = .some(earliest)
    }

    private func monotonicTimerFired() {
        _ = monotonicTimerFD?.consume()
        armedMonotonic = nil // the kernel disarmed it; re-arm for what is left in prepare
        for fire in monotonicQueue.fireDue(at: now) { fire() }
    }

    private func wallTimerFired() {
        guard let expiry = wallTimerFD?.consume() else { return }
        armedWall = nil
        if expiry == .clockWasSet {
            clockWasSet()
        } else {
            for fire in wallQueue.fireDue(at: wallNow) { fire() }
        }
    }

    private func clockWasSet() {
        for handler in clockChangeHandlers { handler() }
        for fire in wallQueue.fireDue(at: wallNow) { fire() }
    }
}

/// A handle that wakes a loop from another thread (the eventfd's number; the loop owns the descriptor).
public struct LoopWaker: Sendable {
    let fd: Int32

    /// Wakes the loop; its `onWake` handler runs on the loop's thread.
    public func wake() {
        var one: UInt64 = 1
        _ = Glibc.write(fd, &one, MemoryLayout<UInt64>.size) // EAGAIN only when already saturated: woken anyway
    }
}

extension EventLoop {
    /// A Sendable handle for waking this loop from elsewhere. Valid while the loop exists.
    public var waker: LoopWaker { LoopWaker(fd: wakeDescriptor) }
}
