/// A point on the monotonic clock (CLOCK_MONOTONIC), in nanoseconds since an arbitrary origin.
///
/// The core never reads a clock: the event loop reads it once per iteration and passes it in.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    public static let zero = MonotonicInstant(nanoseconds: 0)

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The instant `duration` later; negative durations move back, never below zero.
    public static func + (a: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let delta = duration.totalNanoseconds
        if delta >= 0 { return MonotonicInstant(nanoseconds: a.nanoseconds &+ UInt64(delta)) }
        let back = UInt64(-delta)
        return MonotonicInstant(nanoseconds: a.nanoseconds > back ? a.nanoseconds - back : 0)
    }

    /// The signed time from `b` to `a`.
    public static func - (a: MonotonicInstant, b: MonotonicInstant) -> Duration {
        a >= b ? .nanoseconds(Int64(a.nanoseconds - b.nanoseconds)) : .nanoseconds(-Int64(b.nanoseconds - a.nanoseconds))
    }

    public var description: String { "mono+\(Double(nanoseconds) / 1e9)s" }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating; durations here are far below 292 years).
    public var totalNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in seconds as a Double, for display and logs.
    public var seconds: Double { Double(totalNanoseconds) / 1e9 }
}
