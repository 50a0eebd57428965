/// A half-open range `[start, end)` of recording time, in seconds, that was actually heard.
public struct CoveredRange: Hashable, Sendable, CustomStringConvertible {
    public var start: Double
    public var end: Double

    public init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    public var description: String { "[\(start), \(end))" }
}

/// One listening run of a session (table `practice_run`): the honest record behind practice history.
///
/// A run is written as it goes (every checkpoint), so `coveredRanges` is stored too: after a power cut
/// the run continues with the coverage it already had, and replayed parts do not count twice.
public struct PracticeRunRecord: Hashable, Sendable {
    /// Assigned by the store on insert (AUTOINCREMENT: never reused, even after deletions); nil before.
    public var id: Int64?
    /// The catalog session id.
    public var sessionID: String
    /// Wall time the run started; only meaningful on the calendar when `clockTrusted` is true.
    public var startedAt: UnixMilliseconds
    /// Seconds of audio the device really played during this run (replays count, seeks do not).
    public var actualListeningSeconds: Double
    /// Seconds of distinct content heard (the measure of the union of `coveredRanges`).
    public var coveredSeconds: Double
    /// The distinct parts of the recording heard, as `[start, end)` second ranges.
    public var coveredRanges: [CoveredRange]
    /// Length of the recording in seconds (the base of the completion threshold).
    public var recordingSeconds: Double
    /// When the run reached completion; nil while incomplete.
    public var completedAt: UnixMilliseconds?
    /// Whether the system clock was synchronised when `startedAt` was read.
    public var clockTrusted: Bool
    public var updatedAt: UnixMilliseconds
    /// The session's title when it was heard: the history keeps naming a downloaded session after it was
    /// removed or its source withdrew it. Nil for runs saved before titles were kept.
    public var title: String?

    public init(
        id: Int64? = nil, sessionID: String, startedAt: UnixMilliseconds, actualListeningSeconds: Double = 0,
        coveredSeconds: Double = 0, coveredRanges: [CoveredRange] = [], recordingSeconds: Double,
        completedAt: UnixMilliseconds? = nil, clockTrusted: Bool, updatedAt: UnixMilliseconds, title: String? = nil
    ) {
        self.title = title
        self.id = id
        self.sessionID = sessionID
        self.startedAt = startedAt
        self.actualListeningSeconds = actualListeningSeconds
        self.coveredSeconds = coveredSeconds
        self.coveredRanges = coveredRanges
        self.recordingSeconds = recordingSeconds
        self.completedAt = completedAt
        self.clockTrusted = clockTrusted
        self.updatedAt = updatedAt
    }
}
