import Devices
import EventLoop
import StillroomCore

/// The player's effects, performed: the engine for sound, the store for checkpoints (with the practice run
/// they update, in one transaction), loop timers. The rules between the player and the ledger are
/// `Listening`'s; this performs its two steps.
extension Daemon {
    /// Feeds an event to the player and performs what it asks.
    func apply(_ event: PlayerEvent) {
        // A press that asks for sound while the output is missing tries it once more first: a DAC whose
        // driver came up after start-up (or a cable plugged back) plays at once, not after the next retry.
        if !player.outputAvailable, event.asksForSound {
            retryOutput()
        }
        if event == .acceptResume, let offer = player.resumeOffer, let id = try? ContentID(validating: offer.position.sessionID),
           let length = content.lengths[id] {
            joinRunForResume(sessionID: offer.position.sessionID, sampleRate: length.sampleRate, recordingFrames: length.frames)
        }
        let step = listening.begin(event, now: loop.now)
        // A recording starting ends a breathing timer: one thing at a time, and the timer is silent.
        if breathingTimer != nil, player.phase == .playing || player.phase == .loading { finishBreathingTimer(completed: false) }
        // The output's effects first (they report what it played), then the one save, then a load.
        for effect in step.output { perform(effect) }
        let settled = listening.settle(step.plan, now: loop.now, wall: wallMilliseconds)
        switch settled.pauseTimer {
        case .cancel: runPauseTimer.cancel()
        case .armUnlessArmed:
            if !runPauseTimer.isScheduled { runPauseTimer.schedule(after: PracticeLedger.pauseClosesRunAfter) }
        case .leave: break
        }
        save(settled.save)
        for effect in settled.after { perform(effect) }
        if settled.sessionLeft {
            finishPendingPurge(after: "a session") // a quiet moment; a no-op unless a wipe waits for room
        }
        if !step.isEmpty && !player.outputAvailable && !outputRetryTimer.isScheduled {
            outputRetryTimer.schedule(after: .seconds(2))
        }
        // Effects can feed events back (a load answers `.loaded`): log each phase once, when it settles.
        if player.phase != loggedPhase {
            loggedPhase = player.phase
            logTransition()
            reminderFollowsPlayer()
        }
        // The screen extrapolates the position between reports; redraw for a new second, not every report.
        if case .heard = event {
            let second = Int(player.positionSeconds)
            if second == lastShownSecond { return }
            lastShownSecond = second
        }
        refreshModel()
    }

    /// Starts a session from the library (from the beginning).
    func play(sessionID id: ContentID) -> Bool {
        guard let session = anySession(id) else { return false }
        apply(.play(sessionID: id.rawValue, title: session.title))
        return true
    }

    private func perform(_ effect: PlayerEffect) {
        switch effect {
        case .load(let id):
            guard let contentID = try? ContentID(validating: id), let session = anySession(contentID),
                  let path = audioPath(of: session) else {
                apply(.loadFailed("The session \(id) is not on this box: download it first."))
                return
            }
            engine.load(path: path)
        case .startOutput(let frame):
            engine.start(fromFrame: frame)
        case .pauseOutput:
            engine.pause()
        case .stopOutput:
            engine.stop()
        case .seekOutput(let frame):
            engine.seek(toFrame: frame)
        // `apply` gathers these into one save with the practice runs (`ProgressSave.plan`); alone, each is a save of its own.
        case .saveCheckpoint(let position):
            save(ProgressSave(checkpoints: [.save(position)]))
        case .clearCheckpoint(let id):
            save(ProgressSave(checkpoints: [.clear(sessionID: id)]))
        case .scheduleCheckpoint(let at):
            checkpointTimer.schedule(at: at)
        case .cancelCheckpointTimer:
            checkpointTimer.cancel()
        }
    }

    /// The output opened before the first frame is drawn, so the screen never offers PLAY that cannot
    /// sound: open, the sink stays open for the first recording (at the rate PLAY would start); missing,
    /// the screen says "No sound output" from its first frame and the box keeps trying every 2 s.
    func openOutputBeforeReady() {
        let format = AudioFormat(sampleRate: startingSampleRate)
        if engine.probeOutput(format: format) {
            logger.info("audio output \(engine.sink.name) open at \(format.sampleRate) Hz")
            return
        }
        logger.warning("audio output \(engine.sink.name) cannot be opened; trying again every 2 s")
        apply(.outputLost("\(engine.sink.name) cannot be opened"))
        outputRetryTimer.schedule(after: .seconds(2))
    }

    /// The rate of the recording PLAY would start first (the offered place, else the first-boot session).
    private var startingSampleRate: Int {
        let first = player.resumeOffer.flatMap { try? ContentID(validating: $0.position.sessionID) }
            ?? content.catalog.firstBootSession?.id
        return first.flatMap { content.lengths[$0]?.sampleRate } ?? 44_100
    }

    /// While the output is lost, try to open it every 2 s; when it is back, say so (and stay paused).
    func retryOutput() {
        guard !player.outputAvailable else { return }
        let format = AudioFormat(sampleRate: engine.sampleRate > 0 ? engine.sampleRate : 44_100)
        if engine.probeOutput(format: format) {
            logger.notice("audio output \(engine.sink.name) is back")
            outputNoticeDismissed = false // a later loss shows its notice again
            apply(.outputRestored)
        } else {
            outputRetryTimer.schedule(after: .seconds(2))
        }
    }

    private func logTransition() {
        let id = player.sessionID ?? "-"
        let at = TimeText.clock(player.positionSeconds)
        switch player.phase {
        case .playing: logger.info("playing \(id) from \(at)")
        case .paused: logger.info("paused \(id) at \(at) (\(player.pauseReason?.rawValue ?? "user"))")
        case .ended: logger.info("ended \(id)")
        case .failed(let message): logger.error("cannot play \(id): \(message)")
        case .idle: logger.info("stopped")
        case .loading: logger.debug("loading \(id)")
        }
    }
}
