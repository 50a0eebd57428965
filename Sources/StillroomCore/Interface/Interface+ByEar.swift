// Using the box by ear: the held gestures (spoken labels, the key describer, the guide), the key
// describer itself, and notices said once at a sensible moment. docs/accessibility.md.

extension Interface {
    // MARK: Gestures

    /// A held gesture completed (ChordDetector). Gestures work on every screen, dark or lit, and with the
    /// key describer on; what they say is said even with spoken labels off (someone asked).
    public mutating func handle(gesture: Gesture, model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        switch gesture {
        case .spokenLabels:
            let on = !model.settings.spokenLabels
            return [.changeSetting(key: "spoken-labels", value: on ? "on" : "off"),
                    .announce(on ? "Spoken labels on." : "Spoken labels off.")]
        case .keyDescriber:
            return isDescribing ? stopDescriber("Key describer off. The controls work again.", model: model, now: now) : startDescriber(now: now)
        case .guide:
            var effects: [InterfaceEffect] = [.readAloud(Guide.sentences(Guide.page(self, model)))]
            if isDescribing { // the guide is a touch too: the describer's minute starts again
                describerTouchedAt = now
                effects.insert(.scheduleTimer(.describer, at: now + Self.describerTimeout), at: 0)
            }
            return effects
        }
    }

    // MARK: The key describer

    mutating func startDescriber(now: MonotonicInstant) -> [InterfaceEffect] {
        describerTouchedAt = now
        return [.scheduleTimer(.describer, at: now + Self.describerTimeout),
                .announce("Key describer on. Each control now says what it does here, and does nothing else. "
                    + "Hold BACK and PLAY for 2 seconds to turn it off; it turns itself off after a minute without a touch.")]
    }

    /// The describer's end counts as a touch for the dimming, which waited while it was on.
    mutating func stopDescriber(_ text: String, model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        describerTouchedAt = nil
        return [.cancelTimer(.describer), .announce(text)] + (power == .on ? scheduleDimming(model, now: now) : [])
    }

    /// With the key describer on: says what `action` would do here, now, and does nothing else (the screen
    /// stays as it is, dark or lit; the minute starts again).
    mutating func describe(_ action: ControlAction, model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
        describerTouchedAt = now
        return [.scheduleTimer(.describer, at: now + Self.describerTimeout),
                .announce(description(of: action, model: model, now: now))]
    }

    /// "PLAY: pauses Steady breath.", "Turn: seeks; now at 2 minutes 10.", "BACK: back to the library." Worked
    /// out by doing the action on a copy of the interface and reading what it would change, so the
    /// description cannot disagree with what the control does.
    public func description(of action: ControlAction, model: InterfaceModel, now: MonotonicInstant) -> String {
        var probe = self
        probe.describerTouchedAt = nil
        var heard = model
        heard.settings.spokenLabels = true
        heard.settings.verbosity = .short
        let effects = probe.handle(action, model: heard, now: now)
        var what = outcome(of: action, effects: effects, after: probe, model: model, now: now)
        if isDark && action != .playPause && action != .acceptResume {
            what += "; in the dark, the first touch only lights the screen"
        }
        return "\(Self.controlName(action)): \(what)."
    }

    /// The control that makes `action`, as the guide names it.
    static func controlName(_ action: ControlAction) -> String {
        switch action {
        case .playPause: return "PLAY"
        case .acceptResume: return "PLAY, or the knob's press"
        case .back, .dismissResume, .wake: return "BACK"
        case .home: return "BACK, held and let go"
        case .focus, .scroll, .seekPreview: return "Turn"
        case .select, .toggleTranscript: return "The knob's press"
        case .contextAction: return "The knob, held"
        case .headphones: return "Headphones"
        case .quit: return "Quit"
        }
    }

    private func title(_ id: String?, _ model: InterfaceModel) -> String {
        if let id, let session = model.session(id) { return session.title }
        return model.player.title.isEmpty ? "the session" : model.player.title
    }

    /// What `effects` (and the screens after them) would do, in a few words.
    private func outcome(of action: ControlAction, effects: [InterfaceEffect], after probe: Interface,
                         model: InterfaceModel, now: MonotonicInstant) -> String {
        var parts: [String] = []
        var plays = false
        let seeks = effects.contains { if case .seek = $0 { true } else { false } }
        for effect in effects {
            switch effect {
            case .play(let id):
                parts.append("plays \(title(id, model))")
                plays = true
            case .toggle:
                if seeks { break }
                parts.append(model.player.isPlaying ? "pauses \(title(nil, model))" : "plays \(title(nil, model))")
                plays = true
            case .seek(let seconds):
                let place = InterfaceText.spokenPositionShort(seconds)
                parts.append(effects.contains(.toggle) ? "plays from \(place)" : "moves to \(place) now")
                plays = true
            case .acceptResume:
                if let offer = model.player.resumeOffer {
                    parts.append("resumes \(offer.title) at \(InterfaceText.spokenPositionShort(offer.position.seconds))")
                }
                plays = true
            case .dismissResume:
                parts.append("says not now to resuming \(model.player.resumeOffer?.title ?? "the session")")
            case .stop: parts.append("stops listening to \(title(nil, model))")
            case .startDownload(let id): parts.append("downloads \(title(id, model))")
            case .cancelDownload(let id): parts.append("cancels downloading \(title(id, model))")
            case .removeDownload(let id): parts.append("removes \(title(id, model)) from this box")
            case .setFavourite(let id, let on):
                parts.append(on ? "adds \(title(id, model)) to favourites" : "takes \(title(id, model)) out of favourites")
            case .changeSetting(let key, let value):
                let name = SettingRow.allCases.first { $0.key == key }.map { SettingsText.title($0).lowercased() } ?? key
                parts.append("sets \(name) to \(value)")
            case .setReminder(let enabled, let minute):
                parts.append(enabled ? "keeps the reminder, daily at \(Settings.clock(minute))" : "turns the reminder off")
            case .deleteHistory(.all): parts.append("deletes all practice history")
            case .deleteHistory(.run): parts.append("deletes this entry from the history")
            case .dismissNotice: parts.append("dismisses this notice")
            case .readTranscript: parts.append("reads the transcript aloud from the page in view")
            case .startBreathingTimer(_, let minutes):
                parts.append("starts the breathing timer, \(InterfaceText.spokenMinutes(minutes))")
            case .stopBreathingTimer: parts.append("stops the breathing timer")
            case .scheduleTimer(.seekCommit, _) where action != .playPause:
                let current = seekPreview?.targetSeconds ?? model.player.position(at: now)
                parts.append("seeks, 15 seconds a click, further when turned faster; now at \(InterfaceText.spokenPositionShort(current))")
            case .cancelTimer(.seekCommit) where seekPreview != nil && !seeks:
                parts.append("cancels the seek")
            default: break
            }
        }
        // Where the screens go (after playing, the player opening goes without saying).
        let before = stack.map(\.screen), after = probe.stack.map(\.screen)
        if after != before {
            let name = Self.screenName(probe.screen, model)
            if action == .home {
                parts.append("home to the library")
            } else if after.count < before.count && Array(before.prefix(after.count)) == after {
                parts.append("back to \(name)")
            } else if !(plays && probe.screen == .player) {
                parts.append("opens \(name)")
            }
        } else if probe.filter != filter {
            parts.append("shows \(InterfaceText.filterName(probe.filter).lowercased()) sessions")
        } else if probe.editing != editing {
            if let edit = probe.editing {
                if editing == nil {
                    parts.append("changes \(SettingsText.title(edit.row).lowercased()): turn to choose, press to keep")
                } else {
                    parts.append("changes \(SettingsText.title(edit.row).lowercased()); now \(SettingsText.adjustedText(edit.row, editing!.value))")
                }
            } else if editing != nil && parts.isEmpty {
                parts.append("leaves it unchanged")
            }
        } else if probe.timerMinutesEdit != timerMinutesEdit {
            parts.append(timerMinutesEdit == nil ? "chooses any length: turn, then press to keep" : "changes the length")
        } else if probe.focus(model) != focus(model) || isList(action) {
            let here = focusItems(on: screen, model: model).first { $0.key == focus(model) }?.brief
            switch action {
            case .scroll where screen == .transcript: parts.append("turns the transcript's pages")
            default: parts.append("moves through this screen" + (here.map { "; now on \($0.dropLast())" } ?? ""))
            }
        }
        if parts.isEmpty, case .scroll = action, screen == .transcript { parts.append("turns the transcript's pages") }
        if parts.isEmpty {
            // Nothing changes: what it says is what it does ("the time left", a sentence read again).
            let said = effects.compactMap { if case .speak(let text) = $0 { text } else { nil } }
            if let text = said.last { parts.append("says \(text.hasSuffix(".") ? String(text.dropLast()) : text)") }
        }
        return parts.isEmpty ? "does nothing here" : parts.joined(separator: ", and ")
    }

    private func isList(_ action: ControlAction) -> Bool {
        switch action {
        case .focus, .scroll: return true
        default: return false
        }
    }

    /// A screen's name, as the describer says it.
    static func screenName(_ screen: Screen, _ model: InterfaceModel) -> String {
        switch screen {
        case .library: return "the library"
        case .detail(let id): return model.session(id)?.title ?? "the session's page"
        case .player: return "the player"
        case .transcript: return "the transcript"
        case .history: return "practice history"
        case .settings: return "settings"
        case .downloads: return "downloads"
        case .confirm: return "the question"
        case .notice: return "the notice"
        case .idle: return "the clock"
        case .timerSetup: return "the breathing timer's set-up"
        case .breathingTimer: return "the breathing timer"
        }
    }

    // MARK: Notices, said once at a sensible moment

    /// "Resume Steady breath at 2 minutes 10 seconds? PLAY resumes, BACK says not now."
    func resumeOfferText(_ offer: ResumeOffer, _ model: InterfaceModel) -> String {
        model.settings.verbosity == .short
            ? "Resume \(offer.title)? PLAY resumes."
            : "Resume \(offer.title) at \(InterfaceText.spokenPosition(offer.position.seconds))? PLAY resumes, BACK says not now."
    }

    /// A notice as the voice says it: full labels read the whole card (what happened, what to do); short
    /// ones its heading.
    func noticeAnnouncement(_ notice: InterfaceModel.Notice, _ model: InterfaceModel) -> String {
        let heading = "Notice: \(InterfaceText.noticeHeading(notice.kind))."
        guard model.settings.verbosity == .full else { return heading }
        let message = notice.message.trimmingWhitespace
        let ending = message.hasSuffix(".") || message.hasSuffix("!") || message.hasSuffix("?") ? "" : "."
        return "\(heading) \(message)\(ending) What to do: \(InterfaceText.noticeAdvice(notice.kind))"
    }

    /// New notices are said once, with spoken labels on: at once when no recording plays; otherwise held
    /// back and said when it pauses or ends, after whatever that change says. A notice dismissed before
    /// its moment is not said.
    mutating func announceNotices(_ model: InterfaceModel) -> [InterfaceEffect] {
        let fresh = model.notices.map(\.id).filter { !lastNoticeIDs.contains($0) }
        lastNoticeIDs = model.notices.map(\.id)
        guard model.settings.spokenLabels else {
            queuedNoticeIDs = []
            return []
        }
        queuedNoticeIDs += fresh
        let narrating = model.player.phase == .playing || model.player.phase == .loading
        guard !narrating, !queuedNoticeIDs.isEmpty else { return [] }
        let texts = queuedNoticeIDs.compactMap { id in model.notices.first { $0.id == id } }.map { noticeAnnouncement($0, model) }
        queuedNoticeIDs = []
        return texts.isEmpty ? [] : [.speakAfter(texts.joined(separator: " "))]
    }
}
