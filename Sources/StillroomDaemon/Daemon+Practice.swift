import EventLoop
import SQLiteStore
import StillroomCore

/// Practice accounting wired to playback: heard frames in, runs out to the store.
extension Daemon {
    /// The engine reports recording ranges the device played (`Listening` attributes them to the session
    /// the engine has open).
    func recordHeard(_ ranges: [Range<Int64>]) {
        feed(.heard(ranges))
    }

    /// Accepting a resume offer continues the session's latest run when it is not complete.
    func joinRunForResume(sessionID: String) {
        guard let id = try? ContentID(validating: sessionID), let length = content.lengths[id],
              let recent = try? store.recentPracticeRuns(limit: 20),
              let run = recent.first(where: { $0.sessionID == sessionID }), run.completedAt == nil,
              recent.first?.sessionID == sessionID else { return }
        feed(.continueRun(run, sampleRate: length.sampleRate, recordingFrames: length.frames))
        logger.info("practice: continuing run \(run.id ?? 0) of \(sessionID)")
    }

    /// The clock was set: the box learns whether it is synchronised now (becoming so, it asks for the runs
    /// of this boot to be dated again: `redate`) and plans the reminder again.
    func clockChanged() {
        feed(.clockSet(trusted: clockSynchronized()))
    }

    /// Dates again the runs first saved under the untrusted clock, from their monotonic start.
    func redate(_ runs: [Int64: MonotonicInstant]) {
        let wall = wallMilliseconds
        for (id, started) in runs {
            guard let record = try? store.practiceRun(id: id), !record.clockTrusted else { continue }
            _ = try? store.updatePracticeRun(PracticeLedger.redated(record, startedMonotonic: started, now: loop.now, wall: wall))
        }
        logger.notice("clock synchronised: practice runs of this boot re-dated")
    }

    /// Keeps a place and the practice runs with it in one transaction (one fsync), then tells the ledger the
    /// ids the store gave. On failure nothing of it is kept; the ledger still holds the runs as unsaved, and
    /// the next checkpoint tries again.
    func save(_ progress: ProgressSave) {
        guard !progress.isEmpty else { return }
        var progress = progress
        if !progress.runs.isEmpty { modelSources.historySummary = nil } // the history screen reads runs that just changed
        for index in progress.runs.indices where progress.runs[index].title == nil {
            // The run keeps the name it was heard under (a download can be removed, a source withdraw it).
            if let id = try? ContentID(validating: progress.runs[index].sessionID) { progress.runs[index].title = anySession(id)?.title }
        }
        let stored: [PracticeRunRecord]
        do {
            stored = try store.saveProgress(progress, clockTrusted: clockSynchronized(), now: wallMilliseconds)
        } catch {
            storeWriteFailed(error, progress.checkpoints.isEmpty ? "practice run" : "checkpoint")
            return
        }
        for checkpoint in progress.checkpoints {
            switch checkpoint {
            case .save(let position):
                logger.debug("checkpoint: \(position.sessionID) at \(TimeText.clock(position.seconds))")
                storage.checkpointOnCard = (position, loop.now)
            case .clear(let id):
                if storage.checkpointOnCard?.position.sessionID == id { storage.checkpointOnCard = nil }
            }
        }
        storeWriteWentThrough()
        feed(.saved(runs: progress.runs, as: stored))
    }

    var wallMilliseconds: UnixMilliseconds { UnixMilliseconds(date: loop.wallNow) }
}
