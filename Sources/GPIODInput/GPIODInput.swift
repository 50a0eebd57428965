internal import CGPIOShim
import Devices
import EventLoop
import Glibc
import StillroomCore
import SystemCalls

/// Controls read from GPIO lines with libgpiod: v1 on Debian 12, v2 on Debian 13 and the image, through
/// one small C API (CGPIOShim) that each implements.
///
/// Each line named by the board file is found on its chip (by label, or by name on any chip), requested
/// for both edges with the board's bias and active level (so the kernel reports "active", not "high"),
/// and its event fd joins the loop. Edges go through `InputDecoder` with the kernel's timestamps. After
/// draining a line's events the line is read back, so a lost edge never leaves a button stuck; the
/// encoder's two lines are drained together and merged by time. Every failure names the chip, the line,
/// the board-file section and the fix (see `GPIOMessages`).
public final class GPIODInput: InputBackend {
    public let name = "gpio"
    public var onNotice: ((InputNotice) -> Void)?

    enum Role: Equatable {
        case button(Control)
        case encoderA
        case encoderB
        case jack
    }

    /// One requested line.
    final class Line {
        let role: Role
        let spec: GPIOLine
        let section: String
        var handle: OpaquePointer?
        var offset: UInt32 = 0
        var chipName = ""
        var chipLabel = ""
        var fd: Int32 = -1
        var watch: IOWatch?
        /// The level last fed to the decoder.
        var level = false

        init(role: Role, spec: GPIOLine, section: String) {
            self.role = role
            self.spec = spec
            self.section = section
        }

        var chip: (name: String, label: String) { (chipName, chipLabel) }
    }

    private let loop: EventLoop
    private let board: Board
    private let consumer: String
    private var lines: [Line] = []
    /// Chips opened by label, and chips opened to find a line by name.
    private var chips: [String: OpaquePointer] = [:]
    private var foundLineChips: [OpaquePointer] = []

    /// "libgpiod v1" or "libgpiod v2": which API this build speaks.
    public static var library: String { String(cString: srg_library()) }
    private var decoder = InputDecoder()
    private var handler: ((InputEvent) -> Void)?
    private var timer: LoopTimer?

    /// Reads the controls `board` binds to gpio; `consumer` is the name `gpioinfo` shows on the lines.
    public init(loop: EventLoop, board: Board, consumer: String = "stillroomd") {
        self.loop = loop
        self.board = board
        self.consumer = consumer
    }

    // MARK: Start and stop

    public func start(_ handler: @escaping (InputEvent) -> Void) throws(InputError) {
        stop()
        lines = Self.lines(for: board)
        decoder = InputDecoder()
        do {
            for line in lines { try request(line) }
        } catch {
            stop()
            throw error
        }
        timer = loop.makeTimer { [unowned self] in timerFired() }
        self.handler = handler
        deliver(setUpDecoder())
    }

    public func stop() {
        for line in lines {
            line.watch?.cancel()
            line.watch = nil
            if let handle = line.handle { srg_line_release(handle) }
            line.handle = nil
            line.fd = -1
        }
        lines = []
        for chip in chips.values { srg_chip_close(chip) }
        chips = [:]
        for chip in foundLineChips { srg_chip_close(chip) }
        foundLineChips = []
        timer?.cancel()
        timer = nil
        handler = nil
    }

    static func lines(for board: Board) -> [Line] {
        var lines: [Line] = []
        for (control, section) in [(Control.play, "[play]"), (.back, "[back]"), (.knob, "[knob-press]")] {
            if case .gpio(let spec) = board.button(control).source {
                lines.append(Line(role: .button(control), spec: spec, section: section))
            }
        }
        if case .gpio(let a, let b) = board.knobTurn.source {
            lines.append(Line(role: .encoderA, spec: a, section: "[knob-turn] line-a"))
            lines.append(Line(role: .encoderB, spec: b, section: "[knob-turn] line-b"))
        }
        if case .gpio(let spec) = board.jack.source {
            lines.append(Line(role: .jack, spec: spec, section: "[jack]"))
        }
        return lines
    }

    // MARK: Requesting lines

    private func request(_ line: Line) throws(InputError) {
        let lineName = line.spec.line.description
        let (chip, offset) = try find(line, lineName: lineName)
        line.chipName = String(cString: srg_chip_name(chip))
        line.chipLabel = String(cString: srg_chip_label(chip))
        line.offset = offset
        let bias: srg_bias = switch line.spec.bias {
        case .pullUp: SRG_BIAS_PULL_UP
        case .pullDown: SRG_BIAS_PULL_DOWN
        case .disabled: SRG_BIAS_DISABLED
        case .asIs: SRG_BIAS_AS_IS
        }
        guard let handle = srg_line_request(chip, offset, consumer, line.spec.activeLow ? 1 : 0, bias) else {
            let code = errno
            switch code {
            case EBUSY:
                var buffer = [CChar](repeating: 0, count: 64)
                srg_chip_line_consumer(chip, offset, &buffer, buffer.count)
                let holder = buffer[0] == 0 ? nil : String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                throw GPIOMessages.busy(line: lineName, chip: line.chip, consumer: holder, section: line.section)
            case EACCES, EPERM:
                throw GPIOMessages.requestPermission(line: lineName, chip: line.chip, section: line.section)
            case EINVAL where line.spec.bias != .asIs:
                throw GPIOMessages.biasRefused(line: lineName, chip: line.chip, bias: line.spec.bias, section: line.section)
            default:
                throw GPIOMessages.failed("requesting", line: lineName, chip: line.chip, section: line.section,
                                          reason: SystemError("request", errno: code).reason)
            }
        }
        line.handle = handle
        let fd = srg_line_fd(handle)
        guard fd >= 0 else {
            throw GPIOMessages.failed("getting the event fd of", line: lineName, chip: line.chip, section: line.section,
                                      reason: SystemError("srg_line_fd").reason)
        }
        // Non-blocking, so a wake-up can drain the queue without ever blocking the loop (the fd is ours).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        line.fd = fd
        do {
            line.watch = try loop.watch(fd, for: .readable) { [unowned self, unowned line] _ in readable(line) }
        } catch {
            throw GPIOMessages.failed("watching", line: lineName, chip: line.chip, section: line.section,
                                      reason: "\(error)")
        }
    }

    /// The line's chip and offset: on the first chip whose label exists, or by name on any chip.
    private func find(_ line: Line, lineName: String) throws(InputError) -> (OpaquePointer, UInt32) {
        if line.spec.chips.isEmpty {
            guard case .name(let name) = line.spec.line else {
                throw GPIOMessages.failed("finding", line: lineName, chip: nil, section: line.section, reason: "an offset needs a chip")
            }
            errno = 0
            var offset: UInt32 = 0
            guard let chip = srg_chip_open_by_line_name(name, &offset) else {
                if errno == EACCES || errno == EPERM { throw GPIOMessages.chipPermission(line: lineName, section: line.section) }
                throw GPIOMessages.lineMissing(name: name, chip: nil, section: line.section)
            }
            foundLineChips.append(chip)
            return (chip, offset)
        }
        var chip: OpaquePointer?
        for label in line.spec.chips {
            if let open = chips[label] {
                chip = open
                break
            }
            errno = 0
            if let open = srg_chip_open_by_label(label) {
                chips[label] = open
                chip = open
                break
            }
            if errno == EACCES || errno == EPERM { throw GPIOMessages.chipPermission(line: lineName, section: line.section) }
        }
        guard let chip else {
            throw GPIOMessages.chipMissing(labels: line.spec.chips, available: Self.availableChips(), line: lineName,
                                           section: line.section)
        }
        let chipID = (String(cString: srg_chip_name(chip)), String(cString: srg_chip_label(chip)))
        switch line.spec.line {
        case .name(let name):
            let offset = srg_chip_line_offset(chip, name)
            guard offset >= 0 else { throw GPIOMessages.lineMissing(name: name, chip: chipID, section: line.section) }
            return (chip, UInt32(offset))
        case .offset(let offset):
            let count = Int(srg_chip_num_lines(chip))
            guard offset < count else {
                throw GPIOMessages.offsetOutOfRange(offset, chip: chipID, lines: count, section: line.section)
            }
            return (chip, UInt32(offset))
        }
    }

    /// Every chip's name and label, for the message when none has the label asked for.
    static func availableChips() -> [(name: String, label: String)] {
        final class Found { var chips: [(name: String, label: String)] = [] }
        let found = Found()
        srg_each_chip({ name, label, context in
            guard let name, let label, let context else { return }
            Unmanaged<Found>.fromOpaque(context).takeUnretainedValue().chips.append((String(cString: name), String(cString: label)))
        }, Unmanaged.passUnretained(found).toOpaque())
        return found.chips
    }

    /// Adds every line to the decoder with its level now; returns the jack's first event.
    private func setUpDecoder() -> [InputEvent] {
        var events: [InputEvent] = []
        for line in lines { line.level = value(of: line) ?? false }
        for line in lines {
            switch line.role {
            case .button(let control):
                decoder.addButton(control, board.button(control).debouncer, heldAtStart: line.level)
            case .encoderA:
                let b = lines.first { $0.role == .encoderB }?.level ?? false
                decoder.addEncoder(transitionsPerDetent: board.knobTurn.transitionsPerDetent,
                                   reversed: board.knobTurn.reversed, a: line.level, b: b)
            case .encoderB:
                break
            case .jack:
                events += decoder.addJack(debounce: board.jack.debounce, connected: line.level, at: loop.now)
            }
        }
        return events
    }

    // MARK: Reading

    private func readable(_ line: Line) {
        var events: [InputEvent] = []
        switch line.role {
        case .encoderA, .encoderB: events += drainEncoder()
        default: events += drain(line)
        }
        deliver(events)
    }

    /// The line's queued edges (non-blocking).
    private func edges(of line: Line) -> [GPIOEdge] {
        guard line.fd >= 0 else { return [] }
        var edges: [GPIOEdge] = []
        guard let handle = line.handle else { return [] }
        var buffer = [srg_edge](repeating: srg_edge(), count: 16)
        while true {
            let count = retryingOnInterrupt { buffer.withUnsafeMutableBufferPointer { srg_line_read_edges(handle, $0.baseAddress, Int32($0.count)) } }
            if count <= 0 {
                if count < 0 && errno != EAGAIN {
                    onNotice?(InputNotice(.warning, "gpio: reading \(line.spec.line) on \(line.chipLabel) for \(line.section) "
                        + "failed: \(SystemError("read").reason)"))
                }
                return edges
            }
            for event in buffer.prefix(Int(count)) {
                let at = GPIOLineEvents.instant(seconds: Int(event.seconds), nanoseconds: Int(event.nanoseconds), now: loop.now)
                edges.append(GPIOEdge(active: event.active != 0, at: at))
            }
        }
    }

    /// The line's level now (active level applied), or nil when it cannot be read.
    private func value(of line: Line) -> Bool? {
        guard let handle = line.handle else { return nil }
        let value = srg_line_value(handle)
        return value < 0 ? nil : value == 1
    }

    /// A button or the jack: its edges, then its level read back.
    private func drain(_ line: Line) -> [InputEvent] {
        var events: [InputEvent] = []
        var last = loop.now
        for edge in edges(of: line) {
            events += feed(line, edge.active, at: edge.at)
            last = max(last, edge.at)
        }
        if let level = value(of: line), level != line.level { events += feed(line, level, at: last) }
        return events
    }

    private func feed(_ line: Line, _ active: Bool, at time: MonotonicInstant) -> [InputEvent] {
        line.level = active
        switch line.role {
        case .button(let control): return decoder.button(control, pressed: active, at: time)
        case .jack: return decoder.jack(connected: active, at: time)
        case .encoderA, .encoderB: return []
        }
    }

    /// Both encoder lines: their edges merged by time, then both levels read back.
    private func drainEncoder() -> [InputEvent] {
        guard let lineA = lines.first(where: { $0.role == .encoderA }),
              let lineB = lines.first(where: { $0.role == .encoderB }) else { return [] }
        let readBack: (a: Bool, b: Bool)?
        let edgesA = edges(of: lineA), edgesB = edges(of: lineB)
        if let a = value(of: lineA), let b = value(of: lineB) { readBack = (a, b) } else { readBack = nil }
        let states = GPIOLineEvents.encoderStates(a: edgesA, b: edgesB, from: (lineA.level, lineB.level),
                                                  readBack: readBack, readBackAt: loop.now)
        var events: [InputEvent] = []
        for state in states {
            lineA.level = state.a
            lineB.level = state.b
            events += decoder.encoder(a: state.a, b: state.b, at: state.at)
        }
        return events
    }

    // MARK: Timer and delivery

    private func timerFired() {
        var events: [InputEvent] = []
        // Read first: an edge that happened before now must not be overtaken by its debounce timer.
        for line in lines where line.role != .encoderB {
            events += line.role == .encoderA ? drainEncoder() : drain(line)
        }
        events += decoder.timerFired(at: loop.now)
        deliver(events)
    }

    private func deliver(_ events: [InputEvent]) {
        for event in events { handler?(event) }
        if let wake = decoder.wakeAt { timer?.schedule(at: wake) } else { timer?.cancel() }
    }
}
