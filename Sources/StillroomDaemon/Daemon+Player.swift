import Devices
import EventLoop
import SystemCalls
import StillroomCore

/// The player's effects on the output, performed: the engine for sound, loop timers. The rules around the
/// player and the ledger are the box's (Box+Listening.swift).
extension Daemon {
    /// Hands an event to the player, in the box, and performs what it asks.
    func apply(_ event: PlayerEvent) { feed(.player(event)) }

    /// Starts a session from the library (from the beginning).
    func play(sessionID id: ContentID) -> Bool {
        guard let session = anySession(id) else { return false }
        apply(.play(sessionID: id.rawValue, title: session.title))
        return true
    }

    func perform(_ effect: OutputEffect) {
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
        // The box gathers these into one save with the practice runs (`ProgressSave.plan`); alone, each is a save of its own.
        case .saveCheckpoint(let position):
            save(ProgressSave(checkpoints: [.save(position)]))
        case .clearCheckpoint(let id):
            save(ProgressSave(checkpoints: [.clear(sessionID: id)]))
        }
    }

    /// The output opened before the first frame is drawn, so the screen never offers PLAY that cannot
    /// sound: open, the sink stays open for the first recording (at the rate PLAY would start); missing,
    /// the screen says "No sound output" from its first frame and the box tries again: at once when a
    /// sound card's node changes, else every 2 s.
    func openOutputBeforeReady() {
        let format = AudioFormat(sampleRate: startingSampleRate)
        if engine.probeOutput(format: format) {
            logger.info("audio output \(engine.sink.name) open at \(format.sampleRate) Hz")
            return
        }
        logger.warning("audio output \(engine.sink.name) cannot be opened; trying again when a sound device changes, and every 2 s")
        apply(.outputLost("\(engine.sink.name) cannot be opened")) // the box keeps it being retried
    }

    /// The rate of the recording PLAY would start first (the offered place, else the first-boot session).
    private var startingSampleRate: Int {
        let first = player.resumeOffer.flatMap { try? ContentID(validating: $0.position.sessionID) }
            ?? content.catalog.firstBootSession?.id
        return first.flatMap { content.lengths[$0]?.sampleRate } ?? 44_100
    }

    /// While the output is lost, try to open it again (on the box's timer, and on each change among the
    /// sound devices: `reason`); when it is back, say so (and stay paused).
    func retryOutput(after reason: String? = nil) {
        guard !player.outputAvailable else { return }
        let format = AudioFormat(sampleRate: engine.sampleRate > 0 ? engine.sampleRate : 44_100)
        if engine.probeOutput(format: format) {
            logger.notice("audio output \(engine.sink.name) is back" + (reason.map { " (\($0))" } ?? ""))
            sounds.devicesWatcher = nil
            apply(.outputRestored)
        } else {
            if let reason { logger.debug("audio output \(engine.sink.name) still cannot be opened (tried: \(reason))") }
        }
    }

    /// While the output is lost, a change among the sound cards' nodes tries it again at once: a card
    /// made (a USB DAC plugged in, a driver loaded late) or given its group by udev (at boot, a moment
    /// after the kernel made the node root's alone: the daemon may have started in between). The 2 s
    /// timer stays, for what changes no node (a device another program held, let go).
    func watchSoundDevices() {
        guard sounds.devicesWatcher == nil else { return }
        let directory = options.soundDeviceDirectory
        do {
            sounds.devicesWatcher = try DeviceFolderWatcher(loop: loop, path: directory) { [unowned self] change in
                switch change {
                case .nodes(let names): retryOutput(after: "\(names.first ?? "a node") changed in \(directory)")
                case .folderAppeared: retryOutput(after: "\(directory) appeared")
                }
            }
        } catch {
            logger.warning("audio output: cannot watch \(directory) for sound devices (\(error)); trying every 2 s")
        }
    }

    func logTransition(_ phase: PlayerPhase) {
        let id = player.sessionID ?? "-"
        let at = TimeText.clock(player.positionSeconds)
        switch phase {
        case .playing: logger.info("playing \(id) from \(at)")
        case .paused: logger.info("paused \(id) at \(at) (\(player.pauseReason?.rawValue ?? "user"))")
        case .ended: logger.info("ended \(id)")
        case .failed(let message): logger.error("cannot play \(id): \(message)")
        case .idle: logger.info("stopped")
        case .loading: logger.debug("loading \(id)")
        }
    }
}
