import ALSAAudio
import Devices
import EvdevInput
import EventLoop
import GPIODInput
import StillroomCore
import TerminalInput

/// The controls: the board file says which backend reads each one; all of them feed the same events,
/// which the control mapper turns into actions on the current screen.
extension Daemon {
    /// Parses the board file and starts its backends. `--input terminal` reads every control from the
    /// terminal (the simulator); `--input gpio|evdev` starts what the board file names; `none`, nothing.
    func startInput() throws(StartupError) {
        guard options.input != .none else { return }
        let board = try Self.loadBoard(options)
        var backends: [InputBackend] = []
        switch options.input {
        case .terminal:
            backends = [TerminalInput(loop: loop, board: board)]
        case .gpio, .evdev:
            let kinds = board.backends
            guard kinds.contains(.gpio) || kinds.contains(.evdev) || kinds.contains(.alsa) else {
                throw StartupError("board file \(options.boardFile) names no gpio or evdev controls; use --input terminal or none")
            }
            if kinds.contains(.gpio) { backends.append(GPIODInput(loop: loop, board: board)) }
            if kinds.contains(.evdev) { backends.append(EvdevInput(loop: loop, board: board)) }
            if kinds.contains(.terminal) { backends.append(TerminalInput(loop: loop, board: board)) }
            if case .alsa(let card, let control) = board.jack.source { startJackMonitor(card: card, control: control) }
        case .none:
            return
        }
        for backend in backends {
            backend.onNotice = { [logger] notice in
                switch notice.level {
                case .warning: logger.warning("input: \(notice.message)")
                default: logger.info("input: \(notice.message)")
                }
            }
            do {
                try backend.start { [unowned self] event in handleInput(event) }
            } catch {
                throw StartupError("input: \(error.message)")
            }
        }
        inputBackends = backends
        logger.info("input: \(backends.map(\.name).joined(separator: ", ")) from \(board.name ?? options.boardFile)")
    }

    func stopInput() {
        for backend in inputBackends { backend.stop() }
        inputBackends = []
        jackMonitor?.stop()
        if options.input == .terminal { TerminalInput.restoreTerminal() }
    }

    /// One event from any backend.
    func handleInput(_ event: InputEvent) {
        guard let action = controlMapper.action(for: event, on: screenKind, dark: screenIsDark) else { return }
        perform(action)
    }

    /// The screen the controls act on. (The interface decides this once it draws screens; until then it
    /// follows the player.)
    var screenKind: ScreenKind {
        if player.resumeOffer != nil { return .resumeOffer }
        return player.sessionID == nil ? .home : .player
    }

    var screenIsDark: Bool { false }

    func perform(_ action: ControlAction) {
        switch action {
        case .playPause:
            if player.sessionID == nil && player.resumeOffer == nil, let session = content.catalog.firstBootSession {
                _ = play(sessionID: session.id)
            } else {
                apply(.toggle)
            }
        case .acceptResume: apply(.acceptResume)
        case .dismissResume: apply(.dismissResume)
        case .seekPreview(let seconds) where player.sampleRate > 0:
            apply(.seekBy(frames: Int64(seconds) * Int64(player.sampleRate)))
        case .headphones(let connected):
            apply(.headphones(connected: connected))
            applySettings() // the headphone cap
        case .quit:
            logger.notice("stopping: quit from the terminal")
            notifier.stopping()
            loop.stop()
        case .back, .home:
            if player.phase == .paused || player.phase == .ended { apply(.stop) }
        default:
            break
        }
    }

    private func startJackMonitor(card: String, control: String) {
        let monitor = ALSAJackMonitor(card: card, controlName: control, loop: loop)
        do {
            try monitor.start { [unowned self] event in
                switch event {
                case .connected(let connected): handleInput(.jack(connected: connected))
                case .removed:
                    logger.warning("input: the jack control on \(card) went away; assuming headphones are out")
                    handleInput(.jack(connected: false))
                }
            }
            jackMonitor = monitor
        } catch {
            logger.warning("input: \(error.message); headphone detection is off")
        }
    }

    private static func loadBoard(_ options: DaemonOptions) throws(StartupError) -> Board {
        let text: String
        do {
            text = String(decoding: try FileReading.bytes(options.boardFile, limit: 1 << 20), as: UTF8.self)
        } catch {
            throw StartupError("board file \(error)")
        }
        do {
            return try BoardFileParser.parse(text, fileName: options.boardFile)
        } catch {
            throw StartupError("\(error)")
        }
    }
}
