/// A silent breathing timer: the circle paces the breath for a set time, with no recording.
///
/// Its phase comes from the monotonic clock and the start instant only, so with the screen dark nothing
/// ticks, and when the screen lights again the circle is at the right place. A soft cue marks the start
/// and the end (a chime where sound is allowed, a glow otherwise: the reminder's fallback rules).
public struct BreathingTimer: Equatable, Sendable {
    /// The patterns on offer, by the names the box and the CLI use.
    public static let patterns: [(name: String, pattern: BreathPattern)] = [
        ("4-4", BreathPattern(inhale: .seconds(4), exhale: .seconds(4))),
        ("4-7-8", BreathPattern(inhale: .seconds(4), holdIn: .seconds(7), exhale: .seconds(8))),
        ("box", BreathPattern(inhale: .seconds(4), holdIn: .seconds(4), exhale: .seconds(4), holdOut: .seconds(4))),
        ("4-6", BreathPattern(inhale: .seconds(4), exhale: .seconds(6))),
    ]
    /// The lengths on offer (minutes); any whole number from 1 to 60 is accepted too.
    public static let presetMinutes = [3, 5, 10]

    public let patternName: String
    public let pattern: BreathPattern
    public let length: Duration
    public let startedAt: MonotonicInstant

    /// A timer of `minutes` with the pattern named `patternName`, or nil for an unknown pattern or length.
    public init?(patternName: String, minutes: Int, startedAt: MonotonicInstant) {
        guard let found = Self.patterns.first(where: { $0.name == patternName }), (1...60).contains(minutes) else { return nil }
        self.patternName = patternName
        pattern = found.pattern
        length = .seconds(minutes * 60)
        self.startedAt = startedAt
    }

    public var endsAt: MonotonicInstant { startedAt + length }

    public func isFinished(at now: MonotonicInstant) -> Bool { now >= endsAt }

    /// Seconds breathed so far (capped at the length): the silent practice a stopped timer records.
    public func elapsedSeconds(at now: MonotonicInstant) -> Double {
        min(length.seconds, max(0, (now - startedAt).seconds))
    }

    public func remaining(at now: MonotonicInstant) -> Duration { max(.zero, endsAt - now) }

    /// Where the circle is now.
    public func breath(at now: MonotonicInstant) -> BreathState {
        BreathingCircle.state(pattern: pattern, start: startedAt, now: now)
    }

    /// The session id a finished or stopped timer is recorded under: timer runs are silent practice,
    /// shown apart from listening (see docs/routine.md).
    public var practiceSessionID: String { "\(Self.practicePrefix)\(patternName)" }
    public static let practicePrefix = "timer:"
}
