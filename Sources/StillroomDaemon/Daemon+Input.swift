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
            let terminal = TerminalInput(loop: loop, board: board, fd: terminalFD)
            // The simulator's terminal closed: nobody can press a key or Ctrl-C any more, and a daemon left
            // running would hold the data folder (the next `scripts/run` was refused). A clean stop.
            terminal.onHangUp = { [unowned self] in stop(because: "as the terminal closed (input)") }
            backends = [terminal]
        case .gpio, .evdev:
            let kinds = board.backends
            guard kinds.contains(.gpio) || kinds.contains(.evdev) || kinds.contains(.alsa) else {
                throw StartupError("board file \(options.boardFile) names no gpio or evdev controls; use --input terminal or none")
            }
            if kinds.contains(.gpio) { backends.append(GPIODInput(loop: loop, board: board)) }
            if kinds.contains(.evdev) { backends.append(EvdevInput(loop: loop, board: board)) }
            if kinds.contains(.terminal) { backends.append(TerminalInput(loop: loop, board: board, fd: terminalFD)) }
            if case .alsa(let card, let control) = board.jack.source { startJackMonitor(card: card, control: control) }
        case .none:
            return
        }
        for backend in backends {
            backend.onNotice = { [unowned self] notice in
                switch notice.level {
                case .warning: logger.warning("input: \(notice.message)")
                default: logger.info("input: \(notice.message)")
                }
                // A device gone or come: the controls notice follows (once running; at start the first
                // model is built after the input anyway). A later loss shows a dismissed notice again.
                guard !inputs.backends.isEmpty else { return }
                refreshModel()
            }
            do {
                try backend.start { [unowned self] event in handleInput(event) }
            } catch {
                throw StartupError("input: \(error.message)")
            }
        }
        inputs.backends = backends
        logger.info("input: \(backends.map(\.name).joined(separator: ", ")) from \(board.name ?? options.boardFile)")
    }

    func stopInput() {
        for backend in inputs.backends { backend.stop() }
        inputs.backends = []
        inputs.jackMonitor?.stop()
        // (A terminal backend put its own terminal back as it stopped; the process-wide restore is for exit
        // and crashes, and here would put back another's: an in-process test's, running beside this one.)
    }

    /// One event from any backend, for the box to map and perform (Box).
    func handleInput(_ event: InputEvent) {
        inputs.eventsHandled += 1
        // The transcript's pages near the reader move with the recording: bring them up to date, so a
        // detent lands on the page the screen shows next.
        if ui.screen == .transcript { refreshModel() }
        feed(.input(event))
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
            inputs.jackMonitor = monitor
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
