/// A push button of the box.
public enum Control: String, Equatable, Hashable, Sendable, CaseIterable {
    /// PLAY: play / pause; acts even with the screen dark.
    case play
    /// BACK: back; held, home.
    case back
    /// The knob's push switch: select; held, favourite / context.
    case knob
}

/// What every input backend produces (libgpiod, evdev, the terminal, scripted input): clean, debounced
/// events with the time they happened. The mapping to actions (`ControlMapper`) takes it from here.
public enum InputEvent: Equatable, Sendable {
    /// A button's press, release, long press or repeat.
    case button(Control, ButtonDebouncer.Output)
    /// One detent of the knob, with the interval since the last one for acceleration.
    case turn(QuadratureDecoder.Detent)
    /// Headphones plugged in (true) or pulled out (false). Backends send the state they find at start too.
    case jack(connected: Bool)
    /// The simulator's `q`: stop the daemon as SIGTERM would.
    case quit
}

extension InputEvent: CustomStringConvertible {
    public var description: String {
        switch self {
        case .button(let control, let output):
            switch output {
            case .pressed: return "\(control.rawValue) pressed"
            case .released(let long): return "\(control.rawValue) released\(long ? " (after long press)" : "")"
            case .longPress: return "\(control.rawValue) long press"
            case .repeated: return "\(control.rawValue) repeat"
            }
        case .turn(let detent):
            let interval = detent.interval.map { ", \(Int($0.totalNanoseconds / 1_000_000)) ms since the last" } ?? ""
            return "knob \(detent.direction > 0 ? "clockwise" : "counter-clockwise")\(interval)"
        case .jack(let connected): return connected ? "headphones in" : "headphones out"
        case .quit: return "quit"
        }
    }
}
