import EventLoop
import StillroomCore

/// The box's rules, performed: every device report, timer, command and rebuilt model goes to the box as a
/// `BoxEvent`; what it asks for comes back as `BoxEffect`s, performed here in order.
extension Daemon {
    /// Hands `event` to the box at this moment and performs what it asks.
    func feed(_ event: BoxEvent) {
        perform(box.handle(event, now: loop.now, wall: wallMilliseconds))
    }

    /// Performs the box's effects in order; the interface's own come in runs, one run per event, each
    /// performed as a whole (a refusal in it silences what it meant to say).
    func perform(_ effects: [BoxEffect]) {
        var run: [InterfaceEffect] = []
        for effect in effects {
            if case .interface(let effect) = effect {
                run.append(effect)
                continue
            }
            if !run.isEmpty { perform(run) }
            run = []
            perform(effect)
        }
        if !run.isEmpty { perform(run) }
    }

    private func perform(_ effect: BoxEffect) {
        switch effect {
        case .interface(let effect): perform([effect])
        case .gestureTimer(let due):
            if let due { chordTimer.schedule(at: due) } else { chordTimer.cancel() }
        case .stopReadingAloud: stopReading()
        case .redraw: screen?.invalidate()
        case .then(let event): feed(event)
        case .output(let effect): perform(effect)
        case .retryOutput: retryOutput()
        case .keepRetryingOutput:
            if !outputRetryTimer.isScheduled { outputRetryTimer.schedule(after: .seconds(2)) }
            watchSoundDevices()
        case .joinLatestRun(let sessionID): joinRunForResume(sessionID: sessionID)
        case .save(let progress): save(progress)
        case .runPauseTimer(.cancel): runPauseTimer.cancel()
        case .runPauseTimer(.armUnlessArmed):
            if !runPauseTimer.isScheduled { runPauseTimer.schedule(after: PracticeLedger.pauseClosesRunAfter) }
        case .runPauseTimer(.leave): break
        case .redateRuns(let runs): redate(runs)
        case .silent(let effect): perform(effect)
        case .sessionLeft: finishPendingPurge(after: "a session") // a quiet moment; a no-op unless a wipe waits for room
        case .playerPhaseChanged(let phase): logTransition(phase)
        case .reminder(let effect): perform([effect])
        case .rebuildModel: refreshModel()
        }
    }
}
