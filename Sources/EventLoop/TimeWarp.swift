/// Makes the loop's clocks run `factor` times faster than the kernel's, for time-warped soaks and
/// scenarios on simulated devices: a warped day passes in minutes, and every timer, checkpoint, dim and
/// reminder keeps its warped meaning because all of them read the loop's clocks.
///
/// Both clocks agree with the kernel's at the origin (the loop's creation) and then run fast:
/// warped = origin + (real − origin) · factor. Deadlines go the other way when a timerfd is armed, rounded
/// up so a timer never fires before its warped deadline. A factor of 1 is the identity.
public struct TimeWarp: Equatable, Sendable {
    public let factor: Int64
    let monotonicOrigin: Int64
    let wallOrigin: Int64

    public static let none = TimeWarp(factor: 1, monotonicOrigin: 0, wallOrigin: 0)

    /// `monotonicOrigin` and `wallOrigin` are kernel readings in nanoseconds taken at the same moment.
    public init(factor: Int64, monotonicOrigin: Int64, wallOrigin: Int64) {
        precondition(factor >= 1, "time only runs faster")
        self.factor = factor
        self.monotonicOrigin = monotonicOrigin
        self.wallOrigin = wallOrigin
    }

    /// The warped monotonic reading for a kernel reading (nanoseconds).
    public func monotonic(fromReal real: Int64) -> Int64 { warp(real, origin: monotonicOrigin) }

    /// The kernel monotonic time at which the warped `deadline` is reached.
    public func realMonotonic(forDeadline deadline: Int64) -> Int64 { unwarp(deadline, origin: monotonicOrigin) }

    /// The warped wall reading (nanoseconds since 1970) for a kernel CLOCK_REALTIME reading.
    public func wall(fromReal real: Int64) -> Int64 { warp(real, origin: wallOrigin) }

    /// The kernel wall time at which the warped wall `deadline` is reached.
    public func realWall(forDeadline deadline: Int64) -> Int64 { unwarp(deadline, origin: wallOrigin) }

    private func warp(_ real: Int64, origin: Int64) -> Int64 {
        guard factor != 1 else { return real }
        let (scaled, overflow) = (real - origin).multipliedReportingOverflow(by: factor)
        // Centuries of warped time away from the origin: pin rather than wrap.
        if overflow { return real > origin ? Int64.max / 2 : Int64.min / 2 }
        return origin + scaled
    }

    private func unwarp(_ deadline: Int64, origin: Int64) -> Int64 {
        guard factor != 1 else { return deadline }
        let span = deadline - origin
        // Rounded up (division truncates towards zero, which is already up for a past deadline).
        let real = span > 0 ? (span - 1) / factor + 1 : span / factor
        return origin + real
    }
}
