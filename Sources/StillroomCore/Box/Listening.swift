/// The player and the practice ledger as one machine, with the rules between them that used to live in
/// the daemon's wiring:
///
/// - frames the output reports heard belong to the session the engine has open, which during a switch
///   is still the one being left, not yet the player's;
/// - a place saved also saves the practice run it updates, in the same `ProgressSave` (one transaction,
///   one fsync), after the output has reported everything it played up to then;
/// - leaving a session closes its run; a pause long enough closes it too (the long-pause timer);
/// - the pause a reminder waits out is measured from when it began.
///
/// An event is handled in two steps, because the output reports what it played while it performs the
/// player's effects (a pause drains it, a stop reports the last frames): `begin` returns the output's
/// effects and a plan; the daemon performs the effects, feeding `heard` as reports come; `settle` then
/// lets the ledger follow and returns the one save and what comes after it. Events may nest (performing
/// an effect can raise another event): each `begin` has its own plan, settled in turn.
public struct Listening: Equatable, Sendable {
    /// The recording the engine has open.
    public struct EngineSession: Equatable, Sendable {
        public let id: String
        public let sampleRate: Int
        public let frames: Int64
    }

    /// An event's first step: the output's effects to perform now, and the rest of the plan for `settle`.
    public struct Step: Equatable, Sendable {
        public var output: [PlayerEffect]
        public var plan: ProgressSave.Plan
        /// The player asked for nothing at all.
        public var isEmpty: Bool { output.isEmpty && plan.save.isEmpty && plan.after.isEmpty }
    }

    /// An event's second step.
    public struct Settled: Equatable, Sendable {
        /// The place and the runs with it: one transaction (then `saved`).
        public var save: ProgressSave
        /// The player's effects after the save (a load, and what follows it).
        public var after: [PlayerEffect]
        public var pauseTimer: PracticeLedger.PauseTimer
        /// A session was left with a run open: a quiet moment.
        public var sessionLeft: Bool
    }

    public private(set) var player: PlayerMachine
    public private(set) var ledger = PracticeLedger()
    /// Frames reported heard are attributed to it.
    public private(set) var engineSession: EngineSession?
    /// When the current pause began.
    public private(set) var pausedSince: MonotonicInstant?
    /// Seconds of recordings the output reported heard, all sessions together.
    public private(set) var heardSeconds = 0.0

    public init(player: PlayerMachine = PlayerMachine()) {
        self.player = player
    }

    /// Step one: the player takes `event`.
    public mutating func begin(_ event: PlayerEvent, now: MonotonicInstant) -> Step {
        if case .loaded(let frames, let rate) = event, let id = player.sessionID {
            engineSession = EngineSession(id: id, sampleRate: rate, frames: frames) // heard frames from now on are its
        }
        let plan = ProgressSave.plan(player.handle(event, now: now))
        var rest = plan
        rest.before = []
        return Step(output: plan.before, plan: rest)
    }

    /// The output played `ranges` of the engine's recording. Returns the runs worth saving on their own
    /// (one that became long enough, or completed, between checkpoints).
    public mutating func heard(_ ranges: [Range<Int64>], now: MonotonicInstant, wall: UnixMilliseconds,
                               clockTrusted: Bool) -> ProgressSave {
        guard let loaded = engineSession, loaded.sampleRate > 0 else { return ProgressSave() }
        heardSeconds += Double(ranges.reduce(Int64(0)) { $0 + max(0, Int64($1.count)) }) / Double(loaded.sampleRate)
        var save = ProgressSave()
        save.add(ledger.heard(ranges, sessionID: loaded.id, sampleRate: loaded.sampleRate, recordingFrames: loaded.frames,
                              now: now, wall: wall, clockTrusted: clockTrusted))
        return save
    }

    /// Step two, once the output's effects are performed: the ledger follows the player.
    public mutating func settle(_ plan: ProgressSave.Plan, now: MonotonicInstant, wall: UnixMilliseconds) -> Settled {
        let following = ledger.follow(player.phase, sessionID: player.sessionID, checkpointed: plan.savesCheckpoint, wall: wall)
        var save = plan.save
        save.add(following.saves)
        if plan.after.contains(where: { if case .load = $0 { return true } else { return false } }) {
            engineSession = nil // another recording opens: nothing is heard of it until it is loaded
        }
        if player.phase == .paused {
            if pausedSince == nil { pausedSince = now }
        } else {
            pausedSince = nil
        }
        return Settled(save: save, after: plan.after, pauseTimer: following.pauseTimer, sessionLeft: following.sessionLeft)
    }

    /// The store kept `runs` as `stored` (the same order, with their ids): the open run learns its id.
    /// Returns the runs first saved under an untrusted clock, with their monotonic start, for re-dating.
    public mutating func saved(_ runs: [PracticeRunRecord], as stored: [PracticeRunRecord]) -> [Int64: MonotonicInstant] {
        var untrusted: [Int64: MonotonicInstant] = [:]
        for (record, saved) in zip(runs, stored) {
            guard let id = saved.id else { continue }
            if record.id == nil {
                if ledger.open?.record.sessionID == record.sessionID && ledger.open?.record.id == nil { ledger.didSave(id: id) }
                if !record.clockTrusted, let started = ledger.open?.startedMonotonic { untrusted[id] = started }
            } else if ledger.open?.record.id == id {
                ledger.didSave(id: id)
            }
        }
        return untrusted
    }

    /// The long pause ran out: the run closes (resuming later starts a new one).
    public mutating func pauseRanOut(wall: UnixMilliseconds) -> ProgressSave {
        var save = ProgressSave()
        save.add(ledger.close(wall: wall))
        return save
    }

    /// Accepting a resume offer continues `run` (the session's latest, not complete).
    public mutating func join(_ run: PracticeRunRecord, sampleRate: Int, recordingFrames: Int64, now: MonotonicInstant) {
        ledger.join(run, sampleRate: sampleRate, recordingFrames: recordingFrames, now: now)
    }

    /// The wall clock became trustworthy: the open run is re-dated.
    public mutating func clockBecameTrusted(now: MonotonicInstant, wall: UnixMilliseconds) -> ProgressSave {
        var save = ProgressSave()
        save.add(ledger.clockBecameTrusted(now: now, wall: wall))
        return save
    }

    /// Practice runs were deleted (`run`, or all of them with nil): if the open run is among them,
    /// listening from now on starts a new one.
    public mutating func forget(run: Int64?) {
        guard let run else {
            ledger = PracticeLedger()
            return
        }
        if ledger.open?.record.id == run { ledger = PracticeLedger() }
    }
}
