// The focus stops of each screen, in knob order, with what the voice says for each. The state machine
// moves the focus through this list and the scene draws the same list, so the two cannot disagree.

/// A thing the knob can land on, and its spoken label.
public struct FocusItem: Equatable, Sendable {
    public var key: FocusKey
    /// What the voice says when the focus lands here (never empty).
    public var label: String

    public init(_ key: FocusKey, _ label: String) {
        self.key = key
        self.label = label
    }

    /// The label with short labels on (Settings → Spoken detail): its first sentence — the name, without
    /// the details and the hint.
    public var brief: String { InterfaceText.firstSentence(label) }
}

extension Interface {
    /// The sessions the library shows under `filter` (every session for `.all`).
    public static func librarySessions(_ model: InterfaceModel, filter: LibraryFilter) -> [InterfaceModel.SessionItem] {
        model.sessions.filter { filter.admits($0) }
    }

    /// When the filter leaves the library empty, the bundled session it still offers.
    static func offeredSession(_ model: InterfaceModel, filter: LibraryFilter) -> InterfaceModel.SessionItem? {
        guard librarySessions(model, filter: filter).isEmpty else { return nil }
        return model.sessionToStart(preferring: nil)
    }

    /// The buttons on a session's page, in order.
    static func sessionActions(_ session: InterfaceModel.SessionItem, player: InterfaceModel.PlayerInfo) -> [SessionAction] {
        var actions: [SessionAction] = []
        let isCurrent = player.hasSession && player.sessionID == session.id
        if isCurrent && player.phase == .playing {
            actions.append(.pause)
        } else if isCurrent && (player.phase == .paused || player.phase == .loading) {
            actions.append(.resume)
        } else if session.isPlayable {
            actions.append(.play)
        }
        if let status = session.download, !session.isBundled {
            if status.canCancel {
                actions.append(.cancelDownload)
            } else if status.state == .failed {
                actions.append(.retryDownload)
            } else if status.canDownload && !status.isPlayableOffline {
                actions.append(.download)
            }
        }
        actions.append(.favourite)
        if isCurrent { actions.append(.stop) }
        if !session.isBundled, let status = session.download, status.isPlayableOffline, !status.canCancel {
            actions.append(.removeDownload)
        }
        return actions
    }

    static func actionTitle(_ action: SessionAction, _ session: InterfaceModel.SessionItem) -> String {
        switch action {
        case .play: return "Play"
        case .resume: return "Resume"
        case .pause: return "Pause"
        case .download:
            let bytes = session.download?.bytesTotal ?? session.downloadBytes
            return bytes.map { "Download (\(ByteCountText.text($0)))" } ?? "Download"
        case .cancelDownload: return "Cancel download"
        case .retryDownload: return "Retry download"
        case .favourite: return session.isFavourite ? "Remove from favourites" : "Add to favourites"
        case .removeDownload: return "Remove from this box"
        case .stop: return "Stop listening"
        }
    }

    /// What went wrong with a session's download and what to do, as reading stops under its title.
    static func detailProblems(_ session: InterfaceModel.SessionItem) -> [String] {
        guard !session.isBundled, let status = session.download, let failure = status.failure else { return [] }
        if status.state == .failed { return [failure.reason, "What to do: " + failure.advice] }
        if status.state == .downloading && status.retryAt != nil { return ["\(failure.reason) Trying again soon."] }
        return []
    }

    /// The reading stops of a session's page: its description, sentence by sentence, and the licence.
    static func detailReading(_ session: InterfaceModel.SessionItem) -> [String] {
        InterfaceText.sentences(session.description) + ["Licence: \(session.licenceLine)"]
    }

    /// The reading stops of a notice: its message and what to do, sentence by sentence.
    static func noticeReading(_ notice: InterfaceModel.Notice) -> [String] {
        InterfaceText.sentences(notice.message) + InterfaceText.sentences("What to do: " + InterfaceText.noticeAdvice(notice.kind))
    }

    /// The focus stops of `screen`, in knob order.
    public func focusItems(on screen: Screen, model: InterfaceModel) -> [FocusItem] {
        Self.focusItems(on: screen, model: model, filter: filter, editing: editing, timerMinutesEdit: timerMinutesEdit)
    }

    /// Whether the library shows the breathing timer's card under `filter`: with every session, and
    /// with the breathing ones.
    static func showsTimerCard(_ filter: LibraryFilter) -> Bool { filter == .all || filter == .breathe }

    static func focusItems(on screen: Screen, model: InterfaceModel, filter: LibraryFilter, editing: SettingEdit?,
                           timerMinutesEdit: Int? = nil) -> [FocusItem] {
        switch screen {
        case .library:
            var items = model.notices.map {
                FocusItem(.notice(id: $0.id), "Notice: \(InterfaceText.noticeHeading($0.kind)). Press the knob to read it.")
            }
            let shown = librarySessions(model, filter: filter)
            items.append(FocusItem(.filter, "Showing \(InterfaceText.filterName(filter).lowercased()), "
                + "\(shown.count == 1 ? "1 session" : "\(shown.count) sessions"). Press the knob for \(InterfaceText.filterName(filter.next).lowercased())."))
            for session in shown { items.append(FocusItem(.session(id: session.id), InterfaceText.sessionLabel(session))) }
            if let offered = offeredSession(model, filter: filter) {
                items.append(FocusItem(.session(id: offered.id), "Try this one: " + InterfaceText.sessionLabel(offered)))
            }
            if showsTimerCard(filter) {
                items.append(FocusItem(.timerLink, "Breathing timer, silent: \(TimerText.spokenChoice(model.settings)). "
                    + "Press the knob to set it up, or PLAY to start it."))
            }
            let month = model.history.totals.thisMonth?.wholeMinutes
            items.append(FocusItem(.historyLink, "Practice history" + (month.map { ". \(InterfaceText.spokenMinutes($0)) this month." } ?? ".")))
            items.append(FocusItem(.settingsLink, "Settings."))
            return items

        case .detail(let id):
            guard let session = model.session(id) else { return [] }
            // The first button shares its stop with the title: the page opens on it, and the knob's
            // press does it.
            // In the order on screen: the title with the first button, what went wrong, the other
            // buttons, the description and the licence.
            let actions = sessionActions(session, player: model.player)
            let problems = detailProblems(session)
            var items: [FocusItem] = []
            if let first = actions.first {
                items.append(FocusItem(.action(first), "\(session.title). \(InterfaceText.availability(session)). \(actionTitle(first, session))."))
            }
            for (index, line) in problems.enumerated() { items.append(FocusItem(.reading(-1 - index), line)) }
            for action in actions.dropFirst() { items.append(FocusItem(.action(action), actionTitle(action, session) + ".")) }
            for (index, sentence) in detailReading(session).enumerated() {
                items.append(FocusItem(.reading(index), sentence))
            }
            return items

        case .player, .transcript, .idle, .breathingTimer:
            return []

        case .timerSetup:
            let settings = model.settings
            let pattern = TimerText.patternName(settings.timerPattern)
            let minutes = TimerText.minutes(timerMinutesEdit ?? settings.timerMinutes)
            return [
                FocusItem(.timerStart, "Breathing timer. Start: \(TimerText.spokenChoice(settings))."),
                FocusItem(.timerLength, "Length: \(InterfaceText.spokenMinutes(minutes)). "
                    + (timerMinutesEdit == nil ? "Press for 3, 5 or 10 minutes; hold the knob for any length."
                                              : "Turn to change, press to keep.")),
                FocusItem(.timerPattern, "Pattern: \(TimerText.spokenRhythm(pattern)). \(TimerText.purpose(pattern)) Press for the next pattern."),
            ]

        case .history:
            var items: [FocusItem] = []
            if let month = model.history.month {
                items.append(FocusItem(.calendar, "\(InterfaceText.monthTitle(month.month)): practised on "
                    + "\(month.practisedDayCount == 1 ? "1 day" : "\(month.practisedDayCount) days"), "
                    + "\(InterfaceText.spokenMinutes(month.amount.wholeMinutes))."))
                for (index, week) in HistoryText.weeks(month).enumerated() {
                    items.append(FocusItem(.week(index), HistoryText.weekSpoken(week)))
                }
            } else {
                items.append(FocusItem(.calendar, "The calendar appears once the box knows the date."))
            }
            items.append(FocusItem(.totals, HistoryText.totalsSpoken(model)))
            for (index, run) in model.history.recent.enumerated() {
                let title = model.session(run.sessionID)?.title ?? "A session no longer in the library"
                items.append(FocusItem(.run(id: run.runID ?? -Int64(index + 1)),
                                       "\(title). \(HistoryText.runLine(run)). Hold the knob to delete it."))
            }
            if !model.history.isEmpty {
                items.append(FocusItem(.deleteHistory, "Delete all practice history."))
            }
            return items

        case .settings:
            return SettingRow.allCases.map { row in
                let value = SettingsText.value(row, model: model, editing: editing)
                return FocusItem(.setting(row), SettingsText.title(row) + (value.isEmpty ? "." : ": \(value)."))
            }

        case .downloads:
            return model.sessions.filter { !$0.isBundled }.map {
                FocusItem(.session(id: $0.id), InterfaceText.sessionLabel($0))
            }

        case .confirm(let question):
            let texts = ConfirmText.of(question, model: model)
            return [FocusItem(.keep, texts.keep + "."), FocusItem(.confirm, texts.confirm + ".")]

        case .notice(let id):
            guard let notice = model.notices.first(where: { $0.id == id }) else { return [] }
            var items = noticeReading(notice).enumerated().map { FocusItem(.reading($0.offset), $0.element) }
            items.append(FocusItem(.dismiss, "Dismiss this notice."))
            return items
        }
    }

    /// Where the focus starts on a screen.
    static func defaultFocus(on screen: Screen, items: [FocusItem], model: InterfaceModel) -> FocusKey? {
        switch screen {
        case .library:
            if let notice = items.first(where: { if case .notice = $0.key { true } else { false } }) { return notice.key }
            if let id = model.firstBootSessionID, items.contains(where: { $0.key == .session(id: id) }) { return .session(id: id) }
            return items.first { if case .session = $0.key { true } else { false } }?.key ?? items.first?.key
        case .confirm: return .keep
        default: return items.first?.key
        }
    }
}

/// Texts of the history screen.
enum HistoryText {
    /// The month's days in weeks, Monday first; nil pads the first and last weeks.
    static func weeks(_ month: PracticeMonth) -> [[PracticeDaySummary?]] {
        guard let first = month.days.first else { return [] }
        let lead = (first.day.weekday.rawValue + 6) % 7 // Monday = 0
        var cells: [PracticeDaySummary?] = Array(repeating: nil, count: lead) + month.days.map { Optional($0) }
        while cells.count % 7 != 0 { cells.append(nil) }
        return stride(from: 0, to: cells.count, by: 7).map { Array(cells[$0..<$0 + 7]) }
    }

    static func weekSpoken(_ week: [PracticeDaySummary?]) -> String {
        let days = week.compactMap { $0 }
        guard let first = days.first else { return "An empty week." }
        let practised = days.filter(\.practised)
        let start = "Week from \(InterfaceText.weekdays[first.day.weekday.rawValue]) \(first.day.day)"
        guard !practised.isEmpty else { return start + ": no practice." }
        let names = practised.map { "\(InterfaceText.weekdays[$0.day.weekday.rawValue]) \($0.day.day)" }
        let minutes = practised.reduce(0.0) { $0 + $1.amount.listeningSeconds }
        return start + ": practised on \(names.joined(separator: ", ")), \(InterfaceText.spokenMinutes(Int(minutes / 60)))."
    }

    static func runLine(_ run: RecentSession) -> String {
        var parts: [String] = []
        switch run.dating {
        case .dated(let day, let start, _):
            parts.append("\(InterfaceText.shortDate(day)), \(Settings.clock(start.hour * 60 + start.minute))")
        case .clampedToToday(let day):
            parts.append(InterfaceText.shortDate(day))
        case .unknown:
            parts.append("Date unknown")
        }
        parts.append(run.wholeMinutes < 1 ? "under a minute" : InterfaceText.minutesText(run.wholeMinutes))
        if run.completed { parts.append("finished") }
        return parts.joined(separator: " \u{00B7} ")
    }

    static func totalsSpoken(_ model: InterfaceModel) -> String {
        var text = "All time: \(InterfaceText.minutesText(model.history.totals.allTime.wholeMinutes)), "
            + "\(model.history.totals.allTime.runCount == 1 ? "1 session" : "\(model.history.totals.allTime.runCount) sessions")."
        if let streak = streakText(model) { text += " \(streak)." }
        if model.history.silentMinutes > 0 {
            text += " Silent practice with the breathing timer: \(InterfaceText.spokenMinutes(model.history.silentMinutes))."
        }
        return text
    }

    /// "Breathing timer: 25 min, silent", when there is any: apart from the minutes heard.
    static func silentText(_ model: InterfaceModel) -> String? {
        guard model.history.silentMinutes > 0 else { return nil }
        return "Breathing timer: \(InterfaceText.minutesText(model.history.silentMinutes)), silent"
    }

    /// "3 days in a row", when shown and more than one day; nothing otherwise (no guilt, no zero).
    static func streakText(_ model: InterfaceModel) -> String? {
        guard model.settings.showStreak, let streak = model.history.streak, streak.days >= 2 else { return nil }
        return "\(streak.days) days in a row"
    }
}

/// Texts of the settings screen.
enum SettingsText {
    static func title(_ row: SettingRow) -> String {
        switch row {
        case .textSize: return "Text size"
        case .reduceMotion: return "Reduce motion"
        case .nightDisplay: return "Night display"
        case .spokenLabels: return "Spoken labels"
        case .spokenDetail: return "Spoken detail"
        case .keyDescriber: return "Key describer"
        case .volume: return "Volume"
        case .headphonesCap: return "Headphones limit"
        case .speakerCap: return "Speaker limit"
        case .nightCap: return "Night limit"
        case .reminder: return "Reminder"
        case .showStreak: return "Show days in a row"
        case .downloads: return "Downloads"
        case .deleteHistory: return "Delete practice history"
        }
    }

    /// The value shown at the right of a row ("Large", "On", "70%", "21:30"); while a row is being
    /// adjusted, the value being chosen.
    static func value(_ row: SettingRow, model: InterfaceModel, editing: SettingEdit?) -> String {
        let settings = model.settings
        if let editing, editing.row == row { return adjustedText(row, editing.value) }
        switch row {
        case .textSize:
            switch settings.textSize {
            case .regular: return "Regular"
            case .large: return "Large"
            case .largest: return "Largest"
            }
        case .reduceMotion: return settings.reduceMotion ? "On" : "Off"
        case .nightDisplay:
            switch settings.nightMode {
            case .auto: return "\(Settings.clock(settings.nightStarts))\u{2013}\(Settings.clock(settings.nightEnds))"
            case .on: return "Always"
            case .off: return "Never"
            }
        case .spokenLabels: return settings.spokenLabels ? "On" : "Off"
        case .spokenDetail: return settings.verbosity == .full ? "Full" : "Short"
        case .keyDescriber: return ""
        case .volume: return "\(settings.volume)%"
        case .headphonesCap: return "\(settings.headphonesCap)%"
        case .speakerCap: return "\(settings.speakerCap)%"
        case .nightCap: return "\(settings.nightCap)%"
        case .reminder:
            guard let reminder = model.reminder, reminder.enabled else { return "Off" }
            return "Daily at \(Settings.clock(reminder.minuteOfDay))"
        case .showStreak: return settings.showStreak ? "On" : "Off"
        case .downloads:
            let remote = model.sessions.filter { !$0.isBundled }
            let onBox = remote.filter { $0.isPlayable }.count
            if remote.isEmpty { return "None offered" }
            return "\(onBox) of \(remote.count) on this box"
        case .deleteHistory: return ""
        }
    }

    static func adjustedText(_ row: SettingRow, _ value: Int) -> String {
        if row == .reminder { return value < 0 ? "Off" : "Daily at \(Settings.clock(value))" }
        return "\(value)%"
    }

    /// A short hint under a row that explains it.
    static func hint(_ row: SettingRow, editing: Bool) -> String {
        if editing { return "Turn to change \u{00B7} press to keep \u{00B7} BACK to cancel" }
        switch row {
        case .textSize: return "Press to change: regular, large, largest"
        case .reduceMotion: return "The circle stays still; words and a slow glow show the breath"
        case .nightDisplay: return "Dim, warm colours for the dark; press for always, never, by the clock"
        case .spokenLabels: return "The box says what the knob lands on"
        case .spokenDetail: return "Full: names, details and what to do; short: just the names"
        case .keyDescriber: return "Press, then each control says what it does instead of doing it, for a minute"
        case .volume: return "How loud sessions play"
        case .headphonesCap: return "Never louder than this on headphones"
        case .speakerCap: return "Never louder than this on the speaker"
        case .nightCap: return "Never louder than this at night"
        case .reminder: return "A gentle reminder once a day; press to set the time"
        case .showStreak: return "Show how many days in a row you practised"
        case .downloads: return "Fetch more sessions, or free space"
        case .deleteHistory: return "Remove every practised day from this box"
        }
    }
}

/// The words of each confirmation.
struct ConfirmText {
    var question: String
    var detail: String
    var keep: String
    var confirm: String

    static func of(_ confirmation: Confirmation, model: InterfaceModel) -> ConfirmText {
        switch confirmation {
        case .deleteAllHistory:
            return ConfirmText(question: "Delete all practice history?",
                               detail: "Every practised day and minute is removed from this box. This cannot be undone.",
                               keep: "Keep my history", confirm: "Delete everything")
        case .deleteRun(_, let sessionID):
            let title = model.session(sessionID)?.title ?? "this session"
            return ConfirmText(question: "Delete this entry?",
                               detail: "The minutes of \u{201C}\(title)\u{201D} from this entry are removed from your history. This cannot be undone.",
                               keep: "Keep it", confirm: "Delete entry")
        case .removeDownload(let sessionID):
            let session = model.session(sessionID)
            let size = (session?.download?.bytesTotal ?? session?.downloadBytes).map { " It frees \(ByteCountText.text($0))." } ?? ""
            return ConfirmText(question: "Remove \u{201C}\(session?.title ?? "this session")\u{201D} from this box?",
                               detail: "You can download it again later." + size,
                               keep: "Keep it", confirm: "Remove")
        }
    }
}
