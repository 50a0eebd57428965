/// The kinds of screen the controls behave differently on: what the input mapping needs to know about the
/// interface's screens (`Interface.screenKind`).
public enum ScreenKind: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Home: the session library.
    case home
    /// One session's page: description, duration, licence.
    case detail
    /// The player with the breathing circle.
    case player
    /// The transcript, over the player.
    case transcript
    /// Practice history: calendar and recent sessions.
    case history
    /// Settings.
    case settings
    /// "Resume <title> at 12:34?" after a restart.
    case resumeOffer
    /// A message to acknowledge (a failed download, a moved-aside database, a silent reminder card).
    case notice
    /// The resting face the box shows after a while with the screen still lit (a clock, a glow).
    case idle
    /// A question before something that cannot be undone ("Delete all practice history?"): the knob
    /// chooses an answer, a press gives it, BACK keeps things as they are.
    case confirm
}

/// What a control means on the current screen. The interface (`Interface.handle`) performs it.
public enum ControlAction: Equatable, Sendable {
    /// Light the screen; nothing else happens.
    case wake
    /// Play or pause (on home and detail: the focused or last session).
    case playPause
    /// Go back one level (close the notice, leave the transcript...).
    case back
    /// Go to the home screen.
    case home
    /// Move the focus by this many items (positive: down / next).
    case focus(by: Int)
    /// Scroll text by this many lines (positive: down).
    case scroll(by: Int)
    /// Preview a seek by this many seconds (positive: forward); the player commits it when the knob rests.
    case seekPreview(seconds: Int)
    /// Activate what has the focus.
    case select
    /// Show or hide the transcript over the player.
    case toggleTranscript
    /// The focused item's context action: favourite / unfavourite, remove a download...
    case contextAction
    /// Accept the resume offer: resume where it stopped (paused audio starts).
    case acceptResume
    /// Dismiss the resume offer.
    case dismissResume
    /// The headphones were plugged in (true) or pulled out (false): a route change for the player.
    case headphones(connected: Bool)
    /// Stop the daemon (the simulator's `q`).
    case quit
}

/// Maps input events to actions, per screen, with the dark-screen rule. See docs/controls.md for the table.
///
/// - PLAY acts at its press, even with the screen dark (like a lock-screen control) and without waking it.
/// - Any other press while the screen is dark only wakes it; the rest of that press — its long press,
///   repeats and release — does nothing, even though the screen is lit by the time they come.
/// - A turn while dark only wakes it too, and so does the rest of that spin (detents less than
///   `spinGap` apart), so the focus does not jump when the screen comes on.
/// - The knob acts at its release (a short press) or at the long press, never both. BACK acts at its
///   release: short, back; after a long press, home (held on, the chord detector's guide takes it). PLAY
///   ignores its long press.
/// - On the idle face any touch but PLAY goes home and does nothing else, the same way.
///
/// Stateful only to remember which press or spin is being swallowed; otherwise a pure table.
public struct ControlMapper: Equatable, Sendable {
    /// Seconds a detent previews in the player, before acceleration.
    public var seekSecondsPerDetent: Int
    /// Detents closer together than this belong to the same spin.
    public var spinGap: Duration

    private var swallowed: Set<Control> = []
    private var swallowedSpinLast: MonotonicInstant?

    public init(seekSecondsPerDetent: Int = 15, spinGap: Duration = .milliseconds(400)) {
        self.seekSecondsPerDetent = seekSecondsPerDetent
        self.spinGap = spinGap
    }

    /// Ignores the rest of `control`'s current press (its long press, repeats and release): used when the
    /// press was part of a chord that already acted.
    public mutating func swallow(_ control: Control) { swallowed.insert(control) }

    /// The action for `event` on `screen`; `dark` is whether the screen is off (blanked). Nil: nothing.
    /// Every event is still activity for the screen's dim timer; that is the daemon's business.
    public mutating func action(for event: InputEvent, on screen: ScreenKind, dark: Bool) -> ControlAction? {
        switch event {
        case .quit:
            return .quit
        case .jack(let connected):
            return .headphones(connected: connected)
        case .turn(let detent):
            return turn(detent, on: screen, dark: dark)
        case .button(let control, let output):
            return button(control, output, on: screen, dark: dark)
        }
    }

    private mutating func button(_ control: Control, _ output: ButtonDebouncer.Output, on screen: ScreenKind,
                                 dark: Bool) -> ControlAction? {
        if swallowed.contains(control) {
            if case .released = output { swallowed.remove(control) }
            if output != .pressed { return nil }
            swallowed.remove(control) // a press we never saw released (a lost release): start afresh
        }
        if control == .play {
            guard output == .pressed else { return nil }
            return screen == .resumeOffer ? .acceptResume : .playPause
        }
        if output == .pressed {
            if dark {
                swallowed.insert(control)
                return .wake
            }
            if screen == .idle {
                swallowed.insert(control)
                return .home
            }
            return nil // BACK and the knob act at release or long press
        }
        switch (control, output) {
        case (.back, .released(long: false)):
            switch screen {
            case .resumeOffer: return .dismissResume
            default: return .back
            }
        case (.back, .released(long: true)):
            // Home when a held BACK is let go, not at the long press: held on for three seconds it is the
            // guide instead (ChordDetector), and a BACK that begins a chord goes nowhere.
            return screen == .resumeOffer ? .dismissResume : .home
        case (.knob, .released(long: false)):
            switch screen {
            case .player, .transcript: return .toggleTranscript
            case .resumeOffer: return .acceptResume
            default: return .select
            }
        case (.knob, .longPress):
            switch screen {
            case .home, .detail, .player, .transcript, .history: return .contextAction
            case .settings, .resumeOffer, .notice, .idle, .confirm: return nil
            }
        default:
            return nil // releases after a long press, repeats
        }
    }

    private mutating func turn(_ detent: QuadratureDecoder.Detent, on screen: ScreenKind,
                               dark: Bool) -> ControlAction? {
        if let last = swallowedSpinLast {
            if detent.at >= last && detent.at - last < spinGap {
                swallowedSpinLast = detent.at
                return nil
            }
            swallowedSpinLast = nil
        }
        if dark || screen == .idle {
            swallowedSpinLast = detent.at
            return dark ? .wake : .home
        }
        let steps = detent.direction
        switch screen {
        case .player:
            return .seekPreview(seconds: steps * seekSecondsPerDetent * KnobAcceleration.multiplier(for: detent.interval))
        case .transcript, .notice:
            return .scroll(by: steps)
        case .home, .detail, .history, .settings, .resumeOffer, .confirm:
            return .focus(by: steps)
        case .idle:
            return .home
        }
    }
}
