/// Turns the raw edges of one push button into clean presses, releases, long presses and repeats.
///
/// A press is accepted at its first edge, so PLAY answers at once; the contact's bounce and chatter that
/// follow are ignored because a release is accepted only after the line has stayed released for
/// `debounce`. So a bounce never doubles a press, and two real presses 80 ms apart are still two. The
/// caller arms a timer for `wakeAt` and calls `timerFired` then (the release settle, the long press, the
/// repeats). Pure: times come from the kernel's event timestamps or the loop.
///
/// Edges carry the level the line has *after* the edge, not a direction, so a lost edge can never invert
/// the button: a level repeated (the edge between was missed, or the kernel read the level late) changes
/// nothing, and a backend that re-reads the line after draining its events simply reports that level too.
/// A long press fires only while the contact is really closed: a finger lifted just before the long-press
/// time, whose release is still settling, makes a short press.
public struct ButtonDebouncer: Equatable, Sendable {
    /// Timings, from the board file (`debounce`, `long-press`, `repeat`).
    public struct Configuration: Equatable, Sendable {
        /// How long the line must stay released before a release counts.
        public var debounce: Duration
        /// Held this long, a press becomes a long press (nil: never, as for the headphone switch).
        public var longPress: Duration?
        /// After a long press, repeat this often while held (nil, or not above zero: no repeats).
        public var repeatInterval: Duration?

        public init(debounce: Duration = .milliseconds(20), longPress: Duration? = .milliseconds(800),
                    repeatInterval: Duration? = nil) {
            self.debounce = debounce
            self.longPress = longPress
            self.repeatInterval = repeatInterval
        }
    }

    /// What the button did, as the rest of the box sees it.
    public enum Output: Equatable, Sendable {
        case pressed
        /// Released; `long` says whether a long press already fired for this hold.
        case released(long: Bool)
        case longPress
        case repeated
    }

    /// The timings it was made with.
    public let configuration: Configuration
    /// The accepted state (what the rest of the box believes).
    public private(set) var isPressed = false
    private var rawPressed = false
    private var lastRawEdge: MonotonicInstant = .zero
    private var pressedAt: MonotonicInstant = .zero
    private var longFired = false
    private var nextRepeat: MonotonicInstant?
    /// A hold that was already there at start: it says nothing, not even its release.
    private var silentHold = false
    /// When the caller should call `timerFired` next (nil: nothing pending).
    public private(set) var wakeAt: MonotonicInstant?

    /// `heldAtStart`: the line already read pressed when the backend opened it (a stuck or held button).
    /// That hold is ignored; the button speaks again from its next press.
    public init(_ configuration: Configuration = Configuration(), heldAtStart: Bool = false) {
        self.configuration = configuration
        if heldAtStart {
            isPressed = true
            rawPressed = true
            longFired = true
            silentHold = true
        }
    }

    /// A raw edge: the line is now `pressed` (after the active level was applied), at `time`.
    public mutating func edge(pressed: Bool, at time: MonotonicInstant) -> [Output] {
        if pressed && rawPressed && isPressed {
            // Pressed again while held: a missed edge or a late read. Nothing moved. (Released again
            // while settling does count: it restarts the settle, as the contact is evidently still moving.)
            return []
        }
        rawPressed = pressed
        lastRawEdge = time
        var outputs: [Output] = []
        if pressed && !isPressed {
            isPressed = true
            pressedAt = time
            longFired = false
            nextRepeat = nil
            outputs.append(.pressed)
        } else if pressed, !longFired, let longPress = configuration.longPress, time >= pressedAt + longPress {
            // The contact closed again after a glitch that outlasted the long-press time: still one hold.
            outputs += fireLongPress()
        }
        planWake()
        return outputs
    }

    /// The timer the caller armed for `wakeAt` fired (or the caller simply looks at `now`).
    public mutating func timerFired(at now: MonotonicInstant) -> [Output] {
        var outputs: [Output] = []
        if isPressed && !rawPressed && now >= lastRawEdge + configuration.debounce {
            isPressed = false
            if !silentHold { outputs.append(.released(long: longFired)) }
            silentHold = false
            nextRepeat = nil
        }
        if isPressed && rawPressed && !longFired, let longPress = configuration.longPress, now >= pressedAt + longPress {
            outputs += fireLongPress()
        }
        if isPressed && rawPressed, let due = nextRepeat, now >= due, let interval = configuration.repeatInterval {
            outputs.append(.repeated)
            nextRepeat = due + interval
        }
        planWake()
        return outputs
    }

    private mutating func fireLongPress() -> [Output] {
        longFired = true
        if let longPress = configuration.longPress, let interval = configuration.repeatInterval, interval > .zero {
            nextRepeat = pressedAt + longPress + interval
        }
        return [.longPress]
    }

    private mutating func planWake() {
        var candidates: [MonotonicInstant] = []
        if isPressed && !rawPressed { candidates.append(lastRawEdge + configuration.debounce) }
        if isPressed && rawPressed && !longFired, let longPress = configuration.longPress {
            candidates.append(pressedAt + longPress)
        }
        if isPressed && rawPressed, let due = nextRepeat { candidates.append(due) }
        wakeAt = candidates.min()
    }
}
