/// The three movements of a paced breath; the breathing circle grows, rests and shrinks with them.
public enum BreathPhase: String, Sendable, Hashable, CaseIterable {
    case inhale
    case hold
    case exhale
}

/// One phase of breathing at a known place in a recording, in seconds from its start.
public struct BreathCue: Sendable, Hashable {
    public var phase: BreathPhase
    public var startSeconds: Double
    /// Always after `startSeconds`; the cue covers `startSeconds ..< endSeconds`.
    public var endSeconds: Double

    public init(phase: BreathPhase, startSeconds: Double, endSeconds: Double) {
        self.phase = phase
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
    }
}

/// A session's breath cues: sorted, not overlapping, all within the recording (the parser ensures it).
public struct BreathCueTrack: Sendable, Hashable {
    public let cues: [BreathCue]

    /// Trusts the order of `cues`; use `BreathCueParser` for cues that come from a file.
    public init(cues: [BreathCue]) { self.cues = cues }

    /// The cue covering `seconds` (start inclusive, end exclusive), or `nil` in a gap. Binary search,
    /// since the player asks on every frame it draws.
    public func cue(atSeconds seconds: Double) -> BreathCue? {
        var low = 0
        var high = cues.count
        while low < high { // first cue starting after `seconds`
            let middle = (low + high) / 2
            if cues[middle].startSeconds <= seconds { low = middle + 1 } else { high = middle }
        }
        guard low > 0, seconds < cues[low - 1].endSeconds else { return nil }
        return cues[low - 1]
    }

    /// The cue covering a playback position given as a `Duration`, as the player counts time.
    public func cue(at time: Duration) -> BreathCue? {
        cue(atSeconds: time.seconds)
    }
}
