/// Every timer the box's rules arm, by name. The box asks for one with `.arm(timer, at:)` and
/// `.cancel(timer)`, keeps what it asked for in `Box.armed`, and hears it fire as `.timer(timer)`; the
/// daemon keeps one loop timer per name and no rule about when any of them is due.
public enum BoxTimer: Hashable, Sendable {
    /// The player's periodic checkpoint while a session plays (`PlayerMachine.checkpointInterval`).
    case checkpoint
    /// A pause long enough closes the practice run (`PracticeLedger.pauseClosesRunAfter`).
    case runPause
    /// A held button, for the chord detector's long gestures.
    case gesture
    /// The interface's own: the seek commit, dimming, darkness, the describer's minute.
    case interface(InterfaceTimer)
    /// The reminder's time of day, on the wall clock (a clock set makes it due or not at once).
    case reminder
    /// A reminder waiting for a pause to grow long enough looks again.
    case reminderRecheck
    /// The breathing timer's end.
    case breathingEnd
    /// The breathing timer's run is saved as it goes (a power cut keeps all but the last few seconds).
    case breathingRunSave
    /// The missing output is tried again (also at once when a sound device changes).
    case outputRetry
    /// The clock on screen turns to the next minute (on the wall clock; not while the screen is dark).
    case minute
    /// The speech queue's: a label settled, held speech's turn, the next line read aloud.
    case speech(SpeechQueue.Timer)
}

/// When a timer is due: on the monotonic clock, or at a wall-clock time (a time of day, which a clock
/// set moves).
public enum TimerDeadline: Equatable, Sendable {
    case monotonic(MonotonicInstant)
    /// Unix seconds.
    case wallClock(Int64)
}
