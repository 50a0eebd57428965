/// Honest practice accounting: what the listener really heard, turned into practice runs.
///
/// Fed with the recording ranges the device actually played (from the playout map), never with
/// requested positions. Listening time counts every frame heard, replays included; coverage counts
/// distinct parts of the recording only, so a replay adds minutes but not coverage, and a seek adds
/// neither. The rules and their reasons are in docs/practice.md.
public struct PracticeLedger: Equatable, Sendable {
    /// A run completes when this share of the recording has been heard (distinct content).
    public static let completionFraction = 0.9
    /// Runs with less listening than this are not kept: a tap on PLAY by mistake is not practice.
    public static let minimumListeningSeconds = 10.0
    /// A pause longer than this closes the run; resuming later starts a new one.
    public static let pauseClosesRunAfter: Duration = .seconds(30 * 60)

    /// The run in progress.
    public struct OpenRun: Equatable, Sendable {
        public internal(set) var record: PracticeRunRecord
        public internal(set) var coverage: FrameCoverage
        public internal(set) var listenedFrames: Int64
        public let sampleRate: Int
        public let recordingFrames: Int64
        /// Monotonic time of the first frame heard: re-dates the run if the clock was not yet trusted.
        public let startedMonotonic: MonotonicInstant
        /// Whether the record changed since it was last saved.
        public internal(set) var unsaved: Bool
        /// The first save has been asked for (its id not back yet).
        var savePending = false
    }

    public enum Effect: Equatable, Sendable {
        /// Insert (id nil) or update the run in the store; then call `didSave(id:)`.
        case save(PracticeRunRecord)
    }

    public private(set) var open: OpenRun?

    public init() {}

    /// The device played `ranges` of `sessionID`'s recording.
    public mutating func heard(_ ranges: [Range<Int64>], sessionID: String, sampleRate: Int, recordingFrames: Int64,
                               now: MonotonicInstant, wall: UnixMilliseconds, clockTrusted: Bool) -> [Effect] {
        let frames = ranges.reduce(Int64(0)) { $0 + Int64(max(0, $1.count)) }
        guard frames > 0, sampleRate > 0 else { return [] }
        var effects: [Effect] = []
        if let current = open, current.record.sessionID != sessionID {
            effects += close(wall: wall) // switching session: two runs
        }
        if open == nil {
            let record = PracticeRunRecord(sessionID: sessionID, startedAt: wall,
                                           recordingSeconds: Double(recordingFrames) / Double(sampleRate),
                                           clockTrusted: clockTrusted, updatedAt: wall)
            open = OpenRun(record: record, coverage: FrameCoverage(), listenedFrames: 0, sampleRate: sampleRate,
                           recordingFrames: recordingFrames, startedMonotonic: now, unsaved: true)
        }
        guard var run = open else { return effects }
        for range in ranges {
            let clamped = max(0, range.lowerBound)..<min(run.recordingFrames, range.upperBound)
            run.listenedFrames += Int64(max(0, range.count))
            if !clamped.isEmpty { run.coverage.add(clamped) }
        }
        run.unsaved = true
        Self.refresh(&run, wall: wall)
        var completedNow = false
        if run.record.completedAt == nil,
           Double(run.coverage.total) >= Self.completionFraction * Double(run.recordingFrames) {
            run.record.completedAt = wall
            completedNow = true
        }
        let crossedMinimum = run.record.id == nil && !run.savePending
            && Double(run.listenedFrames) / Double(run.sampleRate) >= Self.minimumListeningSeconds
        if crossedMinimum { run.savePending = true }
        open = run
        // Completion is written at once: it is the one moment that must never be lost. So is the moment a
        // run becomes worth keeping: waiting for the next checkpoint would put up to 20 s at risk.
        if completedNow || crossedMinimum { effects += saveIfWorthKeeping() }
        return effects
    }

    /// The periodic checkpoint (every 10 s of playback, and on pause): write what changed.
    public mutating func checkpoint(wall: UnixMilliseconds) -> [Effect] {
        guard var run = open, run.unsaved else { return [] }
        run.record.updatedAt = wall
        open = run
        return saveIfWorthKeeping()
    }

    /// The run ends (stop, end of recording, another session, a long pause). Short runs vanish.
    public mutating func close(wall: UnixMilliseconds) -> [Effect] {
        let effects = checkpoint(wall: wall)
        open = nil
        return effects
    }

    /// The store assigned `id` to the open run's record.
    public mutating func didSave(id: Int64) {
        guard var run = open else { return }
        run.record.id = id
        run.unsaved = false
        open = run
    }

    /// Continues `record` (the same session, resumed after a restart): coverage and minutes carry on.
    public mutating func join(_ record: PracticeRunRecord, sampleRate: Int, recordingFrames: Int64, now: MonotonicInstant) {
        let coverage = FrameCoverage(record.coveredRanges.map {
            Int64(($0.start * Double(sampleRate)).rounded())..<Int64(($0.end * Double(sampleRate)).rounded())
        })
        open = OpenRun(record: record, coverage: coverage,
                       listenedFrames: Int64((record.actualListeningSeconds * Double(sampleRate)).rounded()),
                       sampleRate: sampleRate, recordingFrames: recordingFrames, startedMonotonic: now, unsaved: false)
    }

    /// The wall clock became trustworthy: the open run's start is re-dated from the monotonic clock.
    public mutating func clockBecameTrusted(now: MonotonicInstant, wall: UnixMilliseconds) -> [Effect] {
        guard var run = open, !run.record.clockTrusted else { return [] }
        run.record = Self.redated(run.record, startedMonotonic: run.startedMonotonic, now: now, wall: wall)
        run.unsaved = true
        open = run
        return saveIfWorthKeeping()
    }

    /// A run started under an untrusted clock, dated again from a trusted `wall` and the monotonic
    /// time elapsed since it started (valid within the same boot).
    public static func redated(_ record: PracticeRunRecord, startedMonotonic: MonotonicInstant,
                               now: MonotonicInstant, wall: UnixMilliseconds) -> PracticeRunRecord {
        var dated = record
        let elapsed = (now - startedMonotonic).totalNanoseconds / 1_000_000
        dated.startedAt = wall - max(0, elapsed)
        dated.clockTrusted = true
        dated.updatedAt = wall
        return dated
    }

    private func saveIfWorthKeeping() -> [Effect] {
        guard let run = open, Double(run.listenedFrames) / Double(run.sampleRate) >= Self.minimumListeningSeconds else {
            return []
        }
        return [.save(run.record)]
    }

    private static func refresh(_ run: inout OpenRun, wall: UnixMilliseconds) {
        let rate = Double(run.sampleRate)
        run.record.actualListeningSeconds = Double(run.listenedFrames) / rate
        run.record.coveredSeconds = Double(run.coverage.total) / rate
        run.record.coveredRanges = run.coverage.ranges.map { CoveredRange(start: Double($0.lowerBound) / rate, end: Double($0.upperBound) / rate) }
        run.record.updatedAt = wall
    }
}
