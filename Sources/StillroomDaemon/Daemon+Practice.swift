import EventLoop
import SQLiteStore
import StillroomCore

/// Practice accounting wired to playback: heard frames in, runs out to the store.
extension Daemon {
    /// The engine reports recording ranges the device played.
    /// Attributed to the session the engine has loaded, which during a switch is not yet the player's.
    func recordHeard(_ ranges: [Range<Int64>]) {
        guard let loaded = engineSession, loaded.sampleRate > 0 else { return }
        heardSecondsTotal += Double(ranges.reduce(Int64(0)) { $0 + Int64(max(0, $1.count)) }) / Double(loaded.sampleRate)
        let effects = ledger.heard(ranges, sessionID: loaded.id, sampleRate: loaded.sampleRate, recordingFrames: loaded.frames,
                                   now: loop.now, wall: wallMilliseconds, clockTrusted: clockTrusted)
        perform(effects)
    }

    /// Keeps the ledger in step with the player (`PracticeLedger.follow`) and arms the long-pause timer as
    /// it says. Returns the ledger's saves, for the caller to keep in the same transaction as the player's
    /// checkpoint, and whether a session was left (a quiet moment).
    func ledgerFollowsPlayer(checkpointed: Bool) -> (saves: [PracticeLedger.Effect], sessionLeft: Bool) {
        let following = ledger.follow(player.phase, sessionID: player.sessionID, checkpointed: checkpointed, wall: wallMilliseconds)
        switch following.pauseTimer {
        case .cancel: runPauseTimer.cancel()
        case .armUnlessArmed:
            if !runPauseTimer.isScheduled { runPauseTimer.schedule(after: PracticeLedger.pauseClosesRunAfter) }
        case .leave: break
        }
        return (following.saves, following.sessionLeft)
    }

    /// Accepting a resume offer continues the session's latest run when it is not complete.
    func joinRunForResume(sessionID: String, sampleRate: Int, recordingFrames: Int64) {
        guard let recent = try? store.recentPracticeRuns(limit: 20),
              let run = recent.first(where: { $0.sessionID == sessionID }), run.completedAt == nil,
              recent.first?.sessionID == sessionID else { return }
        ledger.join(run, sampleRate: sampleRate, recordingFrames: recordingFrames, now: loop.now)
        logger.info("practice: continuing run \(run.id ?? 0) of \(sessionID)")
    }

    /// The clock was set: if it is now synchronised, re-date the runs of this boot that started before.
    func clockChanged() {
        let trusted = SystemClocks.isWallClockSynchronized()
        guard trusted, !clockTrusted else {
            clockTrusted = trusted
            return
        }
        clockTrusted = true
        let wall = wallMilliseconds
        perform(ledger.clockBecameTrusted(now: loop.now, wall: wall))
        for (id, started) in untrustedRunsThisBoot {
            guard let record = try? store.practiceRun(id: id), !record.clockTrusted else { continue }
            _ = try? store.updatePracticeRun(PracticeLedger.redated(record, startedMonotonic: started, now: loop.now, wall: wall))
        }
        untrustedRunsThisBoot = [:]
        logger.notice("clock synchronised: practice runs of this boot re-dated")
    }

    /// The ledger's saves on their own (a run that became worth keeping, or completed, between checkpoints).
    func perform(_ effects: [PracticeLedger.Effect]) {
        var progress = ProgressSave()
        progress.add(effects)
        save(progress)
    }

    /// Keeps a place and the practice runs with it in one transaction (one fsync), then tells the ledger the
    /// ids the store gave. On failure nothing of it is kept; the ledger still holds the runs as unsaved, and
    /// the next checkpoint tries again.
    func save(_ progress: ProgressSave) {
        guard !progress.isEmpty else { return }
        var progress = progress
        if !progress.runs.isEmpty { historySummary = nil } // the history screen reads runs that just changed
        for index in progress.runs.indices where progress.runs[index].title == nil {
            // The run keeps the name it was heard under (a download can be removed, a source withdraw it).
            if let id = try? ContentID(validating: progress.runs[index].sessionID) { progress.runs[index].title = anySession(id)?.title }
        }
        let stored: [PracticeRunRecord]
        do {
            stored = try store.saveProgress(progress, clockTrusted: SystemClocks.isWallClockSynchronized(), now: wallMilliseconds)
        } catch {
            storeWriteFailed(error, progress.checkpoints.isEmpty ? "practice run" : "checkpoint")
            return
        }
        for checkpoint in progress.checkpoints {
            if case .save(let position) = checkpoint {
                logger.debug("checkpoint: \(position.sessionID) at \(TimeText.clock(position.seconds))")
            }
        }
        for (record, saved) in zip(progress.runs, stored) {
            guard let id = saved.id else { continue }
            if record.id == nil {
                if ledger.open?.record.sessionID == record.sessionID && ledger.open?.record.id == nil { ledger.didSave(id: id) }
                if !record.clockTrusted, let started = ledger.open?.startedMonotonic { untrustedRunsThisBoot[id] = started }
            } else if ledger.open?.record.id == id {
                ledger.didSave(id: id)
            }
        }
    }

    var wallMilliseconds: UnixMilliseconds { UnixMilliseconds(date: loop.wallNow) }
}
