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
    public private(set) var stack: [Page] = [Page(.library)]
    public private(set) var filter: LibraryFilter = .all
    public private(set) var seekPreview: SeekPreview?
    /// The transcript's scroll: nil follows the recording; otherwise the cue (and page of it) turned to.
    public private(set) var transcriptAnchor: TranscriptPlace?
    public private(set) var editing: SettingEdit?
    /// The timer's length (minutes) being chosen with the knob on the set-up screen.
    public private(set) var timerMinutesEdit: Int?
    public private(set) var power: ScreenPower = .on
    /// The player's phase last seen in a model (to speak changes nobody asked for).
    private var lastPhase: PlayerPhase = .idle
    var lastNoticeIDs: [Int64] = []
    /// The breathing timer last seen in a model (to follow one started or ended elsewhere).
    private var lastTimer: BreathingTimer?
    /// The dim and dark delays last seen (a change from the CLI takes effect at once).
    private var lastDimming: [Int] = []
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

    private func isValid(_ screen: Screen, _ model: InterfaceModel) -> Bool {
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
            guard power == .on else { return [] }
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
            return stopDescriber("A minute without a touch: key describer off. The controls work again.")
        case .dark:
            guard power != .off else { return [] }
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

    // MARK: PLAY

    private mutating func playPause(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let player = model.player
        // A running breathing timer: PLAY stops it, whatever else waits (see docs/routine.md).
        if model.breathingTimer != nil { return stopTimer(model, now: now) }
        if model.player.resumeOffer != nil { return acceptResume(model) }
        if screen == .timerSetup { return startTimer(model) }
        if let preview = seekPreview, canSeek(player) {
            // PLAY during a preview: go there, and play.
            seekPreview = nil
            var effects: [InterfaceEffect] = [.cancelTimer(.seekCommit), .seek(toSeconds: preview.targetSeconds)]
            if !player.isPlaying { effects.append(.toggle) }
            return effects + say("Playing from \(InterfaceText.spokenPosition(preview.targetSeconds)).", model)
        }
        // On a session's page, PLAY means that session: play it, or fetch it when it is not on the box.
        if case .detail(let id) = screen, let session = model.session(id), !(player.hasSession && player.sessionID == id) {
            if session.isPlayable { return start(session, model) }
            if let status = session.download, status.canDownload {
                return [.startDownload(sessionID: id)] + say("Downloading \(session.title).", model)
            }
        }
        if player.hasSession, let id = player.sessionID {
            switch player.phase {
            case .ended, .failed:
                if let session = model.session(id), session.isPlayable { return start(session, model) }
                return [.play(sessionID: id)]
            case .playing:
                return [.toggle] + say("Paused \(InterfaceText.spokenWhere(player, now: now)).",
                                       short: "Paused at \(InterfaceText.spokenPositionShort(player.position(at: now))).", model)
            default:
                return [.toggle] + say("Playing \(player.title).", model)
            }
        }
        var preferred: String?
        if stack.count == 1 || screen == .idle {
            switch focus(of: 0, model: model) {
            case .session(let id)?: preferred = id
            case .timerLink?: return startTimer(model) // the focused thing: the breathing timer
            default: break
            }
        }
        if screen == .downloads, case .session(let id)? = focus(model) { preferred = id }
        guard let session = model.sessionToStart(preferring: preferred) else {
            return say("There is no session on this box to play.", model)
        }
        return start(session, model)
    }

    /// Starts `session` from its beginning and shows the player.
    private mutating func start(_ session: InterfaceModel.SessionItem, _ model: InterfaceModel) -> [InterfaceEffect] {
        var effects = closeTransient()
        effects.append(.play(sessionID: session.id))
        showPlayer()
        return effects + say("Playing \(session.title).", model)
    }

    /// Whether a session was under way in `phase` (so a change to playing is a resume, not a start).
    private static func hadSession(_ phase: PlayerPhase) -> Bool {
        switch phase {
        case .loading, .playing, .paused: return true
        case .idle, .ended, .failed: return false
        }
    }

    private mutating func showPlayer() {
        if screen == .idle { stack.removeLast() }
        if screen == .player || screen == .transcript { return }
        if case .confirm = screen { stack.removeLast() }
        stack.append(Page(.player))
    }

    private mutating func acceptResume(_ model: InterfaceModel) -> [InterfaceEffect] {
        guard let offer = model.player.resumeOffer else { return [] }
        showPlayer()
        return [.acceptResume] + say("Resuming \(offer.title) at \(InterfaceText.spokenPosition(offer.position.seconds)).", model)
    }

    // MARK: BACK and home

    private mutating func back(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        if seekPreview != nil {
            seekPreview = nil
            return [.cancelTimer(.seekCommit)] + say("Seek cancelled.", model)
        }
        if editing != nil {
            editing = nil
            return say("Unchanged.", model)
        }
        if timerMinutesEdit != nil {
            timerMinutesEdit = nil
            return say("Unchanged.", model)
        }
        if screen == .breathingTimer { return stopTimer(model, now: now) }
        if stack.count > 1 {
            stack.removeLast()
            if screen == .transcript || screen == .player { transcriptAnchor = nil }
            return say(screenAnnouncement(model), model)
        }
        if filter != .all {
            filter = .all
            return say("Showing all sessions.", model)
        }
        return say("Library.", model)
    }

    private mutating func goHome(_ model: InterfaceModel) -> [InterfaceEffect] {
        var effects = closeTransient()
        if model.breathingTimer != nil { effects.append(.stopBreathingTimer) }
        stack = [stack[0]]
        transcriptAnchor = nil
        return effects + say(screenAnnouncement(model), model)
    }

    /// What the voice says when a screen appears: its name and the focused item.
    func screenAnnouncement(_ model: InterfaceModel) -> String {
        let name: String
        switch screen {
        case .library: name = "Library"
        case .detail(let id): name = model.session(id)?.title ?? "Session"
        case .player: name = model.player.hasSession ? "\(model.player.title). \(InterfaceText.playerState(model.player))" : "Player"
        case .transcript: name = "Transcript"
        case .history: name = "Practice history"
        case .settings: name = "Settings"
        case .downloads: name = "Downloads"
        case .confirm(let question): name = ConfirmText.of(question, model: model).question
        case .notice(let id): name = model.notices.first { $0.id == id }.map { InterfaceText.noticeHeading($0.kind) } ?? "Notice"
        case .idle: name = "Clock"
        case .timerSetup: name = "Breathing timer"
        case .breathingTimer:
            name = model.breathingTimer.map { "Breathing timer, \(InterfaceText.spokenMinutes(Int($0.length.seconds / 60)))" } ?? "Breathing timer"
        }
        let focused = focusItems(on: screen, model: model).first { $0.key == focus(model) }
        let label = model.settings.verbosity == .short ? focused?.brief : focused?.label
        return label.map { "\(name). \($0)" } ?? "\(name)."
    }

    /// What PLAY would do from the clock face, as a sentence: resume the offer, pause or resume what is
    /// loaded, or play the session it would start.
    func playSentence(_ model: InterfaceModel) -> String? {
        if let offer = model.player.resumeOffer { return "PLAY resumes \(offer.title)." }
        if model.player.hasSession {
            return model.player.isPlaying ? "PLAY pauses \(model.player.title)." : "PLAY resumes \(model.player.title)."
        }
        return model.sessionToStart(preferring: nil).map { "PLAY plays \($0.title)." }
    }

    /// The resting face, spoken: what the clock screen shows (the time, the date, today's practice, the
    /// next reminder, what PLAY does) and how to reach the rest.
    func idleAnnouncement(_ model: InterfaceModel, short: Bool = false) -> String {
        var parts: [String] = []
        if short {
            // The time and what PLAY does.
            if let clock = model.clock { parts.append("\(clock.text).") }
            if let play = playSentence(model) { parts.append(play) }
            return parts.joined(separator: " ")
        }
        if let clock = model.clock {
            parts.append("\(clock.text), \(clock.dateText).")
            parts.append(model.todayMinutes > 0 ? "\(InterfaceText.spokenMinutes(model.todayMinutes)) practised today."
                                                : "No practice yet today.")
            if let reminder = model.nextReminder { parts.append("Reminder at \(reminder).") }
        } else {
            parts.append("The clock is not set yet.")
        }
        if let play = playSentence(model) { parts.append(play) }
        parts.append("Turn the knob for the library.")
        return parts.joined(separator: " ")
    }

    // MARK: The knob

    private mutating func moveFocus(_ steps: Int, _ model: InterfaceModel) -> [InterfaceEffect] {
        if showsResumeOffer(model), let offer = model.player.resumeOffer {
            return say(resumeOfferText(offer, model), model)
        }
        if var edit = editing, screen == .settings {
            edit.value = Self.adjusted(edit.row, edit.value, by: steps)
            editing = edit
            return say(SettingsText.adjustedText(edit.row, edit.value), model)
        }
        if let minutes = timerMinutesEdit, screen == .timerSetup {
            let next = TimerText.minutes(minutes + steps)
            timerMinutesEdit = next
            return next == minutes ? [] : say(InterfaceText.spokenMinutes(next), model)
        }
        let items = focusItems(on: screen, model: model)
        guard !items.isEmpty else { return [] }
        let current = focus(model)
        let index = items.firstIndex { $0.key == current } ?? 0
        let next = min(items.count - 1, max(0, index + steps))
        stack[stack.count - 1].focus = items[next].key
        return next == index ? [] : say(items[next].label, short: items[next].brief, model)
    }

    static func adjusted(_ row: SettingRow, _ value: Int, by steps: Int) -> Int {
        if row == .reminder {
            // Off sits before 00:00; the times wrap round the day after that.
            let slots = 1440 / reminderStep
            let slot = value < 0 ? -1 : value / reminderStep
            var next = slot + steps
            if next < -1 { next = slots - 1 }
            if next >= slots { next = -1 }
            return next < 0 ? -1 : next * reminderStep
        }
        return min(100, max(0, (value / volumeStep + steps) * volumeStep))
    }

    private mutating func scroll(_ steps: Int, _ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        if screen == .transcript, let transcript = model.transcript, !transcript.cues.isEmpty {
            // A detent is a page: a cue that fits the screen, or one page of a long one.
            let pages = model.transcriptPages
            let current = Self.currentPlace(transcript, pages, model.player, now: now) ?? TranscriptPlace(cue: 0)
            let anchor = pages.place(transcriptAnchor ?? current, movedBy: steps, in: transcript)
            if anchor == current {
                transcriptAnchor = nil
                return say("Following the recording.", model)
            }
            transcriptAnchor = anchor
            return say(pages.text(at: anchor, in: transcript), model)
        }
        return moveFocus(steps, model)
    }

    /// The page being spoken: the current cue, and the page of it the recording has reached.
    static func currentPlace(_ transcript: Transcript, _ pages: TranscriptPages, _ player: InterfaceModel.PlayerInfo,
                             now: MonotonicInstant) -> TranscriptPlace? {
        guard let cue = currentCue(transcript, player, now: now) else { return nil }
        return TranscriptPlace(cue: cue, page: pages.page(ofCue: cue, in: transcript, atSeconds: player.position(at: now)))
    }

    /// The cue being spoken (or the last one before the position).
    static func currentCue(_ transcript: Transcript, _ player: InterfaceModel.PlayerInfo, now: MonotonicInstant) -> Int? {
        let position = player.position(at: now)
        var last: Int?
        for (index, cue) in transcript.cues.enumerated() where cue.start.seconds <= position { last = index }
        return last
    }

    private func canSeek(_ player: InterfaceModel.PlayerInfo) -> Bool {
        player.hasSession && (player.phase == .playing || player.phase == .paused) && player.lengthSeconds > 0
    }

    private mutating func previewSeek(_ seconds: Int, _ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let player = model.player
        guard screen == .player, canSeek(player) else {
            return say(player.hasSession ? "Wait a moment." : "Nothing is playing.", model)
        }
        let from = seekPreview?.fromSeconds ?? player.position(at: now)
        let start = seekPreview?.targetSeconds ?? from
        // Never to the last second: seeking alone never finishes a session (playback policy).
        let target = min(max(0, player.lengthSeconds - 1), max(0, start + Double(seconds)))
        let commitAt = now + Self.seekRest
        if seekPreview == nil {
            lastTickAt = nil
            lastSeekSpokenAt = nil
        }
        seekPreview = SeekPreview(fromSeconds: from, targetSeconds: target, commitAt: commitAt)
        var effects: [InterfaceEffect] = [.scheduleTimer(.seekCommit, at: commitAt)]
        guard model.settings.spokenLabels else { return effects }
        // By ear: a tick for each step, and the target said — at most once a second, so a fast turn
        // ticks along without babbling; where it rests is said when the seek commits.
        if lastTickAt.map({ now - $0 >= Self.tickInterval }) ?? true {
            lastTickAt = now
            effects.append(.cue(.tick))
        }
        if lastSeekSpokenAt.map({ now - $0 >= Self.seekSpeechInterval }) ?? true {
            lastSeekSpokenAt = now
            effects += say(InterfaceText.spokenPosition(target), short: InterfaceText.spokenPositionShort(target), model)
        }
        return effects
    }

    private mutating func commitSeek(_ model: InterfaceModel) -> [InterfaceEffect] {
        guard let preview = seekPreview else { return [] }
        seekPreview = nil
        return [.cancelTimer(.seekCommit), .seek(toSeconds: preview.targetSeconds)]
            + say("Moved to \(InterfaceText.spokenPosition(preview.targetSeconds)).",
                  short: "Moved to \(InterfaceText.spokenPositionShort(preview.targetSeconds)).", model)
    }

    private mutating func toggleTranscript(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        if seekPreview != nil { return commitSeek(model) }
        if screen == .transcript {
            stack.removeLast()
            transcriptAnchor = nil
            return say(screenAnnouncement(model), model)
        }
        guard screen == .player else { return [] }
        guard model.player.hasSession, model.transcript != nil else {
            return say("This session has no transcript.", model)
        }
        transcriptAnchor = nil
        stack.append(Page(.transcript))
        return say("Transcript.", model)
    }

    // MARK: Select

    private mutating func select(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        if showsResumeOffer(model) { return acceptResume(model) }
        let focused = focus(model)
        switch (screen, focused) {
        case (.library, .filter?):
            filter = filter.next
            let count = Self.librarySessions(model, filter: filter).count
            return say("Showing \(InterfaceText.filterName(filter).lowercased()), \(count == 1 ? "1 session" : "\(count) sessions").", model)
        case (_, .notice(let id)?):
            return open(.notice(id: id), model)
        case (_, .session(let id)?):
            return open(.detail(sessionID: id), model)
        case (_, .historyLink?):
            return open(.history, model)
        case (_, .settingsLink?):
            return open(.settings, model)
        case (.detail(let id), .action(let action)?):
            return perform(action, sessionID: id, model, now: now)
        case (.history, .deleteHistory?):
            return open(.confirm(.deleteAllHistory), model)
        case (.settings, .setting(let row)?):
            return chooseSetting(row, model, now: now)
        case (.confirm, .keep?):
            stack.removeLast()
            return say("Kept. " + screenAnnouncement(model), model)
        case (.confirm(let question), .confirm?):
            stack.removeLast()
            switch question {
            case .deleteAllHistory: return [.deleteHistory(.all)] + say("Practice history deleted.", model)
            case .deleteRun(let id, _): return [.deleteHistory(.run(id: id))] + say("Entry deleted.", model)
            case .removeDownload(let id): return [.removeDownload(sessionID: id)] + say("Removed from this box.", model)
            }
        case (.notice(let id), .dismiss?):
            stack.removeLast()
            return [.dismissNotice(id: id)] + say("Dismissed.", model)
        case (_, .timerLink?):
            return open(.timerSetup, model)
        case (.timerSetup, .timerStart?):
            return startTimer(model)
        case (.timerSetup, .timerLength?):
            if let minutes = timerMinutesEdit {
                timerMinutesEdit = nil
                return [.changeSetting(key: "timer-minutes", value: String(minutes))]
                    + say("Length \(InterfaceText.spokenMinutes(minutes)).", model)
            }
            let next = TimerText.nextPreset(after: model.settings.timerMinutes)
            return [.changeSetting(key: "timer-minutes", value: String(next))] + say("Length \(InterfaceText.spokenMinutes(next)).", model)
        case (.timerSetup, .timerPattern?):
            let next = TimerText.nextPattern(after: TimerText.patternName(model.settings.timerPattern))
            return [.changeSetting(key: "timer-pattern", value: next)]
                + say("Pattern: \(TimerText.spokenRhythm(next)). \(TimerText.purpose(next))", model)
        case (.breathingTimer, _):
            guard let timer = model.breathingTimer else { return [] }
            return say(TimerText.spokenLeft(timer, now: now), model)
        default:
            // Reading stops and the history's summaries: say them again.
            if let item = focusItems(on: screen, model: model).first(where: { $0.key == focused }) {
                return say(item.label, short: item.brief, model)
            }
            return []
        }
    }

    private mutating func open(_ screen: Screen, _ model: InterfaceModel) -> [InterfaceEffect] {
        stack.append(Page(screen))
        return say(screenAnnouncement(model), model)
    }

    private mutating func perform(_ action: SessionAction, sessionID id: String, _ model: InterfaceModel,
                                  now: MonotonicInstant) -> [InterfaceEffect] {
        guard let session = model.session(id) else { return [] }
        switch action {
        case .play:
            return start(session, model)
        case .resume:
            showPlayer()
            return [.toggle] + say("Playing \(session.title).", model)
        case .pause:
            return [.toggle] + say("Paused \(InterfaceText.spokenWhere(model.player, now: now)).", model)
        case .download, .retryDownload:
            return [.startDownload(sessionID: id)] + say("Downloading \(session.title).", model)
        case .cancelDownload:
            return [.cancelDownload(sessionID: id)] + say("Download cancelled.", model)
        case .favourite:
            return setFavourite(session, model)
        case .removeDownload:
            return open(.confirm(.removeDownload(sessionID: id)), model)
        case .stop:
            stack[stack.count - 1].focus = nil
            return [.stop] + say("Stopped.", model)
        }
    }

    private func setFavourite(_ session: InterfaceModel.SessionItem, _ model: InterfaceModel) -> [InterfaceEffect] {
        [.setFavourite(sessionID: session.id, !session.isFavourite)]
            + say(session.isFavourite ? "Removed from favourites." : "Added to favourites.", model)
    }

    private mutating func chooseSetting(_ row: SettingRow, _ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let settings = model.settings
        if let edit = editing {
            editing = nil
            if edit.row == .reminder {
                let enabled = edit.value >= 0
                return [.setReminder(enabled: enabled, minuteOfDay: enabled ? edit.value : (model.reminder?.minuteOfDay ?? 21 * 60))]
                    + say(enabled ? "Reminder daily at \(Settings.clock(edit.value))." : "Reminder off.", model)
            }
            guard let key = edit.row.key else { return [] }
            return [.changeSetting(key: key, value: String(edit.value))] + say("\(SettingsText.title(edit.row)) \(edit.value) percent.", model)
        }
        func change(_ value: String, _ spoken: String) -> [InterfaceEffect] {
            [.changeSetting(key: row.key!, value: value)] + say(spoken, model)
        }
        switch row {
        case .textSize:
            let all = Settings.TextSize.allCases
            let next = all[(all.firstIndex(of: settings.textSize)! + 1) % all.count]
            return change(next.rawValue, "Text size \(next.rawValue).")
        case .reduceMotion:
            return change(settings.reduceMotion ? "off" : "on", "Reduce motion \(settings.reduceMotion ? "off" : "on").")
        case .nightDisplay:
            let next: Settings.NightMode = switch settings.nightMode {
            case .auto: .on
            case .on: .off
            case .off: .auto
            }
            let spoken = next == .auto ? "Night display by the clock." : next == .on ? "Night display always." : "Night display never."
            return change(next.rawValue, spoken)
        case .spokenLabels:
            // Said even when turning them off, so the change is heard.
            let on = !settings.spokenLabels
            return [.changeSetting(key: "spoken-labels", value: on ? "on" : "off"),
                    .announce(on ? "Spoken labels on." : "Spoken labels off.")]
        case .spokenDetail:
            let next: Settings.Verbosity = settings.verbosity == .full ? .short : .full
            return change(next.rawValue, next == .full ? "Full labels: names, details and what to do." : "Short labels.")
        case .keyDescriber:
            return startDescriber(now: now)
        case .showStreak:
            return change(settings.showStreak ? "off" : "on", "Days in a row \(settings.showStreak ? "hidden" : "shown").")
        case .volume, .headphonesCap, .speakerCap, .nightCap:
            let value: Int = switch row {
            case .volume: settings.volume
            case .headphonesCap: settings.headphonesCap
            case .speakerCap: settings.speakerCap
            default: settings.nightCap
            }
            editing = SettingEdit(row: row, value: value)
            return say("\(SettingsText.title(row)) \(value) percent. Turn to change, press to keep.", model)
        case .reminder:
            let current = model.reminder.flatMap { $0.enabled ? $0.minuteOfDay / Self.reminderStep * Self.reminderStep : nil }
            editing = SettingEdit(row: .reminder, value: current ?? 21 * 60)
            return say("Reminder. Turn to choose a time, press to keep.", model)
        case .downloads:
            return open(.downloads, model)
        case .deleteHistory:
            guard !model.history.isEmpty else { return say("There is no practice history to delete.", model) }
            return open(.confirm(.deleteAllHistory), model)
        }
    }

    // MARK: Hold the knob

    private mutating func contextAction(_ model: InterfaceModel) -> [InterfaceEffect] {
        switch (screen, focus(model)) {
        case (.library, .session(let id)?), (.downloads, .session(let id)?):
            guard let session = model.session(id) else { return [] }
            return setFavourite(session, model)
        case (.detail(let id), _):
            guard let session = model.session(id) else { return [] }
            return setFavourite(session, model)
        case (.transcript, _):
            // Read the transcript aloud from the line in view (the recording pauses: one voice at a time).
            guard let transcript = model.transcript, !transcript.cues.isEmpty else { return [] }
            let from = transcriptAnchor?.cue ?? Self.currentCue(transcript, model.player, now: model.player.positionAt ?? .zero) ?? 0
            return [.readTranscript(fromCue: from)]
        case (.player, _):
            guard let session = model.session(model.player.sessionID) else { return [] }
            return setFavourite(session, model)
        case (.history, .run(let id)?):
            guard let run = model.history.recent.first(where: { $0.runID == id }) else {
                return say("This entry is still being written.", model)
            }
            return open(.confirm(.deleteRun(id: id, sessionID: run.sessionID)), model)
        case (.library, .notice(let id)?):
            return [.dismissNotice(id: id)] + say("Dismissed.", model)
        case (.timerSetup, .timerLength?):
            // Any length: turn one minute a detent, press to keep, BACK to cancel.
            guard timerMinutesEdit == nil else { return [] }
            timerMinutesEdit = TimerText.minutes(model.settings.timerMinutes)
            return say("Length. Turn for 1 to 60 minutes, press to keep.", model)
        default:
            return []
        }
    }

    // MARK: The breathing timer

    /// Starts the timer chosen on the set-up screen (a length being chosen is kept first) and shows it
    /// over the screen it was started from.
    private mutating func startTimer(_ model: InterfaceModel) -> [InterfaceEffect] {
        var effects = [InterfaceEffect]()
        let minutes = TimerText.minutes(timerMinutesEdit ?? model.settings.timerMinutes)
        if timerMinutesEdit != nil { effects.append(.changeSetting(key: "timer-minutes", value: String(minutes))) }
        effects += closeTransient()
        if screen == .idle { stack.removeLast() }
        let pattern = TimerText.patternName(model.settings.timerPattern)
        effects.append(.startBreathingTimer(patternName: pattern, minutes: minutes))
        stack.append(Page(.breathingTimer))
        return effects + say("Breathing timer, \(InterfaceText.spokenMinutes(minutes)): \(TimerText.spokenRhythm(pattern)). "
            + "PLAY or BACK stops it.", model)
    }

    /// Stops the running timer and returns to the screen it was started from.
    private mutating func stopTimer(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let minutes = model.breathingTimer.map { Int($0.elapsedSeconds(at: now) / 60) } ?? 0
        stack.removeAll { $0.screen == .breathingTimer }
        if stack.isEmpty { stack = [Page(.library)] }
        var effects: [InterfaceEffect] = [.stopBreathingTimer]
        if power != .on && screen != .idle { stack.append(Page(.idle)) } // stopped in the dark: as the dark timer leaves it
        effects += say("Timer stopped" + (minutes > 0 ? " after \(InterfaceText.spokenMinutes(minutes))." : ".")
            + (power == .on ? " " + screenAnnouncement(model) : ""), model)
        return effects
    }

    /// Follows a timer started or ended by someone else (the CLI, or its own end): its screen comes up
    /// over whatever shows, and goes when it ends, back to where it was started from.
    private mutating func followTimer(_ model: InterfaceModel, wasShowing: Bool, now: MonotonicInstant) -> [InterfaceEffect] {
        let timer = model.breathingTimer
        guard timer != lastTimer else { return [] }
        defer { lastTimer = timer }
        var effects: [InterfaceEffect] = []
        if let timer {
            if screen != .breathingTimer {
                effects += closeTransient()
                if screen == .idle { stack.removeLast() }
                stack.append(Page(.breathingTimer))
                effects += say("Breathing timer, \(InterfaceText.spokenMinutes(Int(timer.length.seconds / 60))): "
                    + "\(TimerText.spokenRhythm(timer.patternName)).", model)
            }
        } else if let last = lastTimer {
            if last.isFinished(at: now) {
                effects += say("Breathing timer finished.", model)
            } else if wasShowing {
                effects += say("Breathing timer stopped.", model)
            }
            // Ended with the screen dim or dark: the resting face, as the dim timer would have shown.
            if power != .on && !model.player.isPlaying && screen != .idle { stack.append(Page(.idle)) }
        }
        return effects
    }

    // MARK: Speech

    func say(_ text: String, _ model: InterfaceModel) -> [InterfaceEffect] {
        model.settings.spokenLabels && !text.isEmpty ? [.speak(text)] : []
    }

    /// Says `text`, or `short` when the owner chose short labels (Settings → Spoken detail).
    func say(_ text: String, short: String, _ model: InterfaceModel) -> [InterfaceEffect] {
        say(model.settings.verbosity == .short ? short : text, model)
    }
}
