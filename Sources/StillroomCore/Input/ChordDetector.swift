/// The gestures made by holding buttons: each is something someone who cannot see the screen can find by
/// touch, and that no single short press makes by accident. docs/accessibility.md has the table.
public enum Gesture: String, Equatable, Hashable, Sendable, CaseIterable {
    /// BACK and the knob held together for two seconds: spoken labels on or off.
    case spokenLabels
    /// BACK and PLAY held together for two seconds: the key describer on or off.
    case keyDescriber
    /// BACK held alone for three seconds: the spoken guide to the screen showing.
    case guide
}

/// Watches the buttons for the held gestures. Holding BACK and the knob together for two seconds toggles
/// spoken labels; BACK and PLAY together, the key describer; BACK alone for three seconds speaks the guide.
/// A button that is part of a chord (two or more held at once) is `engaged`: it does nothing of its own
/// for the rest of that press (`ControlInput` tells the mapper).
public struct ChordDetector: Equatable, Sendable {
    /// How long both buttons of a chord must be held.
    public static let holdTime: Duration = .seconds(2)
    /// How long BACK must be held alone for the guide.
    public static let guideHoldTime: Duration = .seconds(3)

    private var held: [Control: MonotonicInstant] = [:]
    /// Since when BACK has been the only button held.
    private var backAloneSince: MonotonicInstant?
    /// When the gesture being made completes, if the buttons are still held (the caller arms a timer for it).
    public private(set) var dueAt: MonotonicInstant?
    private var due: Gesture?
    /// A gesture fired during this hold: nothing more until a button is let go.
    private var fired = false

    public init() {}

    /// The buttons held together as a chord (two or more): none of them does its own job until released.
    public var engaged: Set<Control> { held.count >= 2 ? Set(held.keys) : [] }

    /// A button event, with the time it happened.
    public mutating func button(_ control: Control, _ output: ButtonDebouncer.Output, at now: MonotonicInstant) {
        switch output {
        case .pressed:
            held[control] = now
        case .released:
            held[control] = nil
            fired = false
        default:
            return
        }
        // Alone from this moment: just pressed, or the other button of a chord let go.
        backAloneSince = Set(held.keys) == [.back] ? now : nil
        plan()
    }

    private mutating func plan() {
        due = nil
        dueAt = nil
        guard !fired else { return }
        let keys = Set(held.keys)
        if keys == [.back, .knob] {
            due = .spokenLabels
            dueAt = max(held[.back]!, held[.knob]!) + Self.holdTime
        } else if keys == [.back, .play] {
            due = .keyDescriber
            dueAt = max(held[.back]!, held[.play]!) + Self.holdTime
        } else if keys == [.back], let since = backAloneSince {
            due = .guide
            dueAt = since + Self.guideHoldTime
        }
    }

    /// The timer for `dueAt` fired: the gesture completed, if the buttons are still held (once per hold).
    public mutating func timerFired(at now: MonotonicInstant) -> Gesture? {
        guard let gesture = due, let at = dueAt, now >= at, !fired else { return nil }
        fired = true
        due = nil
        dueAt = nil
        return gesture
    }
}
