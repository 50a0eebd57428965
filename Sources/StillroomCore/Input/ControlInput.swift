/// The controls as the interface receives them: the chord detector watches every button for the held
/// gestures (ChordDetector), the mapper turns everything else into actions (ControlMapper). A button that
/// joins a chord does nothing of its own for the rest of that press, and neither does the one it joined;
/// BACK held into the guide does not go home when it is let go. The daemon and the interface tests both
/// drive the box through this one value, so they cannot disagree about a gesture.
public struct ControlInput: Equatable, Sendable {
    public var mapper: ControlMapper
    public private(set) var chords = ChordDetector()

    public init(mapper: ControlMapper = ControlMapper()) {
        self.mapper = mapper
    }

    /// When a held gesture completes if nothing changes (arm a timer; call `gestureTimerFired`).
    public var gestureDueAt: MonotonicInstant? { chords.dueAt }

    /// The action for `event` on `screen` (nil: nothing), watching for chords on the way.
    public mutating func action(for event: InputEvent, on screen: ScreenKind, dark: Bool,
                                at now: MonotonicInstant) -> ControlAction? {
        if case .button(let control, let output) = event {
            chords.button(control, output, at: now)
            let engaged = chords.engaged
            if output == .pressed && engaged.contains(control) {
                // This press makes a chord: it and the buttons already held do nothing of their own.
                for member in engaged { mapper.swallow(member) }
                return nil
            }
        }
        return mapper.action(for: event, on: screen, dark: dark)
    }

    /// The gesture timer is due: the gesture that completed, if the buttons are still held. BACK held into
    /// the guide is swallowed, so letting it go does not also go home.
    public mutating func gestureTimerFired(at now: MonotonicInstant) -> Gesture? {
        guard let gesture = chords.timerFired(at: now) else { return nil }
        if gesture == .guide { mapper.swallow(.back) }
        return gesture
    }
}
