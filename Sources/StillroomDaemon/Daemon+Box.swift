import EventLoop
import StillroomCore

/// The box's rules, performed: every device report, timer, command and rebuilt model goes to the box as a
/// `BoxEvent`; what it asks for comes back as `BoxEffect`s, performed here in order.
extension Daemon {
    /// Hands `event` to the box at this moment and performs what it asks; then the reports that came in
    /// meanwhile (`report`), in order, each to its end before the next.
    func feed(_ event: BoxEvent) {
        reports.depth += 1
        perform(box.handle(event, now: loop.now, wall: wallMilliseconds))
        reports.depth -= 1
        guard reports.depth == 0 else { return }
        while let next = reports.waiting.first {
            reports.waiting.removeFirst()
            reports.depth += 1
            perform(box.handle(next, now: loop.now, wall: wallMilliseconds))
            reports.depth -= 1
        }
    }

    /// What a device saw by itself (the engine's loaded, paused, ended, lost, heard): heard by the box
    /// now, or, when it comes while the box's effects are still being performed (the engine answering a
    /// `.load` or a `.pauseOutput` at once), once they all are. The box never hears a device in the middle
    /// of what it asked for. (An effect's own answer, like `.spoke` or `.continueRun`, is not a report: it
    /// is fed at once, before the effects after it.)
    func report(_ event: BoxEvent) {
        if reports.depth > 0 {
            reports.waiting.append(event)
        } else {
            feed(event)
        }
    }

    /// A named timer fired: the box hears it.
    func fired(_ timer: BoxTimer) {
        feed(.timer(timer))
        if timer == .runPause { logger.info("practice: run closed after a long pause") }
    }

    /// Performs the box's effects in order. The interface's own come in runs, one run per event: a
    /// setting the card cannot save silences what the rest of its run meant to say (Daemon+Interface);
    /// the timers and the words among them do not end a run.
    func perform(_ effects: [BoxEffect]) {
        var refused = false
        for effect in effects {
            switch effect {
            case .interface(let effect): refused = perform(effect, afterRefusal: refused)
            case .arm, .cancel: perform(effect)
            case .then(.speech(.readTranscript)): perform(effect)
            case .then(.speech) where refused: continue
            case .then(.speech): perform(effect)
            default:
                refused = false
                perform(effect)
            }
        }
    }

    private func perform(_ effect: BoxEffect) {
        switch effect {
        case .interface(let effect): _ = perform(effect, afterRefusal: false)
        case .arm(let timer, let deadline): timers.arm(timer, at: deadline)
        case .cancel(let timer): timers.cancel(timer)
        case .say(let text): feed(.spoke(seconds: speakNow(text)))
        case .redraw: screen?.invalidate()
        case .then(let event): feed(event)
        case .output(let effect): perform(effect)
        case .retryOutput: retryOutput()
        case .watchSoundDevices: watchSoundDevices()
        case .joinLatestRun(let sessionID): joinRunForResume(sessionID: sessionID)
        case .save(let progress): save(progress)
        case .redateRuns(let runs): redate(runs)
        case .silent(let effect): perform(effect)
        case .sessionLeft: finishPendingPurge(after: "a session") // a quiet moment; a no-op unless a wipe waits for room
        case .playerPhaseChanged(let phase): logTransition(phase)
        case .reminder(let effect): perform([effect])
        case .rebuildModel: refreshModel()
        }
    }
}
