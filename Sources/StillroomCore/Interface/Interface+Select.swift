// Selecting the focused item, and holding the knob for a screen's context action.

extension Interface {
    mutating func select(_ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
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

    mutating func open(_ screen: Screen, _ model: InterfaceModel) -> [InterfaceEffect] {
        stack.append(Page(screen))
        return say(screenAnnouncement(model), model)
    }

    mutating func perform(_ action: SessionAction, sessionID id: String, _ model: InterfaceModel,
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

    func setFavourite(_ session: InterfaceModel.SessionItem, _ model: InterfaceModel) -> [InterfaceEffect] {
        [.setFavourite(sessionID: session.id, !session.isFavourite)]
            + say(session.isFavourite ? "Removed from favourites." : "Added to favourites.", model)
    }

    mutating func chooseSetting(_ row: SettingRow, _ model: InterfaceModel, now: MonotonicInstant) -> [InterfaceEffect] {
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

    mutating func contextAction(_ model: InterfaceModel) -> [InterfaceEffect] {
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
}
