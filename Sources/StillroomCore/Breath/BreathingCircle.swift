// The breathing circle's size is a pure function of time: of the playback position within a session's
// breath cues, or of the monotonic clock for the silent breathing timer. A frame drawn late, or a frame
// skipped, shows the circle where it should be at that moment; nothing accumulates from frame to frame.

/// Where a breath is at one moment: the phase and how full the lungs are (0 empty ... 1 full).
public struct BreathState: Hashable, Sendable {
    public var phase: BreathPhase?
    /// 0 = smallest circle, 1 = largest; eased, so the circle starts and ends each movement gently.
    public var expansion: Double
    /// Progress through the current phase, 0...1 (0 in a gap between cues).
    public var progress: Double

    public init(phase: BreathPhase?, expansion: Double, progress: Double) {
        self.phase = phase
        self.expansion = min(1, max(0, expansion))
        self.progress = min(1, max(0, progress))
    }

    /// Between breaths: still, at `expansion`.
    public static func resting(at expansion: Double) -> BreathState {
        BreathState(phase: nil, expansion: expansion, progress: 0)
    }
}

/// A steady breathing rhythm for the silent breathing timer (no recording, no cues).
public struct BreathPattern: Hashable, Sendable {
    public var inhale: Duration
    public var holdIn: Duration
    public var exhale: Duration
    public var holdOut: Duration

    public init(inhale: Duration, holdIn: Duration = .zero, exhale: Duration, holdOut: Duration = .zero) {
        precondition(inhale > .zero && exhale > .zero, "a breath has an inhale and an exhale")
        precondition(holdIn >= .zero && holdOut >= .zero, "holds are not negative")
        self.inhale = inhale
        self.holdIn = holdIn
        self.exhale = exhale
        self.holdOut = holdOut
    }

    /// A slow, even default: in 4 s, hold 2 s, out 6 s (five breaths a minute).
    public static let calm = BreathPattern(inhale: .seconds(4), holdIn: .seconds(2), exhale: .seconds(6))

    public var cycle: Duration { inhale + holdIn + exhale + holdOut }
}

/// Pure functions from time to the breathing circle.
public enum BreathingCircle {
    /// How full the circle is `progress` (0...1) of the way through `phase`: inhale grows 0 → 1,
    /// hold stays full, exhale shrinks 1 → 0, each movement eased in and out (smootherstep).
    public static func expansion(phase: BreathPhase, progress: Double) -> Double {
        let t = min(1, max(0, progress))
        switch phase {
        case .inhale: return ease(t)
        case .hold: return 1
        case .exhale: return 1 - ease(t)
        }
    }

    /// The state at `seconds` into a recording with breath cues. In a gap, the circle rests where the
    /// last cue left it (full after an inhale or hold, empty after an exhale; empty before the first).
    public static func state(in track: BreathCueTrack, atSeconds seconds: Double) -> BreathState {
        // The last cue starting at or before `seconds`.
        var low = 0, high = track.cues.count
        while low < high {
            let middle = (low + high) / 2
            if track.cues[middle].startSeconds <= seconds { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return .resting(at: 0) }
        let cue = track.cues[low - 1]
        if seconds < cue.endSeconds {
            let progress = (seconds - cue.startSeconds) / (cue.endSeconds - cue.startSeconds)
            return BreathState(phase: cue.phase, expansion: expansion(phase: cue.phase, progress: progress),
                               progress: progress)
        }
        return .resting(at: expansion(phase: cue.phase, progress: 1))
    }

    /// The state at `now` for the silent timer that started at `start` with `pattern`. Before `start`,
    /// at rest and empty.
    public static func state(pattern: BreathPattern, start: MonotonicInstant, now: MonotonicInstant) -> BreathState {
        guard now >= start else { return .resting(at: 0) }
        let cycle = pattern.cycle.totalNanoseconds
        var t = Int64((now.nanoseconds - start.nanoseconds) % UInt64(cycle))
        let steps: [(BreathPhase?, Int64, Bool)] = [ // phase, length, whether a hold-out (rest, empty)
            (.inhale, pattern.inhale.totalNanoseconds, false),
            (.hold, pattern.holdIn.totalNanoseconds, false),
            (.exhale, pattern.exhale.totalNanoseconds, false),
            (nil, pattern.holdOut.totalNanoseconds, true),
        ]
        for (phase, length, isRest) in steps where length > 0 {
            if t < length {
                let progress = Double(t) / Double(length)
                if isRest { return BreathState(phase: nil, expansion: 0, progress: progress) }
                return BreathState(phase: phase, expansion: expansion(phase: phase!, progress: progress), progress: progress)
            }
            t -= length
        }
        return .resting(at: 0)
    }

    /// When the phase next changes after `now` (for reduced motion, which redraws only then).
    public static func nextPhaseChange(pattern: BreathPattern, start: MonotonicInstant,
                                       now: MonotonicInstant) -> MonotonicInstant {
        guard now >= start else { return start }
        let cycle = UInt64(pattern.cycle.totalNanoseconds)
        let elapsed = now.nanoseconds - start.nanoseconds
        let cycleStart = elapsed - elapsed % cycle
        var boundary = cycleStart
        for length in [pattern.inhale, pattern.holdIn, pattern.exhale, pattern.holdOut] {
            boundary += UInt64(length.totalNanoseconds)
            if boundary > elapsed { return MonotonicInstant(nanoseconds: start.nanoseconds + boundary) }
        }
        return MonotonicInstant(nanoseconds: start.nanoseconds + cycleStart + cycle)
    }

    /// The next cue boundary after `seconds` in a recording (for reduced motion), or nil after the last.
    public static func nextPhaseChange(in track: BreathCueTrack, afterSeconds seconds: Double) -> Double? {
        for cue in track.cues {
            if cue.startSeconds > seconds { return cue.startSeconds }
            if cue.endSeconds > seconds { return cue.endSeconds }
        }
        return nil
    }

    /// When the circle's radius, in whole pixels between `minimum` and `maximum`, next differs from
    /// what it is at `now` (the silent timer): the next frame worth drawing. Never later than the next
    /// phase change.
    public static func nextRadiusChange(pattern: BreathPattern, start: MonotonicInstant, now: MonotonicInstant,
                                        minimum: Double, maximum: Double) -> MonotonicInstant {
        let boundary = nextPhaseChange(pattern: pattern, start: start, now: now)
        func pixels(_ t: MonotonicInstant) -> Double {
            radius(expansion: state(pattern: pattern, start: start, now: t).expansion, minimum: minimum, maximum: maximum).rounded()
        }
        let current = pixels(now)
        let lastInPhase = MonotonicInstant(nanoseconds: max(now.nanoseconds, boundary.nanoseconds &- 1))
        guard pixels(lastInPhase) != current else { return boundary }
        // Within a phase the radius only grows or only shrinks: bisect to a millisecond.
        var low = now.nanoseconds, high = lastInPhase.nanoseconds
        while high - low > 1_000_000 {
            let middle = low + (high - low) / 2
            if pixels(MonotonicInstant(nanoseconds: middle)) == current { low = middle } else { high = middle }
        }
        return MonotonicInstant(nanoseconds: high)
    }

    /// The same for a recording's cues: the position (seconds) at which the whole-pixel radius next
    /// differs from its value at `seconds`, or nil when it never does again.
    public static func nextRadiusChange(in track: BreathCueTrack, atSeconds seconds: Double,
                                        minimum: Double, maximum: Double) -> Double? {
        func pixels(_ t: Double) -> Double {
            radius(expansion: state(in: track, atSeconds: t).expansion, minimum: minimum, maximum: maximum).rounded()
        }
        let current = pixels(seconds)
        var from = seconds
        while let boundary = nextPhaseChange(in: track, afterSeconds: from) {
            let lastInPhase = max(from, boundary - 1e-6)
            if pixels(lastInPhase) != current {
                var low = from, high = lastInPhase
                while high - low > 0.001 {
                    let middle = (low + high) / 2
                    if pixels(middle) == current { low = middle } else { high = middle }
                }
                return high
            }
            if pixels(boundary) != current { return boundary }
            from = boundary
        }
        return nil
    }

    /// The circle's radius for an expansion, between `minimum` and `maximum`.
    public static func radius(expansion: Double, minimum: Double, maximum: Double) -> Double {
        minimum + (maximum - minimum) * min(1, max(0, expansion))
    }

    /// Smootherstep: zero speed and zero acceleration at both ends, so each movement begins and ends
    /// like a breath does, without a jolt.
    static func ease(_ t: Double) -> Double { t * t * t * (t * (6 * t - 15) + 10) }
}
