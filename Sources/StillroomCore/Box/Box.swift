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
/// The player and the practice ledger are in the box too (`Listening`, Box+Listening.swift).
///
/// The daemon turns its devices, timers and rebuilt models into `BoxEvent`s and performs the
/// `BoxEffect`s; it keeps no rule of its own about what a control means or what listening keeps.
public struct Box: Equatable, Sendable {
    public internal(set) var interface: Interface
    public internal(set) var controls: ControlInput
    public private(set) var model: InterfaceModel
    /// What the box says, and when (Box+Voice.swift).
    public internal(set) var voice = SpeechQueue()
    /// A transcript is being read aloud.
    public var isReadingAloud: Bool { voice.isReadingAloud }
    public internal(set) var listening: Listening
    /// The breathing timer, as silent practice.
    public internal(set) var silent = SilentPractice()
    /// Whether the wall clock is trustworthy (practice runs are dated by it).
    public internal(set) var clockTrusted: Bool
    /// Runs saved under an untrusted clock in this boot, with their monotonic start, for re-dating.
    var untrustedRuns: [Int64: MonotonicInstant] = [:]
    public internal(set) var reminder: ReminderMachine
    /// The local time zone (the reminder is planned in it, the night hours are read in it).
    public internal(set) var timeZoneRules: TimeZoneRules = .utc
    /// The player's phase last said (`.playerPhaseChanged`), and the position's second last shown.
    var shownPhase: PlayerPhase = .idle
    /// `.start` came: the interface follows the model from then on.
    var started = false
    var shownSecond = -1
    /// The timers the box has armed, and when each is due (Box+Timers.swift).
    public internal(set) var armed: [BoxTimer: TimerDeadline] = [:]
    /// Which of the problems standing now are shown, and which a person dismissed (LiveNotices).
    public var liveNotices = LiveNotices()

    public init(interface: Interface = Interface(), controls: ControlInput = ControlInput(),
                model: InterfaceModel = InterfaceModel(), listening: Listening = Listening(), clockTrusted: Bool = false,
                reminder: ReminderMachine = ReminderMachine(preference: nil, firedDay: nil)) {
        self.interface = interface
        self.controls = controls
        self.model = model
        self.listening = listening
        self.clockTrusted = clockTrusted
        self.reminder = reminder
    }

    /// The kind of screen showing, as the controls see it.
    public var screenKind: ScreenKind { interface.screenKind(model) }

    /// `now` on the monotonic clock, `wall` the wall clock's reading of the same moment (practice runs
    /// are dated by it).
    public mutating func handle(_ event: BoxEvent, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        respond(to: event, now: now, wall: wall) + minuteFollowsScreen(wall: wall)
    }

    private mutating func respond(to event: BoxEvent, now: MonotonicInstant, wall: UnixMilliseconds) -> [BoxEffect] {
        switch event {
        case .start:
            started = true
            return wrap(interface.start(model: model, now: now), now: now)
        case .modelChanged(let next):
            guard next != model else { return [] }
            model = next
            // Before the start the model is only kept: the start says what it shows (an update first would
            // take every notice for new and say each twice, "Notice: … Notice: …").
            guard started else { return [] }
            return wrap(interface.update(model: model, now: now), now: now) + [.redraw]
        case .input(let input):
            let action = controls.action(for: input, on: screenKind, dark: interface.controlsDark, at: now)
            let armed = gestureTimer()
            guard let action else { return armed }
            return armed + stopReading(unless: action == .wake) + wrap(interface.handle(action, model: model, now: now), now: now) + [.redraw]
        case .timer(let timer):
            return fired(timer, now: now, wall: wall)
        case .glow:
            return wrap(interface.handle(.wake, model: model, now: now), now: now) + [.redraw]
        case .speech(let request):
            return speak(request, now: now)
        case .spoke(let seconds):
            return voiceEffects(voice.spoke(seconds: seconds, now: now))
        case .saidOnRequest(let text, let seconds):
            voice.saidOnRequest(text, seconds: seconds, now: now)
            return []
        case .player(let event, let prepared):
            return begin(event, prepared: prepared, now: now, wall: wall)
        case .settle(let step, let event):
            return settle(step, of: event, now: now, wall: wall)
        case .finish(let event, let acted):
            return finish(event, acted: acted, now: now, wall: wall)
        case .heard(let ranges):
            return saving(listening.heard(ranges, now: now, wall: wall, clockTrusted: clockTrusted))
        case .saved(let runs, let stored):
            untrustedRuns.merge(listening.saved(runs, as: stored)) { _, new in new }
            return []
        case .continueRun(let run, let sampleRate, let recordingFrames):
            listening.join(run, sampleRate: sampleRate, recordingFrames: recordingFrames, now: now)
            return []
        case .clockSet(let trusted):
            return clockTrust(trusted, now: now, wall: wall) + planReminder(now: now, wall: wall)
        case .runsDeleted(let run):
            listening.forget(run: run)
            if let run { untrustedRuns[run] = nil } else { untrustedRuns = [:] }
            return []
        case .removingDownload(let id):
            return stopIfPlaying(id)
        case .startBreathingTimer(let pattern, let minutes):
            return startBreathingTimer(pattern: pattern, minutes: minutes, now: now, wall: wall)
        case .stopBreathingTimer:
            return finishBreathingTimer(completed: false, now: now, wall: wall)
        case .timerRunInserted(let run, let started):
            return timerRunInserted(run, startedMonotonic: started)
        case .planReminder(let rules):
            return planReminder(rules: rules, now: now, wall: wall)
        case .reminderChosen(let preference):
            return reminderChosen(preference, now: now, wall: wall)
        }
    }

    mutating func stopReading(unless spared: Bool) -> [BoxEffect] {
        guard !spared else { return [] }
        return voiceEffects(voice.stopReading())
    }

    /// The interface's effects, with what it asks of the player handed to the player (`listen(to:)`) and
    /// its timers among the box's; a notice dismissed is the reminder's card seen.
    mutating func wrap(_ effects: [InterfaceEffect], now: MonotonicInstant) -> [BoxEffect] {
        if effects.contains(where: { if case .dismissNotice = $0 { true } else { false } }) { noticeDismissed() }
        return effects.flatMap { effect -> [BoxEffect] in
            switch effect {
            case .scheduleTimer(let timer, let at): return arm(.interface(timer), at: at)
            case .cancelTimer(let timer): return cancel(.interface(timer))
            default: return listen(to: effect)
            }
        }
    }
}
