/// Holding BACK and the knob together for two seconds toggles spoken labels: a gesture someone who cannot
/// see the screen can find by touch, that no single control makes by accident.
public struct ChordDetector: Equatable, Sendable {
    public static let holdTime: Duration = .seconds(2)

    private var held: [Control: MonotonicInstant] = [:]
    /// When both have been held long enough, if they still are (the caller arms a timer for it).
    public private(set) var dueAt: MonotonicInstant?
    private var fired = false

    public init() {}

    /// A button event, with the time it happened.
    public mutating func button(_ control: Control, _ output: ButtonDebouncer.Output, at now: MonotonicInstant) {
        guard control == .back || control == .knob else { return }
        switch output {
        case .pressed:
            held[control] = now
        case .released:
            held[control] = nil
            fired = false
        default:
            break
        }
        if let back = held[.back], let knob = held[.knob], !fired {
            dueAt = max(back, knob) + Self.holdTime
        } else {
            dueAt = nil
        }
    }

    /// The timer for `dueAt` fired: true when the chord is complete (once per hold).
    public mutating func timerFired(at now: MonotonicInstant) -> Bool {
        guard let due = dueAt, now >= due, held[.back] != nil, held[.knob] != nil, !fired else { return false }
        fired = true
        dueAt = nil
        return true
    }
}
