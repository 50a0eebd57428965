// PLAY and BACK, and what the interface says about where the person is.

extension Interface {
    mutating func playPause(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
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
}
