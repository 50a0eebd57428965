// PLAY and BACK, and what the interface says about where the person is.

extension Interface {
    /// PLAY pressed: what `playIntent` says it does (PlayIntent.swift), done and said.
    mutating func playPause(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        let player = model.player
        switch playIntent(model) {
        case .stopBreathingTimer: return stopTimer(model, now: now)
        case .acceptResume: return acceptResume(model)
        case .startBreathingTimer: return startTimer(model)
        case .playFromPreview(let seconds, let resume):
            seekPreview = nil
            return [.cancelTimer(.seekCommit), .seek(toSeconds: seconds)] + (resume ? [.toggle] : [])
                + say("Playing from \(InterfaceText.spokenPosition(seconds)).", model)
        case .start(let session, _): return start(session, model)
        case .download(let session): return [.startDownload(sessionID: session.id)] + say("Downloading \(session.title).", model)
        case .again(let id):
            if let session = model.session(id), session.isPlayable { return start(session, model) }
            return [.play(sessionID: id)]
        case .pause:
            return [.toggle] + say("Paused \(InterfaceText.spokenWhere(player, now: now)).",
                                   short: "Paused at \(InterfaceText.spokenPositionShort(player.position(at: now))).", model)
        case .resume: return [.toggle] + say("Playing \(player.title).", model)
        case .nothing: return say("There is no session on this box to play.", model)
        }
    }

    /// Starts `session` from its beginning and shows the player.
    mutating func start(_ session: InterfaceModel.SessionItem, _ model: InterfaceModel) -> [InterfaceEffect] {
        var effects = closeTransient()
        effects.append(.play(sessionID: session.id))
        showPlayer()
        return effects + say("Playing \(session.title).", model)
    }

    /// Whether a session was under way in `phase` (so a change to playing is a resume, not a start).
    static func hadSession(_ phase: PlayerPhase) -> Bool {
        switch phase {
        case .loading, .playing, .paused: return true
        case .idle, .ended, .failed: return false
        }
    }

    mutating func showPlayer() {
        if screen == .idle { stack.removeLast() }
        if screen == .player || screen == .transcript { return }
        if case .confirm = screen { stack.removeLast() }
        stack.append(Page(.player))
    }

    mutating func acceptResume(_ model: InterfaceModel) -> [InterfaceEffect] {
        guard let offer = model.player.resumeOffer else { return [] }
        showPlayer()
        return [.acceptResume] + say("Resuming \(offer.title) at \(InterfaceText.spokenPosition(offer.position.seconds)).", model)
    }

    // MARK: BACK and home

    mutating func back(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
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

    mutating func goHome(_ model: InterfaceModel) -> [InterfaceEffect] {
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

    /// What PLAY would do from the clock face, as a sentence (`playIntent`: what the press does).
    func playSentence(_ model: InterfaceModel) -> String? {
        let title = model.player.title
        switch playIntent(model) {
        case .acceptResume(let offer): return "PLAY resumes \(offer.title)."
        case .pause: return "PLAY pauses \(title)."
        case .resume: return "PLAY resumes \(title)."
        case .again: return "PLAY plays \(title) again."
        case .start(let session, _): return "PLAY plays \(session.title)."
        case .startBreathingTimer: return "PLAY starts the breathing timer."
        case .stopBreathingTimer: return "PLAY stops the breathing timer."
        case .playFromPreview, .download, .nothing: return nil
        }
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
}
