/// The box's controls as a board file describes them: which backend reads each one, and how.
///
/// Parsed by `BoardFileParser` from the format in docs/board.md. Every control is here even when the box
/// lacks it (`.none`), so the daemon never guesses.
public struct Board: Equatable, Sendable {
    /// A free-text name for logs ("Reference Pi").
    public var name: String?
    /// PLAY, BACK and the knob's push switch.
    public var play: ButtonBinding
    public var back: ButtonBinding
    public var knobPress: ButtonBinding
    /// The knob's turning.
    public var knobTurn: KnobBinding
    /// The headphone switch.
    public var jack: JackBinding

    public init(name: String? = nil, play: ButtonBinding, back: ButtonBinding, knobPress: ButtonBinding,
                knobTurn: KnobBinding, jack: JackBinding) {
        self.name = name
        self.play = play
        self.back = back
        self.knobPress = knobPress
        self.knobTurn = knobTurn
        self.jack = jack
    }

    /// The binding of one button.
    public func button(_ control: Control) -> ButtonBinding {
        switch control {
        case .play: play
        case .back: back
        case .knob: knobPress
        }
    }

    /// Which backends the board uses (each needs starting once).
    public var backends: Set<InputBackendKind> {
        var kinds: Set<InputBackendKind> = [play.source.kind, back.source.kind, knobPress.source.kind,
                                            knobTurn.source.kind, jack.source.kind]
        kinds.remove(.none)
        return kinds
    }
}

/// The backends a control can be read by.
public enum InputBackendKind: String, Equatable, Hashable, Sendable, CaseIterable {
    /// libgpiod: the line read directly from user space.
    case gpio
    /// A kernel input device (gpio-keys, rotary-encoder, an ASoC jack) read through evdev.
    case evdev
    /// The ALSA "Headphone Jack" control (the headphone switch only; read by the audio adapter).
    case alsa
    /// Keys typed on the terminal: the simulator.
    case terminal
    /// The box has no such control.
    case none
}

/// A GPIO line: on which chip, which line, and how it is wired.
public struct GPIOLine: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A line by its name in the device tree ("GPIO17") or its offset on the chip.
    public enum Reference: Equatable, Hashable, Sendable, CustomStringConvertible {
        case name(String)
        case offset(Int)

        public var description: String {
            switch self {
            case .name(let name): name
            case .offset(let offset): "offset \(offset)"
            }
        }
    }

    /// Chip labels to try in order (the first that exists wins); empty: find the line by name on any chip.
    public var chips: [String]
    public var line: Reference
    /// The line reads low when the control is active (a button to ground with a pull-up).
    public var activeLow: Bool
    public var bias: Bias

    public init(chips: [String], line: Reference, activeLow: Bool, bias: Bias) {
        self.chips = chips
        self.line = line
        self.activeLow = activeLow
        self.bias = bias
    }

    public var description: String {
        chips.isEmpty ? "line \(line)" : "line \(line) on \(chips.joined(separator: " or "))"
    }
}

/// The pull resistor the SoC applies to a line.
public enum Bias: String, Equatable, Hashable, Sendable, CaseIterable {
    case pullUp = "pull-up"
    case pullDown = "pull-down"
    /// No pull: the board has its own resistors.
    case disabled
    /// Leave the line's bias as firmware or the device tree set it.
    case asIs = "as-is"
}

/// An input device's event, for the evdev backend.
public struct EvdevCode: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The device: its name as the kernel reports it (EVIOCGNAME; `*` matches any run of characters), or a
    /// path starting with `/` (`/dev/input/by-path/...`).
    public var device: String
    /// EV_KEY, EV_REL, EV_ABS or EV_SW.
    public var type: UInt16
    public var code: UInt16

    public init(device: String, type: UInt16, code: UInt16) {
        self.device = device
        self.type = type
        self.code = code
    }

    public var description: String { "\(EvdevNames.name(type: type, code: code)) on \"\(device)\"" }
}

/// How one push button is read.
public struct ButtonBinding: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        case gpio(GPIOLine)
        case evdev(EvdevCode)
        case terminal
        case none

        public var kind: InputBackendKind {
            switch self {
            case .gpio: .gpio
            case .evdev: .evdev
            case .terminal: .terminal
            case .none: .none
            }
        }
    }

    public var source: Source
    public var debouncer: ButtonDebouncer.Configuration

    public init(source: Source, debouncer: ButtonDebouncer.Configuration = .init()) {
        self.source = source
        self.debouncer = debouncer
    }
}

/// How the knob's turns are read.
public struct KnobBinding: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        /// A quadrature encoder on two lines, decoded here.
        case gpio(a: GPIOLine, b: GPIOLine)
        /// Already decoded by the kernel (rotary-encoder): EV_REL steps or an EV_ABS position.
        case evdev(EvdevCode)
        case terminal
        case none

        public var kind: InputBackendKind {
            switch self {
            case .gpio: .gpio
            case .evdev: .evdev
            case .terminal: .terminal
            case .none: .none
            }
        }
    }

    public var source: Source
    /// Transitions a detent: 1, 2 or 4 (gpio only; the kernel driver has its own steps-per-period).
    public var transitionsPerDetent: Int
    /// Turns the other way (wired or mounted the other way round).
    public var reversed: Bool

    public init(source: Source, transitionsPerDetent: Int = 4, reversed: Bool = false) {
        self.source = source
        self.transitionsPerDetent = transitionsPerDetent
        self.reversed = reversed
    }
}

/// How the headphone switch is read.
public struct JackBinding: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        /// A GPIO on the jack's switch pin; its active level means "headphones in".
        case gpio(GPIOLine)
        /// An EV_SW switch (SW_HEADPHONE_INSERT) of a sound card's input device.
        case evdev(EvdevCode)
        /// An ALSA boolean control ("Headphone Jack") on a card, watched by the audio adapter.
        case alsa(card: String, control: String)
        /// `j` on the terminal toggles it.
        case terminal
        /// No detection: the box assumes headphones are in.
        case none

        public var kind: InputBackendKind {
            switch self {
            case .gpio: .gpio
            case .evdev: .evdev
            case .alsa: .alsa
            case .terminal: .terminal
            case .none: .none
            }
        }
    }

    public var source: Source
    /// How long the switch must settle before "plugged in" counts (pulling out counts at once).
    public var debounce: Duration

    public init(source: Source, debounce: Duration = .milliseconds(150)) {
        self.source = source
        self.debounce = debounce
    }
}
