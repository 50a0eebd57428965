import EventLoop
import FoundationEssentials
import StillroomCore

/// A clock that moves only when told: the time source of pure tests and of loops on virtual time.
///
/// Holds both a monotonic reading and a wall-clock reading; `advance` moves both, `setWall` moves only
/// the wall clock (a time sync, a DST change seen as a jump, a user setting the time).
public final class ManualClock: LoopClock {
    public private(set) var now: MonotonicInstant
    public private(set) var wallNow: Date
    public private(set) var wallSets: UInt64 = 0

    public init(now: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000_000_000),
                wallNow: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        self.now = now
        self.wallNow = wallNow
    }

    /// Moves both clocks forward by `duration`.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "time only moves forward")
        now = now + duration
        wallNow = wallNow.addingTimeInterval(duration.seconds)
    }

    /// Moves both clocks forward to the monotonic `instant` (no move when it has passed).
    public func advance(to instant: MonotonicInstant) {
        guard instant > now else { return }
        advance(by: instant - now)
    }

    /// Sets the wall clock (a jump); the monotonic clock does not move.
    public func setWall(_ date: Date) {
        wallNow = date
        wallSets += 1
    }
}
