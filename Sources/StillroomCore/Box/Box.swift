/// The box's controls and screen as one pure machine: the chord detector and the control mapper turn
/// input into actions, the interface performs them on the model the daemon feeds it. The rules that sit
/// between those pieces live here, once, and are tested in milliseconds:
///
/// - the screen the mapper sees is the interface's, and so is whether it counts as dark (the key
///   describer lights the controls of a dark screen);
/// - a button that joins a chord does nothing of its own; a completed gesture goes to the interface;
/// - any control but a wake stops a transcript being read aloud;
/// - every change may change the screen, so every handled event ends with a redraw.
///
/// The daemon turns its devices, timers and rebuilt models into `BoxEvent`s and performs the
/// `BoxEffect`s; it keeps no rule of its own about what a control means.
public struct Box: Equatable, Sendable {
    public private(set) var interface: Interface
    public private(set) var controls: ControlInput
    public private(set) var model: InterfaceModel
    /// A transcript is being read aloud (the daemon's speech queue is not empty).
    public private(set) var isReadingAloud = false

    public init(interface: Interface = Interface(), controls: ControlInput = ControlInput(),
                model: InterfaceModel = InterfaceModel()) {
        self.interface = interface
        self.controls = controls
        self.model = model
    }

    /// The kind of screen showing, as the controls see it.
    public var screenKind: ScreenKind { interface.screenKind(model) }

    public mutating func handle(_ event: BoxEvent, now: MonotonicInstant) -> [BoxEffect] {
        switch event {
        case .start:
            return wrap(interface.start(model: model, now: now))
        case .modelChanged(let next):
            guard next != model else { return [] }
            model = next
            return wrap(interface.update(model: model, now: now)) + [.redraw]
        case .input(let input):
            let action = controls.action(for: input, on: screenKind, dark: interface.controlsDark, at: now)
            let armed: [BoxEffect] = [.gestureTimer(at: controls.gestureDueAt)]
            guard let action else { return armed }
            return armed + stopReading(unless: action == .wake) + wrap(interface.handle(action, model: model, now: now)) + [.redraw]
        case .gestureTimer:
            let gesture = controls.gestureTimerFired(at: now)
            let armed: [BoxEffect] = [.gestureTimer(at: controls.gestureDueAt)]
            guard let gesture else { return armed }
            return armed + stopReading(unless: false) + wrap(interface.handle(gesture: gesture, model: model, now: now)) + [.redraw]
        case .interfaceTimer(let timer):
            return wrap(interface.handle(timer: timer, model: model, now: now)) + [.redraw]
        case .glow:
            return wrap(interface.handle(.wake, model: model, now: now)) + [.redraw]
        case .readingAloud(let reading):
            isReadingAloud = reading
            return []
        }
    }

    private mutating func stopReading(unless spared: Bool) -> [BoxEffect] {
        guard isReadingAloud && !spared else { return [] }
        isReadingAloud = false
        return [.stopReadingAloud]
    }

    private func wrap(_ effects: [InterfaceEffect]) -> [BoxEffect] { effects.map(BoxEffect.interface) }
}
