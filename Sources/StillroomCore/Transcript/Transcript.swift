/// A session's transcript: its cues in start order, with the lookup the player needs to show the
/// line being spoken.
public struct Transcript: Sendable, Hashable {
    /// Sorted by start (the parser refuses anything else). Cues may overlap.
    public let cues: [TranscriptCue]
    /// `latestEnd[i]` is the latest end among `cues[0...i]`; it lets a lookup stop walking back as soon
    /// as no earlier cue can still be running.
    private let latestEnd: [Duration]

    /// - Precondition: `cues` sorted by start; `WebVTTParser` guarantees it for parsed files.
    public init(cues: [TranscriptCue]) {
        self.cues = cues
        var latest = Duration.zero
        latestEnd = cues.map { cue in
            latest = max(latest, cue.end)
            return latest
        }
    }

    /// The index of the cue active at `time` (start inclusive, end exclusive), or `nil` between cues.
    /// When cues overlap, the one that started last wins, as a reader would expect.
    ///
    /// Binary search for the last cue starting at or before `time`, then a walk back that ends at the
    /// first cue whose `latestEnd` is already past, so it is O(log n) for transcripts without overlaps.
    public func cueIndex(at time: Duration) -> Int? {
        var low = 0
        var high = cues.count
        while low < high {
            let middle = (low + high) / 2
            if cues[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        var index = low - 1
        while index >= 0 && latestEnd[index] > time {
            if cues[index].end > time { return index }
            index -= 1
        }
        return nil
    }

    /// The cue active at `time`, or `nil` between cues.
    public func cue(at time: Duration) -> TranscriptCue? {
        cueIndex(at: time).map { cues[$0] }
    }
}
