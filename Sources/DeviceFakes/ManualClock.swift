import FoundationEssentials
import StillroomCore

/// A clock that moves only when told: the time source of pure tests and time-warped scenarios.
///
/// Holds both a monotonic reading and a wall-clock reading; `advance` moves both, `setWall` moves only
/// the wall clock (a time sync, a DST change seen as a jump, a user setting the time).
public final class ManualClock {
    public private(set) var now: MonotonicInstant
    public private(set) var wallNow: Date

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

    /// Sets the wall clock (a jump); the monotonic clock does not move.
    public func setWall(_ date: Date) { wallNow = date }
}
