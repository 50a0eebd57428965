import DeviceFakes
import StillroomCore

/// The box as the daemon runs it: scripted input into `Box`, with the interface's effects applied to the
/// model the way the daemon would (a small stand-in for the player, the store and the download manager),
/// every changed model handed back, and timers kept on a manual clock.
final class InterfaceDriver {
    var model: InterfaceModel
    private(set) var box: Box
    /// The interface; tests may set it to begin on a given page.
    var interface: Interface {
        get { box.interface }
        set { box = Box(interface: newValue, controls: box.controls, model: box.model) }
    }
    let input = ScriptedInput(loop: nil, jackAtStart: nil)
    var now: MonotonicInstant
    /// Every effect so far, in order.
    private(set) var effects: [InterfaceEffect] = []
    /// Armed timers by kind.
    private(set) var timers: [InterfaceTimer: MonotonicInstant] = [:]
    private(set) var power: ScreenPower = .on

    init(model: InterfaceModel = InterfaceSamples.model(), now: MonotonicInstant = InterfaceSamples.now) {
        self.model = model
        self.now = now
        box = Box(model: model)
        try! input.start { [unowned self] event in self.feed(event) }
        perform(box.handle(.start, now: now, wall: 0))
    }

    var screen: Screen { interface.screen }
    var kind: ScreenKind { interface.screenKind(model) }
    var focus: FocusKey? { interface.focus(model) }

    /// Effects since `mark()`.
    private var marked = 0
    func mark() { marked = effects.count }
    var recent: [InterfaceEffect] { Array(effects[marked...]) }

    // MARK: Input, as the hardware would send it

    func press(_ control: Control) { input.press(control) }
    func hold(_ control: Control) { input.hold(control) }

    /// Holds `controls` together (in that order) for `duration` with time moving on, then lets them go:
    /// the chords, and BACK alone for the guide.
    func holdTogether(_ held: [Control], for duration: Duration) {
        for control in held { input.send(.button(control, .pressed)) }
        advance(by: min(duration, .milliseconds(800)))
        for control in held { input.send(.button(control, .longPress)) }
        if duration > .milliseconds(800) { advance(by: duration - .milliseconds(800)) }
        for control in held { input.send(.button(control, .released(long: true))) }
    }

    /// The spoken-labels chord, the key-describer chord, and the guide, as a person makes them.
    func labelsChord() { holdTogether([.back, .knob], for: .milliseconds(2500)) }
    func describerChord() { holdTogether([.back, .play], for: .milliseconds(2500)) }
    func holdForGuide() { holdTogether([.back], for: .milliseconds(3500)) }
    /// `detents` turns, 150 ms apart, with time moving on.
    func turn(_ detents: Int) {
        for _ in 0..<abs(detents) {
            advance(by: .milliseconds(150))
            input.turn(detents > 0 ? 1 : -1, at: now)
        }
    }

    func feed(_ event: InputEvent) { perform(box.handle(.input(event), now: now, wall: 0)) }

    /// Moves the clock on, firing due timers in order (and ending a breathing timer at its end, as the
    /// daemon's end timer does).
    func advance(by duration: Duration) {
        let end = now + duration
        while true {
            if let gestureAt = gestureDueAt, gestureAt <= end,
               timers.values.allSatisfy({ $0 >= gestureAt }), model.breathingTimer.map({ $0.endsAt >= gestureAt }) ?? true {
                now = max(now, gestureAt)
                gestureDueAt = nil // fired: the box arms it again if a gesture still waits
                perform(box.handle(.timer(.gesture), now: now, wall: 0))
                continue
            }
            let due = timers.filter { $0.value <= end }.min { $0.value < $1.value }
            if let timer = model.breathingTimer, timer.endsAt <= end, due.map({ timer.endsAt <= $0.value }) ?? true {
                now = max(now, timer.endsAt)
                update { $0.breathingTimer = nil }
                continue
            }
            guard let (kind, at) = due else { break }
            now = max(now, at)
            timers[kind] = nil
            perform(box.handle(.timer(.interface(kind)), now: now, wall: 0))
        }
        now = end
    }

    /// Changes the model as the daemon would, and tells the interface.
    func update(_ change: (inout InterfaceModel) -> Void) {
        change(&model)
        perform(box.handle(.modelChanged(model), now: now, wall: 0))
    }

    // MARK: The daemon's side

    /// The held-gesture timer the box asked for.
    private var gestureDueAt: MonotonicInstant?

    func perform(_ new: [BoxEffect]) {
        var run: [InterfaceEffect] = []
        for effect in new {
            switch effect {
            case .interface(let action): run.append(action.asInterfaceEffect)
            case .arm(.gesture, at: .monotonic(let at)): gestureDueAt = at
            case .cancel(.gesture): gestureDueAt = nil
            // The interface's timers, in its own words, in the run where it asked for them.
            case .arm(.interface(let kind), at: .monotonic(let at)): run.append(.scheduleTimer(kind, at: at))
            case .cancel(.interface(let kind)): run.append(.cancelTimer(kind))
            case .arm(.minute, _), .cancel(.minute): break // the clock on screen: the driver's model keeps its own
            case .redraw: break
            // The box's voice: the interface's words, in its own words, in the run where it said them.
            case .then(.speech(.label(let text, always: false))): run.append(.speak(text))
            case .then(.speech(.label(let text, always: true))): run.append(.announce(text))
            case .then(.speech(.afterCurrent(let text))): run.append(.speakAfter(text))
            case .then(.speech(.readTranscript(let cue))): run.append(.readTranscript(fromCue: cue))
            case .then(.speech(.read(let sentences))): run.append(.readAloud(sentences))
            case .say, .arm(.speech, _), .cancel(.speech): break
            case .then(.player(let request, _)):
                // The stand-in player takes the request with the rest of the run, as the interface asked it.
                if let asked = Self.interfaceRequest(request) { run.append(asked) }
            case .then(.startBreathingTimer(let pattern, let minutes)): run.append(.startBreathingTimer(patternName: pattern, minutes: minutes))
            case .then(.stopBreathingTimer): run.append(.stopBreathingTimer)
            default: preconditionFailure("the driver stands in for the player and feeds the box no player event: \(effect)")
            }
        }
        if !run.isEmpty { apply(run) }
    }

    /// What the interface asked of the player, in the interface's words (the box hands it to the player).
    static func interfaceRequest(_ event: PlayerEvent) -> InterfaceEffect? {
        switch event {
        case .play(let id, _, _): .play(sessionID: id)
        case .toggle: .toggle
        case .acceptResume: .acceptResume
        case .dismissResume: .dismissResume
        case .stop: .stop
        case .seekTo(let seconds): .seek(toSeconds: seconds)
        default: nil // the jack's (its `.headphones` effect follows) and the pause before a reading
        }
    }

    func apply(_ new: [InterfaceEffect]) {
        effects += new
        for effect in new {
            switch effect {
            case .scheduleTimer(let kind, let at): timers[kind] = at
            case .cancelTimer(let kind): timers[kind] = nil
            case .setScreenPower(let value): power = value
            case .play(let id):
                let session = model.session(id)!
                model.player = InterfaceModel.PlayerInfo(phase: .playing, sessionID: id, title: session.title, positionSeconds: 0,
                                                         positionAt: now, lengthSeconds: session.durationSeconds)
                model.transcript = id == "steady-breath" ? InterfaceSamples.transcript : nil
                model.breathCues = id == "steady-breath" ? InterfaceSamples.breathCues : nil
            case .toggle:
                model.player.positionSeconds = model.player.position(at: now)
                model.player.positionAt = now
                model.player.phase = model.player.phase == .playing ? .paused : .playing
                model.player.pauseReason = model.player.phase == .paused ? .user : nil
            case .acceptResume:
                guard let offer = model.player.resumeOffer else { break }
                let session = model.session(offer.position.sessionID)!
                model.player = InterfaceModel.PlayerInfo(phase: .playing, sessionID: session.id, title: session.title,
                                                         positionSeconds: offer.position.seconds, positionAt: now,
                                                         lengthSeconds: session.durationSeconds)
            case .dismissResume: model.player.resumeOffer = nil
            case .seek(let seconds):
                model.player.positionSeconds = seconds
                model.player.positionAt = now
            case .stop: model.player = InterfaceModel.PlayerInfo()
            case .setFavourite(let id, let on):
                if let index = model.sessions.firstIndex(where: { $0.id == id }) { model.sessions[index].isFavourite = on }
            case .changeSetting(let key, let value): try! model.settings.set(key, to: value)
            case .setReminder(let enabled, let minute): model.reminder = .init(enabled: enabled, minuteOfDay: minute)
            case .startDownload(let id):
                if let index = model.sessions.firstIndex(where: { $0.id == id }) {
                    model.sessions[index].download = DownloadStatus(sessionID: id, state: .queued, bytesTotal: model.sessions[index].downloadBytes)
                }
            case .cancelDownload(let id), .removeDownload(let id):
                if let index = model.sessions.firstIndex(where: { $0.id == id }) {
                    model.sessions[index].download = DownloadStatus(sessionID: id, state: .available, bytesTotal: model.sessions[index].downloadBytes)
                }
            case .deleteHistory(.all): model.history = InterfaceModel.HistorySummary()
            case .deleteHistory(.run(let id)): model.history.recent.removeAll { $0.runID == id }
            case .dismissNotice(let id): model.notices.removeAll { $0.id == id }
            case .startBreathingTimer(let pattern, let minutes):
                if model.player.phase == .playing { // silence means silence
                    model.player.positionSeconds = model.player.position(at: now)
                    model.player.positionAt = now
                    model.player.phase = .paused
                    model.player.pauseReason = .user
                }
                model.breathingTimer = BreathingTimer(patternName: pattern, minutes: minutes, startedAt: now)
            case .stopBreathingTimer: model.breathingTimer = nil
            case .speak, .speakAfter, .announce, .readAloud, .cue, .headphones, .quit, .readTranscript: break
            }
        }
        // The daemon hands every changed model back.
        let more = box.handle(.modelChanged(model), now: now, wall: 0)
        if !more.isEmpty { perform(more) }
    }
}

extension InterfaceAction {
    /// The action in the interface's own words (the tests read the interface's runs as it wrote them).
    var asInterfaceEffect: InterfaceEffect {
        switch self {
        case .setFavourite(let id, let on): .setFavourite(sessionID: id, on)
        case .changeSetting(let key, let value): .changeSetting(key: key, value: value)
        case .setReminder(let enabled, let minute): .setReminder(enabled: enabled, minuteOfDay: minute)
        case .startDownload(let id): .startDownload(sessionID: id)
        case .cancelDownload(let id): .cancelDownload(sessionID: id)
        case .removeDownload(let id): .removeDownload(sessionID: id)
        case .deleteHistory(let which): .deleteHistory(which)
        case .dismissNotice(let id): .dismissNotice(id: id)
        case .setScreenPower(let power): .setScreenPower(power)
        case .cue(let cue): .cue(cue)
        case .headphones(let connected): .headphones(connected: connected)
        case .quit: .quit
        }
    }
}
