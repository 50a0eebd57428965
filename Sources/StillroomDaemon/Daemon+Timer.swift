import ControlProtocol
import EventLoop
import SQLiteStore
import StillroomCore

/// The silent breathing timer: the circle paces the breath for a set time, with a soft cue at the start
/// and the end, and the minutes kept as silent practice (a setting).
extension Daemon {
    /// Starts a timer from the CLI, or says why not (an unknown pattern or length).
    func startBreathingTimer(patternName: String, minutes: Int) -> Result<ControlReply, ControlError> {
        guard BreathingTimer(patternName: patternName, minutes: minutes, startedAt: loop.now) != nil else {
            return .failure(ControlError(.invalidArgument, ControlCommand.timerRefusal))
        }
        feed(.startBreathingTimer(pattern: patternName, minutes: minutes))
        return .success(.timer(timerReport()))
    }

    /// The timer's effects (the rules are the box's: Box+Silent.swift, SilentPractice).
    func perform(_ effect: SilentAction) {
        switch effect {
        case .started(let timer):
            logger.info("breathing timer: \(timer.patternName) for \(Int(timer.length.seconds) / 60) min")
        case .stopped(let completed, let seconds):
            logger.info("breathing timer: \(completed ? "finished" : "stopped") after \(Int(seconds)) s")
        case .softCue(let moment): cue(moment.rawValue)
        case .saveRun(let run, let started): saveTimerRun(run, startedMonotonic: started)
        }
    }

    /// Inserts the timer's run (answering the box with its id) or updates it.
    private func saveTimerRun(_ run: PracticeRunRecord, startedMonotonic: MonotonicInstant) {
        do {
            if run.id == nil {
                feed(.timerRunInserted(try store.insertPracticeRun(run), startedMonotonic: startedMonotonic))
            } else {
                _ = try store.updatePracticeRun(run)
            }
            modelSources.historySummary = nil // the history screen's silent minutes changed
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

    func timerCommand(_ request: ControlCommand.TimerRequest) -> Result<ControlReply, ControlError> {
        switch request {
        case .show:
            return .success(.timer(timerReport()))
        case .start(let pattern, let minutes):
            // Without a choice, the one last made on the box.
            return startBreathingTimer(patternName: pattern ?? settings.timerPattern, minutes: minutes ?? settings.timerMinutes)
        case .stop:
            guard breathingTimer != nil else { return .failure(ControlError(.notFound, "no breathing timer is running")) }
            feed(.stopBreathingTimer)
            return .success(.timer(timerReport()))
        }
    }

    func timerReport() -> TimerReport {
        let running = breathingTimer.map { timer in
            TimerReport.Running(pattern: timer.patternName, minutes: timer.length.seconds / 60,
                                remainingSeconds: Self.seconds(timer.remaining(at: loop.now).seconds),
                                phase: timer.breath(at: loop.now).phase?.rawValue)
        }
        return TimerReport(running: running)
    }
}
