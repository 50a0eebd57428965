import EventLoop
import StillroomCore

/// The box's rules, performed: every device report, timer, command and rebuilt model goes to the box as a
/// `BoxEvent`; what it asks for comes back as `BoxEffect`s, performed here in order.
extension Daemon {
    /// Hands `event` to the box at this moment and performs what it asks.
    func feed(_ event: BoxEvent) {
        if case .heard = event {} else { reopenStoreIfTheCardHasRoom() } // what the event saves may be kept again
        perform(box.handle(event, now: loop.now, wall: wallMilliseconds))
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
            effectPerformed?()
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
