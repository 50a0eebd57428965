/// The breathing timer kept as silent practice: the timer running, its end, and the run that records it.
///
/// - a start ends a running timer first (not completed), then marks itself with the soft cue;
/// - the end, when the timer ran its length, marks itself with the soft cue too;
/// - the run is saved every `PlayerMachine.checkpointInterval` while the timer runs (a power cut costs
///   at most that much of silent practice), and once more at the end, completed or not; only once it is
///   `PracticeLedger.minimumListeningSeconds` long, as any run, and only when the minutes count (a setting);
/// - with a trusted clock the run starts at now minus what elapsed, so a clock synchronised mid-timer dates
///   it correctly and later saves never undo the re-dating of an earlier one; untrusted, at the wall time
///   the timer started.
public struct SilentPractice: Equatable, Sendable {
    public enum Moment: String, Equatable, Sendable { case start, end }

    public enum Effect: Equatable, Sendable {
        /// The timer started (for the log; the screen follows the model).
        case started(BreathingTimer)
        /// The timer ended after `seconds`: `completed` when it ran its length.
        case stopped(completed: Bool, seconds: Double)
        /// The soft cue of a start or an end: a chime where sound is allowed, a glow otherwise.
        case softCue(Moment)
        /// Arm the end at this instant, or cancel it (nil).
        case endAlarm(at: MonotonicInstant?)
        /// Arm the run's next save after this long, or cancel it (nil).
        case checkpointAlarm(after: Duration?)
        /// Insert the run (no id: answer `.timerRunSaved`) or update it. `startedMonotonic` dates it again
        /// if it was saved under an untrusted clock.
        case saveRun(PracticeRunRecord, startedMonotonic: MonotonicInstant)
    }

    public private(set) var timer: BreathingTimer?
    /// The wall time the timer started: the run's start while the clock is not trusted.
    private var startedWall: UnixMilliseconds?
    /// The running timer's run, once the store gave it an id.
    public private(set) var runID: Int64?

    public init() {}

    public mutating func start(_ timer: BreathingTimer, wall: UnixMilliseconds, clockTrusted: Bool, counts: Bool) -> [Effect] {
        let ended = finish(completed: false, now: timer.startedAt, wall: wall, clockTrusted: clockTrusted, counts: counts)
        self.timer = timer
        startedWall = wall
        runID = nil
        return ended + [.started(timer), .endAlarm(at: timer.endsAt), .checkpointAlarm(after: PlayerMachine.checkpointInterval),
                        .softCue(.start)]
    }

    /// Ends the running timer (nothing when none runs); its minutes are recorded.
    public mutating func finish(completed: Bool, now: MonotonicInstant, wall: UnixMilliseconds, clockTrusted: Bool,
                                counts: Bool) -> [Effect] {
        guard let timer else { return [] }
        var effects: [Effect] = [.endAlarm(at: nil), .checkpointAlarm(after: nil)]
        if completed { effects.append(.softCue(.end)) }
        effects.append(.stopped(completed: completed, seconds: timer.elapsedSeconds(at: now)))
        effects += saving(timer, completed: completed, now: now, wall: wall, clockTrusted: clockTrusted, counts: counts)
        self.timer = nil
        startedWall = nil
        runID = nil
        return effects
    }

    /// The run's periodic save is due.
    public mutating func checkpoint(now: MonotonicInstant, wall: UnixMilliseconds, clockTrusted: Bool, counts: Bool) -> [Effect] {
        guard let timer else { return [] }
        return saving(timer, completed: false, now: now, wall: wall, clockTrusted: clockTrusted, counts: counts)
            + [.checkpointAlarm(after: PlayerMachine.checkpointInterval)]
    }

    /// The store inserted the run of the timer started at `startedMonotonic` as `id`: if that timer still
    /// runs, its later saves update the run.
    public mutating func runInserted(id: Int64, startedMonotonic: MonotonicInstant) {
        guard timer?.startedAt == startedMonotonic, runID == nil else { return }
        runID = id
    }

    private func saving(_ timer: BreathingTimer, completed: Bool, now: MonotonicInstant, wall: UnixMilliseconds,
                        clockTrusted: Bool, counts: Bool) -> [Effect] {
        let seconds = timer.elapsedSeconds(at: now)
        guard counts, seconds >= PracticeLedger.minimumListeningSeconds else { return [] }
        let startedAt = clockTrusted ? wall - Int64((seconds * 1000).rounded()) : (startedWall ?? wall)
        let run = PracticeRunRecord(id: runID, sessionID: timer.practiceSessionID, startedAt: startedAt,
                                    actualListeningSeconds: seconds, coveredSeconds: seconds,
                                    coveredRanges: [CoveredRange(start: 0, end: seconds)], recordingSeconds: timer.length.seconds,
                                    completedAt: completed ? wall : nil, clockTrusted: clockTrusted, updatedAt: wall)
        return [.saveRun(run, startedMonotonic: timer.startedAt)]
    }
}
