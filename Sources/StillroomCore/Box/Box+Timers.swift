/// The box's timers (`BoxTimer`): what each machine asks of its alarms becomes `.arm` or `.cancel`, and
/// the box keeps what it asked for, so the rules that depend on a timer running are decided here:
///
/// - the long-pause timer is armed once per pause (a longer pause does not push it back);
/// - while the output is missing it is retried every 2 s and whenever a sound device changes; once it
///   is back the retries stop;
/// - the clock on screen turns each minute, but not while the screen is dark (the box sleeps through
///   the minutes; the model catches up when the screen lights);
/// - the reminder's recheck is at least a second away, on the monotonic clock (a pause grows with it).
extension Box {
    /// How often a missing output is tried again.
    public static let outputRetryInterval: Duration = .seconds(2)

    mutating func arm(_ timer: BoxTimer, at deadline: TimerDeadline) -> [BoxEffect] {
        armed[timer] = deadline
        return [.arm(timer, at: deadline)]
    }

    mutating func arm(_ timer: BoxTimer, at instant: MonotonicInstant) -> [BoxEffect] {
        arm(timer, at: .monotonic(instant))
    }

    mutating func cancel(_ timer: BoxTimer) -> [BoxEffect] {
        guard armed.removeValue(forKey: timer) != nil else { return [] }
        return [.cancel(timer)]
    }

    /// A timer fired: it is no longer armed, and its machine hears it.
    mutating func fired(_ timer: BoxTimer, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        armed[timer] = nil
        switch timer {
        case .checkpoint:
            return begin(.checkpointTimer, prepared: false, now: now, wall: wall)
        case .runPause:
            return saving(listening.pauseRanOut(wall: wall))
        case .gesture:
            let gesture = controls.gestureTimerFired(at: now)
            let armed = gestureTimer()
            guard let gesture else { return armed }
            return armed + stopReading(unless: false) + wrap(interface.handle(gesture: gesture, model: model, now: now), now: now)
                + [.redraw]
        case .interface(let timer):
            return wrap(interface.handle(timer: timer, model: model, now: now), now: now) + [.redraw]
        case .reminder:
            return reminderDue(now: now, wall: wall)
        case .reminderRecheck:
            return reminderFollows(now: now, wall: wall)
        case .breathingEnd:
            return finishBreathingTimer(completed: true, now: now, wall: wall)
        case .breathingRunSave:
            return checkpointBreathingTimer(now: now, wall: wall)
        case .outputRetry:
            guard !player.outputAvailable else { return [] }
            return arm(.outputRetry, at: now + Self.outputRetryInterval) + [.retryOutput]
        case .minute:
            return [.rebuildModel]
        case .speech(let timer):
            return voiceEffects(voice.fired(timer, now: now))
        }
    }

    /// The held-gesture timer as the chord detector wants it now.
    mutating func gestureTimer() -> [BoxEffect] {
        guard let due = controls.gestureDueAt else { return cancel(.gesture) }
        if armed[.gesture] == .monotonic(due) { return [] }
        return arm(.gesture, at: due)
    }

    /// The player's effects, its checkpoint timer among the box's.
    mutating func output(_ effects: [PlayerEffect]) -> [BoxEffect] {
        effects.flatMap { effect -> [BoxEffect] in
            switch effect {
            case .scheduleCheckpoint(let at): return arm(.checkpoint, at: at)
            case .cancelCheckpointTimer: return cancel(.checkpoint)
            case .load(let id): return [.output(.load(sessionID: id))]
            case .startOutput(let frame): return [.output(.startOutput(fromFrame: frame))]
            case .pauseOutput: return [.output(.pauseOutput)]
            case .stopOutput: return [.output(.stopOutput)]
            case .seekOutput(let frame): return [.output(.seekOutput(toFrame: frame))]
            case .saveCheckpoint(let position): return [.output(.saveCheckpoint(position))]
            case .clearCheckpoint(let id): return [.output(.clearCheckpoint(sessionID: id))]
            }
        }
    }

    /// The ledger's long-pause timer: armed once per pause.
    mutating func runPause(_ timer: PracticeLedger.PauseTimer, now: MonotonicInstant) -> [BoxEffect] {
        switch timer {
        case .cancel: return cancel(.runPause)
        case .armUnlessArmed: return armed[.runPause] == nil ? arm(.runPause, at: now + PracticeLedger.pauseClosesRunAfter) : []
        case .leave: return []
        }
    }

    /// While the output is missing, it is being retried; once back, it is not.
    mutating func outputRetries(now: MonotonicInstant) -> [BoxEffect] {
        if player.outputAvailable { return cancel(.outputRetry) }
        guard armed[.outputRetry] == nil else { return [] }
        return arm(.outputRetry, at: now + Self.outputRetryInterval) + [.watchSoundDevices]
    }

    /// The clock on screen: the next minute's turn armed while the screen is lit, none while it is dark.
    mutating func minuteFollowsScreen(wall: UnixMilliseconds) -> [BoxEffect] {
        guard started, !interface.isDark else { return cancel(.minute) }
        let next = TimerDeadline.wallClock((wall / 1000 / 60 + 1) * 60)
        return armed[.minute] == next ? [] : arm(.minute, at: next)
    }

    /// The breathing timer's effects, its alarms among the box's.
    mutating func silentEffects(_ effects: [SilentPractice.Effect], now: MonotonicInstant) -> [BoxEffect] {
        effects.flatMap { effect -> [BoxEffect] in
            switch effect {
            case .endAlarm(let at?): return arm(.breathingEnd, at: at)
            case .endAlarm(nil): return cancel(.breathingEnd)
            case .checkpointAlarm(let after?): return arm(.breathingRunSave, at: now + after)
            case .checkpointAlarm(nil): return cancel(.breathingRunSave)
            case .started(let timer): return [.silent(.started(timer))]
            case .stopped(let completed, let seconds): return [.silent(.stopped(completed: completed, seconds: seconds))]
            case .softCue(let moment): return [.silent(.softCue(moment))]
            case .saveRun(let run, let started): return [.silent(.saveRun(run, startedMonotonic: started))]
            }
        }
    }

    /// The reminder's effects, its timers among the box's.
    mutating func reminderEffects(_ effects: [ReminderMachine.Effect], now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        effects.flatMap { effect -> [BoxEffect] in
            switch effect {
            case .schedule(let at?): return arm(.reminder, at: .wallClock(at))
            case .schedule(nil): return cancel(.reminder)
            case .recheck(let at): return arm(.reminderRecheck, at: now + .seconds(max(1, at - wall / 1000)))
            case .chime: return [.reminder(.chime)]
            case .glow: return [.reminder(.glow)]
            case .firedOn(let day): return [.reminder(.firedOn(day))]
            }
        }
    }
}
