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

    /// Keeps the ledger in step with the player: checkpoints write the run, leaving a session closes it,
    /// a long pause closes it too.
    func ledgerFollowsPlayer(checkpointed: Bool) {
        switch player.phase {
        case .playing:
            runPauseTimer.cancel()
            if checkpointed { perform(ledger.checkpoint(wall: wallMilliseconds)) }
        case .paused:
            if checkpointed { perform(ledger.checkpoint(wall: wallMilliseconds)) }
            if ledger.open != nil && !runPauseTimer.isScheduled { runPauseTimer.schedule(after: PracticeLedger.pauseClosesRunAfter) }
        case .loading:
            runPauseTimer.cancel()
            if let open = ledger.open, open.record.sessionID != player.sessionID { perform(ledger.close(wall: wallMilliseconds)) }
        case .idle, .ended, .failed:
            runPauseTimer.cancel()
            if ledger.open != nil {
                perform(ledger.close(wall: wallMilliseconds))
                finishPendingPurge(after: "a session") // a quiet moment; a no-op unless a wipe waits for room
            }
        }
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

    func perform(_ effects: [PracticeLedger.Effect]) {
        if !effects.isEmpty { historySummary = nil } // the history screen reads runs that just changed
        for effect in effects {
            guard case .save(var record) = effect else { continue }
            // The run keeps the name it was heard under (a download can be removed, a source withdraw it).
            if record.title == nil, let id = try? ContentID(validating: record.sessionID) { record.title = anySession(id)?.title }
            do {
                if record.id == nil {
                    let saved = try store.insertPracticeRun(record)
                    if let id = saved.id {
                        if ledger.open?.record.sessionID == record.sessionID && ledger.open?.record.id == nil { ledger.didSave(id: id) }
                        if !record.clockTrusted, let started = ledger.open?.startedMonotonic { untrustedRunsThisBoot[id] = started }
                    }
                } else {
                    _ = try store.updatePracticeRun(record)
                    if ledger.open?.record.id == record.id { ledger.didSave(id: record.id!) }
                }
            } catch {
                storeWriteFailed(error, "practice run")
            }
        }
    }

    var wallMilliseconds: UnixMilliseconds { UnixMilliseconds(date: loop.wallNow) }
}
