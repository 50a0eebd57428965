// The interface's state machine: which screen is showing, what has the focus, the filter, a seek being
// previewed, a setting being adjusted, and how lit the screen is. Pure: actions from the control mapper
// and timers come in with the model and `now`; effects for the daemon go out. See docs/design.md.

/// One screen on the stack, with where its focus is.
public struct Page: Equatable, Sendable {
    public var screen: Screen
    /// The focused item (nil: the screen's default).
    public var focus: FocusKey?

    public init(_ screen: Screen, focus: FocusKey? = nil) {
        self.screen = screen
        self.focus = focus
    }
}

/// A seek being previewed with the knob: where it would land, and when it commits by itself.
public struct SeekPreview: Equatable, Sendable {
    /// Where playback was when the knob started turning.
    public var fromSeconds: Double
    /// Where it will go.
    public var targetSeconds: Double
    /// The knob has rested from here on: commit.
    public var commitAt: MonotonicInstant
}

/// A setting row being adjusted with the knob.
public struct SettingEdit: Equatable, Sendable {
    public var row: SettingRow
    /// Percent for volumes; minute of day for the reminder (-1: off).
    public var value: Int
}

/// The interface: a stack of screens over the library, and the rest of the state the screens need.
public struct Interface: Equatable, Sendable {
    /// How long the knob must rest before a previewed seek commits.
    public static let seekRest: Duration = .milliseconds(1200)
    /// The seek's ticks come at most this often, and its spoken targets at most once in `seekSpeechInterval`.
    public static let tickInterval: Duration = .milliseconds(100)
    public static let seekSpeechInterval: Duration = .seconds(1)
    /// The key describer turns itself off after this long without a touch.
    public static let describerTimeout: Duration = .seconds(60)
    /// Volume steps while adjusting, in percent.
    static let volumeStep = 5
    /// Reminder steps while adjusting, in minutes.
    static let reminderStep = 15

    /// The screens, the library first; the last one is showing. Never empty.
    public internal(set) var stack: [Page] = [Page(.library)]
    public internal(set) var filter: LibraryFilter = .all
    public internal(set) var seekPreview: SeekPreview?
    /// The transcript's scroll: nil follows the recording; otherwise the cue (and page of it) turned to.
    public internal(set) var transcriptAnchor: TranscriptPlace?
    public internal(set) var editing: SettingEdit?
    /// The timer's length (minutes) being chosen with the knob on the set-up screen.
    public internal(set) var timerMinutesEdit: Int?
    public internal(set) var power: ScreenPower = .on
    /// The player's phase last seen in a model (to speak changes nobody asked for).
    var lastPhase: PlayerPhase = .idle
    var lastNoticeIDs: [Int64] = []
    /// The breathing timer last seen in a model (to follow one started or ended elsewhere).
    var lastTimer: BreathingTimer?
    /// The dim and dark delays last seen (a change from the CLI takes effect at once).
    var lastDimming: [Int] = []
    /// The key describer, while it is on: when it was last touched (it turns itself off a minute later).
    public internal(set) var describerTouchedAt: MonotonicInstant?
    /// Notices that came while a recording played, to be said at the pause or the end (oldest first).
    public internal(set) var queuedNoticeIDs: [Int64] = []
    /// The last tick and the last spoken target of the seek being previewed (both rate-limited).
    var lastTickAt: MonotonicInstant?
    var lastSeekSpokenAt: MonotonicInstant?

    public init() {}

    /// An interface already showing `stack` (the library is put underneath when missing), for previews,
    /// screenshots and tests. The daemon starts with `init()`.
    public init(showing stack: [Page], filter: LibraryFilter = .all) {
        self.stack = stack.first?.screen == .library ? stack : [Page(.library)] + stack
        self.filter = filter
    }

    /// The screen showing (the resume offer is drawn over it while the model has one; see `screenKind`).
    public var screen: Screen { stack[stack.count - 1].screen }
    public var isDark: Bool { power == .off }
    /// Whether the key describer is on: every control says what it would do, and does nothing else.
    public var isDescribing: Bool { describerTouchedAt != nil }
    /// Whether the controls see a dark screen (the mapper's dark-screen rule). Not while the key describer
    /// is on: then a touch in the dark is described like any other, and the screen stays dark.
    public var controlsDark: Bool { isDark && !isDescribing }

    /// Whether the resume offer is on screen: while the player offers one, over anything but the clock
    /// face and a running breathing timer.
    public func showsResumeOffer(_ model: InterfaceModel) -> Bool {
        model.player.resumeOffer != nil && screen != .idle && screen != .breathingTimer
    }

    /// What the control mapper needs to know about the screen.
    public func screenKind(_ model: InterfaceModel) -> ScreenKind {
        showsResumeOffer(model) ? .resumeOffer : screen.kind
    }

    /// The focused item on the showing screen (nil on screens without focus).
    public func focus(_ model: InterfaceModel) -> FocusKey? { focus(of: stack.count - 1, model: model) }

    func focus(of index: Int, model: InterfaceModel) -> FocusKey? {
        let page = stack[index]
        let items = focusItems(on: page.screen, model: model)
        if let key = page.focus, items.contains(where: { $0.key == key }) { return key }
        return Self.defaultFocus(on: page.screen, items: items, model: model)
    }

    /// Day or night colours, from the setting and the local time (day while the time is unknown,
    /// unless night display is always on).
    public func appearance(_ model: InterfaceModel) -> Appearance {
        let settings = model.settings
        if settings.nightMode == .on { return .night }
        guard let clock = model.clock else { return .day }
        return settings.isNight(atMinuteOfDay: clock.minuteOfDay) ? .night : .day
    }

    // MARK: Start and model updates

    /// The first call, at start: arms the dim timers. The library shows with the first-boot session
    /// focused, ready for PLAY.
    public mutating func start(model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        lastPhase = model.player.phase
        lastNoticeIDs = model.notices.map(\.id)
        lastTimer = model.breathingTimer
        lastDimming = [model.settings.dimAfterSeconds, model.settings.darkAfterSeconds] // armed just below
        if model.breathingTimer != nil { stack.append(Page(.breathingTimer)) }
        var effects: [InterfaceEffect] = [.setScreenPower(.on)] + scheduleDimming(model, now: now)
        // What the screen shows at start is said once: the offer to resume, then any notice.
        if let offer = model.player.resumeOffer { effects += say(resumeOfferText(offer, model), model) }
        let notices = model.notices.map { noticeAnnouncement($0, model) }
        if !notices.isEmpty, model.settings.spokenLabels { effects.append(.speakAfter(notices.joined(separator: " "))) }
        return effects
    }

    /// Call whenever the model changed: screens that no longer make sense are closed (a removed
    /// session's page, a dismissed notice), and changes nobody asked for are spoken (headphones out,
    /// output lost, the end of a session, a new notice).
    public mutating func update(model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        var effects: [InterfaceEffect] = []
        let timerWasShowing = screen == .breathingTimer
        var kept: [Page] = [stack[0]]
        for page in stack.dropFirst() where isValid(page.screen, model) { kept.append(page) }
        stack = kept
        if seekPreview != nil && !canSeek(model.player) {
            seekPreview = nil
            effects.append(.cancelTimer(.seekCommit))
        }
        if editing != nil && screen != .settings { editing = nil }
        if timerMinutesEdit != nil && screen != .timerSetup { timerMinutesEdit = nil }
        effects += followTimer(model, wasShowing: timerWasShowing, now: now)
        let dimming = [model.settings.dimAfterSeconds, model.settings.darkAfterSeconds]
        if dimming != lastDimming {
            // New delays count from now, as if the screen had just been touched (without lighting it).
            if !lastDimming.isEmpty && power == .on { effects += scheduleDimming(model, now: now) }
            lastDimming = dimming
        }

        let phase = model.player.phase
        if phase != lastPhase {
            switch phase {
            case .paused where model.player.pauseReason == .headphonesRemoved:
                effects += say("Headphones out. Paused.", model)
            case .paused where model.player.pauseReason == .outputLost:
                effects += say("No sound output. Paused.", model)
            case .paused where model.player.pauseReason == .damagedRecording:
                effects += say("The recording is damaged here and cannot play on. Turn the knob to skip past it.", model)
            case .ended: effects += say("Session finished.", model)
            case .failed(let message): effects += say("Could not play. \(message)", model)
            case .loading where !Self.hadSession(lastPhase), .playing where !Self.hadSession(lastPhase):
                // A session started from elsewhere (the CLI over SSH, a resume): the box shows it, unless
                // someone is busy on a screen of their own (settings, history, a question).
                if screen == .library || screen == .idle { showPlayer() }
                if case .detail = screen { showPlayer() }
            default: break
            }
            lastPhase = phase
        }
        effects += announceNotices(model)
        return effects
    }

    func isValid(_ screen: Screen, _ model: InterfaceModel) -> Bool {
        switch screen {
        case .breathingTimer: return model.breathingTimer != nil
        case .detail(let id): return model.session(id) != nil
        case .notice(let id): return model.notices.contains { $0.id == id }
        case .transcript: return model.transcript != nil && model.player.hasSession
        case .confirm(.removeDownload(let id)):
            guard let status = model.session(id)?.download else { return false }
            return status.isPlayableOffline && !status.canCancel
        case .confirm(.deleteRun(let id, _)): return model.history.recent.contains { $0.runID == id }
        case .confirm(.deleteAllHistory): return !model.history.isEmpty
        default: return true
        }
    }

    // MARK: Actions

    /// Performs one control action on the showing screen.
    public mutating func handle(_ action: ControlAction, model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        switch action {
        case .quit: return [.quit]
        case .headphones(let connected):
            return [.headphones(connected: connected)]
        case _ where model.systemUpdate != nil:
            // Nothing starts while an update installs; a touch lights the screen and says why.
            return touch(model, now: now) + say("Installing an update. The box restarts by itself when it is done.",
                                                short: "Updating.", model)
        case _ where isDescribing:
            return describe(action, model: model, now: now)
        case .playPause where power == .off:
            return playPause(model, now: now) // PLAY acts in the dark and leaves it dark
        default: break
        }
        var effects = touch(model, now: now)
        switch action {
        case .wake:
            if let item = focusItems(on: screen, model: model).first(where: { $0.key == focus(model) }) {
                effects += say(item.label, short: item.brief, model)
            } else if screen == .idle {
                effects += say(idleAnnouncement(model), short: idleAnnouncement(model, short: true), model)
            } else if model.player.hasSession, screen == .player || screen == .transcript {
                // Nothing to focus: say what plays and where, so a touch in the dark answers "where am I?".
                effects += say("\(model.player.title). \(InterfaceText.playerState(model.player)) "
                    + "\(InterfaceText.spokenWhere(model.player, now: now)).",
                    short: "\(InterfaceText.playerState(model.player)) at \(InterfaceText.spokenPositionShort(model.player.position(at: now))).", model)
            }
        case .playPause: effects += playPause(model, now: now)
        case .back: effects += back(model, now: now)
        case .home: effects += goHome(model)
        case .focus(let steps): effects += moveFocus(steps, model)
        case .scroll(let steps): effects += scroll(steps, model, now: now)
        case .seekPreview(let seconds): effects += previewSeek(seconds, model, now: now)
        case .select: effects += select(model, now: now)
        case .toggleTranscript: effects += toggleTranscript(model, now: now)
        case .contextAction: effects += contextAction(model)
        case .acceptResume: effects += acceptResume(model)
        case .dismissResume:
            if model.player.resumeOffer != nil { effects += [.dismissResume] + say("Not now. The library.", model) }
        case .headphones, .quit: break
        }
        return effects
    }

    /// A timer the interface asked for is due.
    public mutating func handle(timer: InterfaceTimer, model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        switch timer {
        case .seekCommit:
            guard let preview = seekPreview else { return [] }
            guard now >= preview.commitAt else { return [.scheduleTimer(.seekCommit, at: preview.commitAt)] }
            return commitSeek(model)
        case .dim:
            // While the key describer is on, the screen stays as it is: someone exploring the controls by
            // touch must not find them changed under their fingers (the idle face makes BACK act at its
            // press, so a chord began as "home"). The dimming starts again when the describer stops.
            guard power == .on, !isDescribing else { return [] }
            power = .dim
            var effects: [InterfaceEffect] = [.setScreenPower(.dim)]
            if !model.player.isPlaying && model.breathingTimer == nil && screen != .idle {
                effects += closeTransient()
                stack.append(Page(.idle))
            }
            return effects
        case .describer:
            guard let touched = describerTouchedAt else { return [] }
            guard now >= touched + Self.describerTimeout else {
                return [.scheduleTimer(.describer, at: touched + Self.describerTimeout)]
            }
            return stopDescriber("A minute without a touch: key describer off. The controls work again.", model: model, now: now)
        case .dark:
            guard power != .off, !isDescribing else { return [] }
            power = .off
            var effects: [InterfaceEffect] = [.setScreenPower(.off)]
            if !model.player.isPlaying && model.breathingTimer == nil && screen != .idle {
                effects += closeTransient()
                stack.append(Page(.idle))
            }
            return effects
        }
    }

    /// A touch: light the screen if it was dim and start the dim and dark timers again.
    mutating func touch(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        var effects: [InterfaceEffect] = []
        if power != .on {
            power = .on
            effects.append(.setScreenPower(.on))
        }
        return effects + scheduleDimming(model, now: now)
    }

    func scheduleDimming(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let dim = max(1, model.settings.dimAfterSeconds)
        let dark = max(dim, model.settings.darkAfterSeconds)
        return [.scheduleTimer(.dim, at: now + .seconds(dim)), .scheduleTimer(.dark, at: now + .seconds(dark))]
    }

    /// Drops a seek preview or an adjustment in progress (the screen is going away).
    mutating func closeTransient() -> [InterfaceEffect] {
        editing = nil
        timerMinutesEdit = nil
        guard seekPreview != nil else { return [] }
        seekPreview = nil
        return [.cancelTimer(.seekCommit)]
    }
}
