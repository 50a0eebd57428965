/// Turns the raw edges of one push button into clean presses, releases, long presses and repeats.
///
/// A press is accepted at its first edge, so PLAY answers at once; the contact's bounce and chatter that
/// follow are ignored because a release is accepted only after the line has stayed released for
/// `debounce`. So a bounce never doubles a press, and two real presses 80 ms apart are still two. The
/// caller arms a timer for `wakeAt` and calls `timerFired` then (the release settle, the long press, the
/// repeats). Pure: times come from the kernel's event timestamps or the loop.
public struct ButtonDebouncer: Equatable, Sendable {
    public struct Configuration: Equatable, Sendable {
        /// How long the line must stay released before a release counts.
        public var debounce: Duration
        /// Held this long, a press becomes a long press.
        public var longPress: Duration
        /// After a long press, repeat this often while held (nil: no repeats).
        public var repeatInterval: Duration?

        public init(debounce: Duration = .milliseconds(20), longPress: Duration = .milliseconds(800),
                    repeatInterval: Duration? = nil) {
            self.debounce = debounce
            self.longPress = longPress
            self.repeatInterval = repeatInterval
        }
    }

    public enum Output: Equatable, Sendable {
        case pressed
        /// Released; `long` says whether a long press already fired for this hold.
        case released(long: Bool)
        case longPress
        case repeated
    }

    public let configuration: Configuration
    /// The accepted state (what the rest of the box believes).
    public private(set) var isPressed = false
    private var rawPressed = false
    private var lastRawEdge: MonotonicInstant = .zero
    private var pressedAt: MonotonicInstant = .zero
    private var longFired = false
    private var nextRepeat: MonotonicInstant?
    /// When the caller should call `timerFired` next (nil: nothing pending).
    public private(set) var wakeAt: MonotonicInstant?

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// A raw edge: the line is now `pressed` (after the active level was applied), at `time`.
    public mutating func edge(pressed: Bool, at time: MonotonicInstant) -> [Output] {
        rawPressed = pressed
        lastRawEdge = time
        var outputs: [Output] = []
        if pressed && !isPressed {
            isPressed = true
            pressedAt = time
            longFired = false
            nextRepeat = nil
            outputs.append(.pressed)
        }
        planWake()
        return outputs
    }

    /// The timer the caller armed for `wakeAt` fired (or the caller simply looks at `now`).
    public mutating func timerFired(at now: MonotonicInstant) -> [Output] {
        var outputs: [Output] = []
        if isPressed && !rawPressed && now >= lastRawEdge + configuration.debounce {
            isPressed = false
            outputs.append(.released(long: longFired))
            nextRepeat = nil
        }
        if isPressed && !longFired && now >= pressedAt + configuration.longPress {
            longFired = true
            outputs.append(.longPress)
            if let interval = configuration.repeatInterval { nextRepeat = pressedAt + configuration.longPress + interval }
        }
        if isPressed, let due = nextRepeat, now >= due, let interval = configuration.repeatInterval {
            outputs.append(.repeated)
            nextRepeat = due + interval
        }
        planWake()
        return outputs
    }

    private mutating func planWake() {
        var candidates: [MonotonicInstant] = []
        if isPressed && !rawPressed { candidates.append(lastRawEdge + configuration.debounce) }
        if isPressed && !longFired { candidates.append(pressedAt + configuration.longPress) }
        if isPressed, let due = nextRepeat { candidates.append(due) }
        wakeAt = candidates.min()
    }
}
