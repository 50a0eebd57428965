import SimulatorDevices
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// Shows frames in the terminal for the simulator (`TerminalPreview`), at most every
/// `minimumInterval`: a terminal cannot keep up with 30 full-colour frames a second, and need not.
/// The latest frame is always shown in the end (a loop timer catches it up).
public final class TerminalPreviewWriter {
    public let columns: Int
    public let minimumInterval: Duration
    private let fd: Int32
    private let loop: EventLoop
    private var timer: LoopTimer?
    private var lastShown: MonotonicInstant?
    private var pending: Frame?
    private var cleared = false

    /// Writes to `fd` (stdout by default), `columns` cells wide.
    public init(loop: EventLoop, fd: Int32 = 1, columns: Int = 64, minimumInterval: Duration = .milliseconds(200)) {
        self.loop = loop
        self.fd = fd
        self.columns = columns
        self.minimumInterval = minimumInterval
        timer = loop.makeTimer { [unowned self] in
            if let frame = pending { write(frame) }
        }
    }

    /// Shows `frame` now, or when the interval since the last one has passed.
    public func show(_ frame: Frame) {
        let now = loop.now
        if let lastShown, now < lastShown + minimumInterval {
            pending = frame
            if timer?.isScheduled != true { timer?.schedule(at: lastShown + minimumInterval) }
            return
        }
        write(frame)
    }

    private func write(_ frame: Frame) {
        pending = nil
        lastShown = loop.now
        var text = TerminalPreview.render(frame, columns: columns, homeCursor: true)
        if !cleared {
            text = "\u{1B}[2J" + text // clear once; afterwards each frame overwrites the last in place
            cleared = true
        }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = retryingOnInterrupt { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } }
            guard written > 0 else { return } // a closed or full terminal: the preview is optional
            bytes = bytes.dropFirst(written)
        }
    }
}
