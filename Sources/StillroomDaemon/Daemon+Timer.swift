import ControlProtocol
import EventLoop
import SQLiteStore
import StillroomCore

/// The silent breathing timer: the circle paces the breath for a set time, with a soft cue at the start
/// and the end, and the minutes kept as silent practice (a setting).
extension Daemon {
    func startBreathingTimer(patternName: String, minutes: Int) -> Result<JSONValue, ControlError> {
        guard let timer = BreathingTimer(patternName: patternName, minutes: minutes, startedAt: loop.now) else {
            return .failure(ControlError(.invalidArgument, ControlCommand.timerRefusal))
        }
        if breathingTimer != nil { finishBreathingTimer(completed: false) }
        if player.phase == .playing { apply(.pause(.user)) } // silence means silence
        breathingTimer = timer
        timerStartedWall = wallMilliseconds
        timerRunID = nil
        breathingTimerEnd.schedule(at: timer.endsAt)
        timerRunCheckpoint.schedule(after: PlayerMachine.checkpointInterval)
        cue("start")
        logger.info("breathing timer: \(patternName) for \(minutes) min")
        return .success(timerJSON())
    }

    /// Ends the timer: `completed` when it ran its length. The minutes are recorded (10 s minimum).
    func finishBreathingTimer(completed: Bool) {
        guard let timer = breathingTimer else { return }
        breathingTimer = nil
        defer { refreshModel() } // the screen follows: the running timer goes, back to where it started
        breathingTimerEnd.cancel()
        timerRunCheckpoint.cancel()
        let seconds = timer.elapsedSeconds(at: loop.now)
        if completed { cue("end") }
        logger.info("breathing timer: \(completed ? "finished" : "stopped") after \(Int(seconds)) s")
        saveTimerRun(timer, completed: completed)
        timerRunID = nil
    }

    /// Every 10 s of a running timer its run is saved, as a listening run's is: a power cut costs at most
    /// 10 s of silent practice, not the whole timer.
    func checkpointTimerRun() {
        guard let timer = breathingTimer else { return }
        saveTimerRun(timer, completed: false)
        timerRunCheckpoint.schedule(after: PlayerMachine.checkpointInterval)
    }

    /// Inserts the timer's run (once it is 10 s long, the minimum any run needs) or updates it.
    private func saveTimerRun(_ timer: BreathingTimer, completed: Bool) {
        let seconds = timer.elapsedSeconds(at: loop.now)
        guard settings.timerCounts, seconds >= PracticeLedger.minimumListeningSeconds else { return }
        // With a trusted clock the start is now minus what elapsed: a clock synchronised mid-timer dates the
        // run correctly, and later saves never undo the re-dating of an earlier one.
        let startedAt = clockTrusted ? wallMilliseconds - Int64((seconds * 1000).rounded()) : (timerStartedWall ?? wallMilliseconds)
        let run = PracticeRunRecord(id: timerRunID, sessionID: timer.practiceSessionID, startedAt: startedAt,
                                    actualListeningSeconds: seconds, coveredSeconds: seconds,
                                    coveredRanges: [CoveredRange(start: 0, end: seconds)], recordingSeconds: timer.length.seconds,
                                    completedAt: completed ? wallMilliseconds : nil, clockTrusted: clockTrusted, updatedAt: wallMilliseconds)
        do {
            if timerRunID == nil {
                let saved = try store.insertPracticeRun(run)
                timerRunID = saved.id
                if !run.clockTrusted, let id = saved.id { untrustedRunsThisBoot[id] = timer.startedAt } // re-dated with the others
            } else {
                _ = try store.updatePracticeRun(run)
            }
            historySummary = nil // the history screen's silent minutes changed
        } catch {
            storeWriteFailed(error, "silent practice")
        }
    }

    /// The soft cue: the chime where sound is allowed, otherwise only the screen's glow.
    private func cue(_ moment: String) {
        let mayChime = effectiveVolume > 0 && !isNight && player.outputAvailable
        if mayChime, playSound("chime") {
            logger.debug("breathing timer: \(moment) chime")
        } else {
            logger.debug("breathing timer: \(moment) glow (sound not allowed now)")
            glow()
        }
    }

    func timerCommand(_ request: ControlCommand.TimerRequest) -> Result<JSONValue, ControlError> {
        switch request {
        case .show:
            return .success(timerJSON())
        case .start(let pattern, let minutes):
            // Without a choice, the one last made on the box.
            return startBreathingTimer(patternName: pattern ?? settings.timerPattern, minutes: minutes ?? settings.timerMinutes)
        case .stop:
            guard breathingTimer != nil else { return .failure(ControlError(.notFound, "no breathing timer is running")) }
            finishBreathingTimer(completed: false)
            return .success(timerJSON())
        }
    }

    func timerJSON() -> JSONValue {
        let running = breathingTimer.map { timer in
            TimerReport.Running(pattern: timer.patternName, minutes: timer.length.seconds / 60,
                                remainingSeconds: Self.seconds(timer.remaining(at: loop.now).seconds),
                                phase: timer.breath(at: loop.now).phase?.rawValue)
        }
        return TimerReport(running: running).json
    }
}
