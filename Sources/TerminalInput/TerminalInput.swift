import CInputShims
import Devices
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// The simulator's controls: keys typed on the terminal (docs/controls.md has the table).
///
/// `start` puts the terminal in raw mode (no echo, no line editing; Ctrl-C still stops the daemon
/// through its signalfd) and restores it on `stop`, at exit, and on a crash; `TerminalInput.restoreTerminal()`
/// is there for the daemon's shutdown path too. When the input is not a terminal (keys piped in from a
/// file or a test) it is read as it is, with no mode change. At end of input it stops reading; when the
/// input was a terminal, its end is the terminal closing (the window shut, the SSH session gone), and
/// `onHangUp` says so: the simulator then stops, as a program in that terminal would.
public final class TerminalInput: InputBackend {
    public let name = "terminal"
    public var onNotice: ((InputNotice) -> Void)?
    /// The terminal it read closed (EOF or an error on a tty; a pipe's end is only the end of keys).
    public var onHangUp: (() -> Void)?
    /// The input was a terminal at start (after a hang-up the descriptor may no longer say so).
    private var wasTerminal = false

    private let loop: EventLoop
    private let fd: Int32
    private var decoder = TerminalKeyDecoder()
    private var mapper: TerminalKeyMapper
    private var watch: IOWatch?
    private var timer: LoopTimer?
    private var handler: ((InputEvent) -> Void)?
    private var rawMode = false
    /// Releases of the held gestures' keys still to come (L, K, G), in time order, and their timer.
    private var releases: [(at: MonotonicInstant, events: [InputEvent])] = []
    private var releaseTimer: LoopTimer?

    /// Reads the controls `board` binds to the terminal from `fd` (standard input by default).
    public init(loop: EventLoop, board: Board, fd: Int32 = STDIN_FILENO) {
        self.loop = loop
        self.fd = fd
        let controls = Control.allCases.filter { board.button($0).source == .terminal }
        mapper = TerminalKeyMapper(controls: Set(controls), knob: board.knobTurn.source == .terminal,
                                   jack: board.jack.source == .terminal)
    }

    public func start(_ handler: @escaping (InputEvent) -> Void) throws(InputError) {
        stop()
        let foreground = tcgetpgrp(fd) // -1 when fd is not our controlling terminal: then no job control applies
        if isatty(fd) == 1 && foreground >= 0 && foreground != getpgrp() {
            // In the background (`stillroomd --simulator &`): changing or reading the terminal would stop the
            // process with SIGTTOU / SIGTTIN. The box runs on without keys.
            onNotice?(InputNotice(.warning, "terminal: not in the terminal's foreground; keys are off"))
            self.handler = handler
            if mapper.jack { handler(.jack(connected: mapper.jackConnected)) }
            return
        }
        wasTerminal = isatty(fd) == 1
        if isatty(fd) == 1 {
            guard stillroom_terminal_enter_raw(fd) == 0 else {
                throw InputError(.failed, "terminal: cannot set raw mode on fd \(fd): \(SystemError("tcsetattr").reason)")
            }
            rawMode = true
        }
        do {
            watch = try loop.watch(fd, for: .readable) { [unowned self] _ in readable() }
        } catch where error.errno == EPERM {
            // A regular file or /dev/null (a service with no terminal): epoll cannot wait on it. No keys,
            // but no reason to stop the box either.
            onNotice?(InputNotice(.warning, "terminal: fd \(fd) is not a terminal or pipe the loop can wait on "
                + "(a file or /dev/null?); keys are off"))
        } catch {
            restore()
            throw InputError(.failed, "terminal: cannot watch fd \(fd): \(error)")
        }
        timer = loop.makeTimer { [unowned self] in escapeTimedOut() }
        releaseTimer = loop.makeTimer { [unowned self] in releaseDue() }
        self.handler = handler
        if mapper.jack { handler(.jack(connected: mapper.jackConnected)) }
    }

    public func stop() {
        watch?.cancel()
        watch = nil
        timer?.cancel()
        timer = nil
        releaseTimer?.cancel()
        releaseTimer = nil
        releases = []
        handler = nil
        restore()
    }

    /// Puts the terminal back as it was before raw mode (idempotent; safe to call when never changed).
    public static func restoreTerminal() { stillroom_terminal_restore() }

    private func restore() {
        if rawMode { stillroom_terminal_restore_fd(fd) }
        rawMode = false
    }

    private func readable() {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
        if count < 0 {
            if errno == EAGAIN { return }
            let reason = SystemError("read").reason
            watch?.cancel()
            watch = nil
            if wasTerminal, let onHangUp { return onHangUp() }
            onNotice?(InputNotice(.warning, "terminal: read failed: \(reason); keys are off"))
            return
        }
        if count == 0 {
            watch?.cancel()
            watch = nil
            if wasTerminal, let onHangUp { return onHangUp() }
            onNotice?(InputNotice(.info, "terminal: end of input; keys are off"))
            return
        }
        let now = loop.now
        deliver(decoder.feed(buffer[..<count], at: now), at: now)
    }

    private func escapeTimedOut() {
        deliver(decoder.timerFired(at: loop.now), at: loop.now)
    }

    private func deliver(_ keys: [TerminalKey], at time: MonotonicInstant) {
        for key in keys {
            for event in mapper.events(for: key, at: time) { handler?(event) }
            if let release = key.release(controls: mapper.controls) {
                releases.append((time + release.after, release.events))
                releases.sort { $0.at < $1.at }
            }
        }
        if let wake = decoder.wakeAt { timer?.schedule(at: wake) } else { timer?.cancel() }
        if let next = releases.first { releaseTimer?.schedule(at: next.at) }
    }

    /// A held gesture's keys are let go.
    private func releaseDue() {
        let now = loop.now
        while let first = releases.first, first.at <= now {
            releases.removeFirst()
            for event in first.events { handler?(event) }
        }
        if let next = releases.first { releaseTimer?.schedule(at: next.at) }
    }
}
