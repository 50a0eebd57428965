/// The pure middle of every hardware input backend: raw levels, line states and steps go in, clean
/// `InputEvent`s come out, with one timer deadline (`wakeAt`) for the debouncers.
///
/// A backend reads its devices, feeds what it read here with the kernel's timestamps, delivers the
/// events, and keeps one loop timer armed at `wakeAt`, calling `timerFired` when it goes off. All the
/// judgement (bounce, chatter, long presses, impossible encoder transitions, the headphone switch's
/// settling) lives in this value type, so the timelines in the tests are exactly what the box does.
///
/// The headphone switch is debounced like a button whose "pressed" is *unplugged*: pulling the plug is
/// reported at its first edge (playback pauses at once), plugging in only once the contact has settled.
public struct InputDecoder: Equatable, Sendable {
    private var buttons: [Control: ButtonDebouncer] = [:]
    private var encoder: QuadratureDecoder?
    private var timeline = DetentTimeline()
    private var reversedSteps = false
    private var jackSwitch: ButtonDebouncer?

    public init() {}

    // MARK: Set-up

    /// Adds a button. `heldAtStart`: the line read pressed when it was opened; that hold is ignored.
    public mutating func addButton(_ control: Control, _ configuration: ButtonDebouncer.Configuration,
                                   heldAtStart: Bool = false) {
        buttons[control] = ButtonDebouncer(configuration, heldAtStart: heldAtStart)
    }

    /// Adds a quadrature encoder read line by line; `a`, `b` are its lines' levels now.
    public mutating func addEncoder(transitionsPerDetent: Int, reversed: Bool, a: Bool, b: Bool) {
        encoder = QuadratureDecoder(transitionsPerDetent: transitionsPerDetent, reversed: reversed, a: a, b: b)
    }

    /// Adds a knob whose detents arrive already decoded (`steps(_:at:)`), as from the kernel's driver.
    public mutating func addSteppedKnob(reversed: Bool) {
        reversedSteps = reversed
    }

    /// Adds the headphone switch, `connected` now, at `time`. Returns the first `.jack` event: the state
    /// at start, which the box needs as much as any change.
    public mutating func addJack(debounce: Duration, connected: Bool, at time: MonotonicInstant) -> [InputEvent] {
        var debouncer = ButtonDebouncer(.init(debounce: debounce, longPress: nil, repeatInterval: nil))
        if !connected { _ = debouncer.edge(pressed: true, at: time) }
        jackSwitch = debouncer
        return [.jack(connected: connected)]
    }

    // MARK: Raw input

    // Each raw input first fires whatever fell due before it, so events come out in time order whatever
    // order the loop dispatched the timer and the descriptors in.

    /// A button's line is now `pressed` (active level applied) at `time`.
    public mutating func button(_ control: Control, pressed: Bool, at time: MonotonicInstant) -> [InputEvent] {
        var events = timerFired(at: time)
        guard var debouncer = buttons[control] else { return events }
        events += debouncer.edge(pressed: pressed, at: time).map { .button(control, $0) }
        buttons[control] = debouncer
        return events
    }

    /// The encoder's lines now read `a`, `b` at `time`.
    public mutating func encoder(a: Bool, b: Bool, at time: MonotonicInstant) -> [InputEvent] {
        var events = timerFired(at: time)
        guard var decoder = encoder else { return events }
        if let detent = decoder.update(a: a, b: b, at: time) { events.append(.turn(detent)) }
        encoder = decoder
        return events
    }

    /// `count` detents already decoded (positive clockwise) at `time`, as the kernel reports them.
    public mutating func steps(_ count: Int, at time: MonotonicInstant) -> [InputEvent] {
        var events = timerFired(at: time)
        guard count != 0 else { return events }
        let direction = (count > 0) != reversedSteps ? 1 : -1
        for _ in 0..<abs(count) { events.append(.turn(timeline.detent(direction: direction, at: time))) }
        return events
    }

    /// The headphone switch now reads `connected` at `time`.
    public mutating func jack(connected: Bool, at time: MonotonicInstant) -> [InputEvent] {
        var events = timerFired(at: time)
        guard var debouncer = jackSwitch else { return events }
        events += debouncer.edge(pressed: !connected, at: time).compactMap(Self.jackEvent)
        jackSwitch = debouncer
        return events
    }

    // MARK: Time

    /// When the backend's timer should fire next (nil: nothing pending).
    public var wakeAt: MonotonicInstant? {
        (buttons.values.compactMap(\.wakeAt) + [jackSwitch?.wakeAt].compactMap { $0 }).min()
    }

    /// The backend's timer fired at `now`: settles releases and the jack, fires long presses and repeats,
    /// in the order they fell due. Backends drain their descriptors first, so an edge that happened before
    /// `now` but was not read yet cannot be overtaken by a timer (a bounce must not settle as a release).
    public mutating func timerFired(at now: MonotonicInstant) -> [InputEvent] {
        var events: [InputEvent] = []
        while true {
            // The earliest due debouncer; ties in a fixed order (PLAY, BACK, knob, jack).
            var earliest: (due: MonotonicInstant, control: Control?)?
            for control in Control.allCases {
                if let due = buttons[control]?.wakeAt, due <= now, due < (earliest?.due ?? .init(nanoseconds: .max)) {
                    earliest = (due, control)
                }
            }
            if let due = jackSwitch?.wakeAt, due <= now, due < (earliest?.due ?? .init(nanoseconds: .max)) {
                earliest = (due, nil)
            }
            guard let (due, control) = earliest else { return events }
            if let control, var debouncer = buttons[control] {
                events += debouncer.timerFired(at: due).map { .button(control, $0) }
                buttons[control] = debouncer
            } else if var debouncer = jackSwitch {
                events += debouncer.timerFired(at: due).compactMap(Self.jackEvent)
                jackSwitch = debouncer
            }
        }
    }

    private static func jackEvent(_ output: ButtonDebouncer.Output) -> InputEvent? {
        switch output {
        case .pressed: return .jack(connected: false)
        case .released: return .jack(connected: true)
        case .longPress, .repeated: return nil
        }
    }
}
