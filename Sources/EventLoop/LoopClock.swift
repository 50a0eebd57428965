import FoundationEssentials
import MonotonicTime

/// Where the loop's time comes from: the seam between the loop and time.
///
/// On the box (and in the simulator, warped or not) it is the kernel's clocks, and the loop waits for a
/// deadline in epoll through a timerfd. Under test it is a clock that moves only when the test moves it
/// (DeviceFakes' `ManualClock`): the loop then never waits for time, it fires what the clock has made due,
/// so a three-minute recording plays, checkpoints and completes in as long as the work takes.
public protocol LoopClock: AnyObject {
    /// The monotonic reading now.
    var now: MonotonicInstant { get }
    /// The wall-clock reading now.
    var wallNow: Date { get }
    /// How many times the wall clock has been set (a jump, not time passing). The loop runs its
    /// clock-change handlers when this count moves.
    var wallSets: UInt64 { get }
}

/// The kernel's CLOCK_MONOTONIC and CLOCK_REALTIME, run `timeWarp` times fast. Jumps of the wall clock
/// are seen by the loop's wall timerfd (TFD_TIMER_CANCEL_ON_SET), so `wallSets` stays 0 here.
final class KernelClock: LoopClock {
    let timeWarp: TimeWarp

    init(timeWarp: TimeWarp) { self.timeWarp = timeWarp }

    var now: MonotonicInstant {
        MonotonicInstant(nanoseconds: UInt64(max(0, timeWarp.monotonic(fromReal: SystemClocks.monotonicNanoseconds()))))
    }

    var wallNow: Date { SystemClocks.date(nanoseconds: timeWarp.wall(fromReal: SystemClocks.wallNanoseconds())) }

    var wallSets: UInt64 { 0 }
}
