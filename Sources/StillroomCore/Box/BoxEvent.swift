/// Everything that can happen to the box's controls and screen, as the daemon reports it.
public enum BoxEvent: Equatable, Sendable {
    /// The interface begins, on the model the box already holds.
    case start
    /// The daemon rebuilt the model (the player, the store, the downloads or the clock changed).
    case modelChanged(InterfaceModel)
    /// A button, the knob or the jack, from any input backend.
    case input(InputEvent)
    /// The held-gesture timer the box asked for is due.
    case gestureTimer
    /// A timer the interface asked for is due.
    case interfaceTimer(InterfaceTimer)
    /// Light the screen as a touch would (a reminder's silent cue), without a control being used.
    case glow
    /// The box started or finished reading a transcript aloud.
    case readingAloud(Bool)
}

/// What the daemon does for the box, in order.
public enum BoxEffect: Equatable, Sendable {
    /// The interface's own effects: play, store, speak, timers, screen power…
    case interface(InterfaceEffect)
    /// Arm the held-gesture timer at this instant, or cancel it (nil).
    case gestureTimer(at: MonotonicInstant?)
    /// Stop reading the transcript aloud: the person used a control.
    case stopReadingAloud
    /// The screen may have changed: draw it again when the display can take a frame.
    case redraw
}
