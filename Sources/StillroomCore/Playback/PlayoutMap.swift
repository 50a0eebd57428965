/// Remembers which recording frames were written to the sink, in order, so that "the device has played
/// N frames" becomes "these parts of the recording were heard".
///
/// Sink frames count from the last `reset` (the sink's `discard`). A seek starts a new segment; a rewind
/// truncates the tail. The map is what makes both the on-screen position and practice accounting follow
/// what the listener actually heard, never what was merely decoded or requested.
public struct PlayoutMap: Equatable, Sendable {
    struct Segment: Equatable, Sendable {
        var sinkStart: Int64
        var recordingStart: Int64
        var count: Int64
        var sinkEnd: Int64 { sinkStart + count }
    }

    private var segments: [Segment] = []
    /// Sink frames written so far.
    public private(set) var writtenFrames: Int64 = 0
    /// Sink frames already handed out by `takeHeard`.
    private var reportedFrames: Int64 = 0

    public init() {}

    /// Records that `count` frames starting at recording frame `recordingFrame` were written.
    public mutating func appendWritten(recordingFrame: Int64, count: Int64) {
        guard count > 0 else { return }
        if var last = segments.last, last.recordingStart + last.count == recordingFrame, last.sinkEnd == writtenFrames {
            last.count += count
            segments[segments.count - 1] = last
        } else {
            segments.append(Segment(sinkStart: writtenFrames, recordingStart: recordingFrame, count: count))
        }
        writtenFrames += count
    }

    /// Forgets everything written after sink frame `written` (the sink took those frames back).
    public mutating func truncate(toWritten written: Int64) {
        // Frames already reported as heard cannot be taken back.
        let limit = max(reportedFrames, min(written, writtenFrames))
        segments.removeAll { $0.sinkStart >= limit }
        if var last = segments.last, last.sinkEnd > limit {
            last.count = limit - last.sinkStart
            segments[segments.count - 1] = last
        }
        writtenFrames = limit
    }

    /// The recording frame the listener will hear after `played` sink frames: the position to show.
    /// When everything written has been heard, the frame after the last one heard.
    public func recordingPosition(afterPlayed played: Int64) -> Int64? {
        guard let first = segments.first else { return nil }
        let clamped = max(first.sinkStart, min(played, writtenFrames))
        for segment in segments where clamped < segment.sinkEnd {
            return segment.recordingStart + (clamped - segment.sinkStart)
        }
        let last = segments[segments.count - 1]
        return last.recordingStart + last.count
    }

    /// The recording ranges heard since the last call, up to `played` sink frames. Fully heard segments
    /// are dropped, so the map stays small however long the session.
    public mutating func takeHeard(upTo played: Int64) -> [Range<Int64>] {
        let limit = min(played, writtenFrames)
        guard limit > reportedFrames else { return [] }
        var ranges: [Range<Int64>] = []
        for segment in segments where segment.sinkEnd > reportedFrames && segment.sinkStart < limit {
            let from = max(segment.sinkStart, reportedFrames)
            let to = min(segment.sinkEnd, limit)
            let start = segment.recordingStart + (from - segment.sinkStart)
            ranges.append(start..<(start + (to - from)))
        }
        reportedFrames = limit
        while segments.count > 1, segments[0].sinkEnd <= reportedFrames { segments.removeFirst() }
        return ranges
    }

    /// Starts over: the sink's counters restart at zero.
    public mutating func reset() {
        segments = []
        writtenFrames = 0
        reportedFrames = 0
    }
}
