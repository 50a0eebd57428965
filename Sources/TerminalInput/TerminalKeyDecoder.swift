import StillroomCore

/// What a key on the simulator's terminal means. See docs/controls.md for the key table.
public enum TerminalKey: Equatable, Sendable {
    /// Space.
    case play
    /// Esc (alone), Backspace.
    case back
    /// H: BACK held (home).
    case holdBack
    /// Enter.
    case knobPress
    /// F: the knob held (favourite / context).
    case holdKnob
    /// Arrows: Down and Right +1 (clockwise: next, forward), Up and Left -1.
    case turn(Int)
    /// L: BACK and the knob held together (the spoken-labels chord), let go after 2.5 s.
    case labelsChord
    /// K: BACK, then PLAY, held together (the key-describer chord), let go after 2.5 s.
    case describerChord
    /// G or ?: BACK held alone for 3.5 s (the guide).
    case guideHold
    /// j: headphones in / out.
    case toggleJack
    /// q.
    case quit
}

/// Splits the bytes typed on a terminal into keys, escape sequences included.
///
/// Arrows arrive as `ESC [ A` (or `ESC O A` in application mode), and Esc alone is a single ESC byte, so
/// an ESC at the end of what was read may be either. The decoder holds it: more bytes starting a sequence
/// make it an arrow; nothing within `escapeTimeout` (`wakeAt`, then `timerFired`) makes it BACK. ESC ESC is
/// BACK and the start of whatever follows. Sequences it does not know (F-keys, Ctrl-arrows) are skipped
/// whole, never read as letters. Pure: bytes and times in, keys out.
public struct TerminalKeyDecoder: Equatable, Sendable {
    private enum State: Equatable, Sendable {
        case ground
        /// After ESC, since `since`.
        case escape(since: MonotonicInstant)
        /// After ESC [ (or ESC O): parameter bytes until a final byte 0x40...0x7E.
        case sequence(since: MonotonicInstant, parameters: [UInt8], ss3: Bool)
    }

    public var escapeTimeout: Duration
    private var state: State = .ground

    public init(escapeTimeout: Duration = .milliseconds(50)) {
        self.escapeTimeout = escapeTimeout
    }

    /// When a lone ESC (or a cut-off sequence) should be settled; nil when nothing is pending.
    public var wakeAt: MonotonicInstant? {
        switch state {
        case .ground: nil
        case .escape(let since), .sequence(let since, _, _): since + escapeTimeout
        }
    }

    /// Bytes read at `time`.
    public mutating func feed(_ bytes: some Sequence<UInt8>, at time: MonotonicInstant) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        for byte in bytes {
            switch state {
            case .ground:
                if byte == 0x1B {
                    state = .escape(since: time)
                } else if let key = Self.plain(byte) {
                    keys.append(key)
                }
            case .escape:
                switch byte {
                case UInt8(ascii: "["):
                    state = .sequence(since: time, parameters: [], ss3: false)
                case UInt8(ascii: "O"):
                    state = .sequence(since: time, parameters: [], ss3: true)
                case 0x1B:
                    keys.append(.back)
                    state = .escape(since: time)
                default:
                    // ESC then a plain key (Alt+key on most terminals): BACK, then the key.
                    keys.append(.back)
                    state = .ground
                    if let key = Self.plain(byte) { keys.append(key) }
                }
            case .sequence(let since, var parameters, let ss3):
                if (0x40...0x7E).contains(byte) {
                    state = .ground
                    if parameters.isEmpty || !ss3, let key = Self.sequence(final: byte, parameters: parameters) {
                        keys.append(key)
                    }
                } else if (0x20...0x3F).contains(byte), parameters.count < 16 {
                    parameters.append(byte)
                    state = .sequence(since: since, parameters: parameters, ss3: ss3)
                } else {
                    state = .ground // not a sequence after all: drop it
                    if byte == 0x1B { state = .escape(since: time) }
                }
            }
        }
        return keys
    }

    /// The timer for `wakeAt` fired: a lone ESC is BACK; a sequence cut off is dropped.
    public mutating func timerFired(at now: MonotonicInstant) -> [TerminalKey] {
        guard let due = wakeAt, now >= due else { return [] }
        defer { state = .ground }
        if case .escape = state { return [.back] }
        return []
    }

    private static func plain(_ byte: UInt8) -> TerminalKey? {
        switch byte {
        case UInt8(ascii: " "): .play
        case 0x7F, 0x08: .back
        case UInt8(ascii: "\r"), UInt8(ascii: "\n"): .knobPress
        case UInt8(ascii: "H"): .holdBack
        case UInt8(ascii: "F"): .holdKnob
        case UInt8(ascii: "L"): .labelsChord
        case UInt8(ascii: "K"): .describerChord
        case UInt8(ascii: "G"), UInt8(ascii: "?"): .guideHold
        case UInt8(ascii: "j"), UInt8(ascii: "J"): .toggleJack
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): .quit
        default: nil
        }
    }

    /// Arrows without modifiers (`ESC [ A`, `ESC [ 1 A` is not sent without a modifier); others skipped.
    private static func sequence(final: UInt8, parameters: [UInt8]) -> TerminalKey? {
        guard parameters.isEmpty || parameters == [UInt8(ascii: "1")] else { return nil }
        switch final {
        case UInt8(ascii: "A"), UInt8(ascii: "D"): return .turn(-1) // up, left
        case UInt8(ascii: "B"), UInt8(ascii: "C"): return .turn(1) // down, right
        default: return nil
        }
    }
}

extension TerminalKey {
    /// For the held gestures (a terminal reports no releases): how long the buttons stay held, and the
    /// releases that end the hold.
    public func release(controls: Set<Control>) -> (after: Duration, events: [InputEvent])? {
        let held: [Control]
        let time: Duration
        switch self {
        case .labelsChord: (held, time) = ([.back, .knob], .milliseconds(2500))
        case .describerChord: (held, time) = ([.back, .play], .milliseconds(2500))
        case .guideHold: (held, time) = ([.back], .milliseconds(3500))
        default: return nil
        }
        guard held.allSatisfy(controls.contains) else { return nil }
        return (time, held.map { .button($0, .released(long: true)) })
    }
}

/// Turns terminal keys into the input events a real box would produce for them.
public struct TerminalKeyMapper: Equatable, Sendable {
    /// Which controls the terminal stands in for (a board can mix backends).
    public var controls: Set<Control>
    public var knob: Bool
    public var jack: Bool
    /// The headphone state `j` toggles; the box starts with headphones in.
    public private(set) var jackConnected = true
    private var timeline = DetentTimeline()

    public init(controls: Set<Control> = Set(Control.allCases), knob: Bool = true, jack: Bool = true) {
        self.controls = controls
        self.knob = knob
        self.jack = jack
    }

    /// The events for `key` typed at `time`. A terminal reports no releases, so a key is a whole press.
    public mutating func events(for key: TerminalKey, at time: MonotonicInstant) -> [InputEvent] {
        func tap(_ control: Control) -> [InputEvent] {
            controls.contains(control) ? [.button(control, .pressed), .button(control, .released(long: false))] : []
        }
        func hold(_ control: Control) -> [InputEvent] {
            controls.contains(control)
                ? [.button(control, .pressed), .button(control, .longPress), .button(control, .released(long: true))] : []
        }
        func holdTogether(_ held: [Control]) -> [InputEvent] {
            guard held.allSatisfy(controls.contains) else { return [] }
            return held.map { .button($0, .pressed) } + held.map { .button($0, .longPress) }
        }
        switch key {
        case .labelsChord: return holdTogether([.back, .knob])
        case .describerChord: return holdTogether([.back, .play])
        case .guideHold: return holdTogether([.back])
        case .play: return tap(.play)
        case .back: return tap(.back)
        case .holdBack: return hold(.back)
        case .knobPress: return tap(.knob)
        case .holdKnob: return hold(.knob)
        case .turn(let direction):
            return knob ? [.turn(timeline.detent(direction: direction, at: time))] : []
        case .toggleJack:
            guard jack else { return [] }
            jackConnected.toggle()
            return [.jack(connected: jackConnected)]
        case .quit:
            return [.quit]
        }
    }
}
