/// One screen of the interface. The interface keeps a stack of them; the library is always at the bottom.
public enum Screen: Hashable, Sendable {
    /// Home: the library, with its filter.
    case library
    /// One session's page.
    case detail(sessionID: String)
    /// The player with the breathing circle.
    case player
    /// The transcript of the player's session.
    case transcript
    /// Practice history: calendar, totals, recent sessions.
    case history
    case settings
    /// Sessions that can be downloaded, and those on the box.
    case downloads
    /// "Delete all practice history?" — Keep / Delete.
    case confirm(Confirmation)
    /// One notice, with what to do about it.
    case notice(id: Int64)
    /// The resting clock face, shown when the screen dims.
    case idle
    /// The silent breathing timer's set-up: length and pattern, and Start.
    case timerSetup
    /// The silent breathing timer running: the circle, the phase, the time left. Shown while the model
    /// has a timer, over the screen it was started from.
    case breathingTimer

    /// How the controls behave here (the control mapper's table).
    public var kind: ScreenKind {
        switch self {
        case .library: return .home
        case .detail: return .detail
        case .player: return .player
        case .transcript: return .transcript
        case .history: return .history
        case .settings, .downloads: return .settings
        case .confirm: return .confirm
        case .notice: return .notice
        case .idle: return .idle
        // A list whose knob hold is a context action (any length, 1 to 60 minutes).
        case .timerSetup: return .detail
        // Nothing to move through: the knob's press says the time left; PLAY and BACK stop.
        case .breathingTimer: return .settings
        }
    }
}

/// A question asked before something that cannot be undone.
public enum Confirmation: Hashable, Sendable {
    case deleteAllHistory
    case deleteRun(id: Int64, sessionID: String)
    case removeDownload(sessionID: String)
}

/// Which sessions the library shows.
public enum LibraryFilter: String, Hashable, Sendable, CaseIterable {
    case all
    case breathe
    case focus
    case unwind
    case favourites
    case onThisBox

    /// The next filter, wrapping round.
    public var next: LibraryFilter {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// Whether `session` passes.
    public func admits(_ session: InterfaceModel.SessionItem) -> Bool {
        switch self {
        case .all: return true
        case .breathe: return session.theme == .breathe
        case .focus: return session.theme == .focus
        case .unwind: return session.theme == .unwind
        case .favourites: return session.isFavourite
        case .onThisBox: return session.isPlayable
        }
    }
}

/// A row of the settings screen.
public enum SettingRow: String, Hashable, Sendable, CaseIterable {
    case textSize
    case reduceMotion
    case nightDisplay
    case spokenLabels
    /// Short or full labels (`verbosity`).
    case spokenDetail
    /// Turns the key describer on (the chord, or a minute without a touch, turns it off).
    case keyDescriber
    case volume
    case headphonesCap
    case speakerCap
    case nightCap
    case reminder
    case showStreak
    case downloads
    case deleteHistory

    /// The settings key a row changes, for rows that are one setting.
    public var key: String? {
        switch self {
        case .textSize: return "text-size"
        case .reduceMotion: return "reduce-motion"
        case .nightDisplay: return "night-mode"
        case .spokenLabels: return "spoken-labels"
        case .spokenDetail: return "verbosity"
        case .volume: return "volume"
        case .headphonesCap: return "headphones-cap"
        case .speakerCap: return "speaker-cap"
        case .nightCap: return "night-cap"
        case .showStreak: return "show-streak"
        case .reminder, .downloads, .deleteHistory, .keyDescriber: return nil
        }
    }

    /// The row's name on the settings screen ("Spoken labels").
    public var title: String { SettingsText.title(self) }

    /// Rows whose value is chosen by turning the knob (press to start, turn, press to keep).
    public var isAdjustable: Bool {
        switch self {
        case .volume, .headphonesCap, .speakerCap, .nightCap, .reminder: return true
        default: return false
        }
    }
}

/// What has the focus on a screen. Keys, not positions: when the list changes under it (a download
/// finishes, a filter changes), the focus stays on the same thing.
public enum FocusKey: Hashable, Sendable {
    /// The library's filter chips (a press moves to the next filter).
    case filter
    /// A notice card on the library.
    case notice(id: Int64)
    case session(id: String)
    /// The library's way to the history and settings screens.
    case historyLink
    case settingsLink
    /// A button on a session's page.
    case action(SessionAction)
    /// A stop for reading: a sentence of a description or a notice, the licence line.
    case reading(Int)
    /// A page of the transcript: a cue, or one page of a cue too long for the screen.
    case transcript(TranscriptPlace)
    /// The history's month heading, one week of its calendar, and the totals (reading stops).
    case calendar
    case week(Int)
    case totals
    /// A recent run on the history screen.
    case run(id: Int64)
    case deleteHistory
    case setting(SettingRow)
    /// The answer buttons of a confirmation.
    case keep
    case confirm
    /// The notice screen's button.
    case dismiss
    /// The library's way to the breathing timer.
    case timerLink
    /// The timer set-up's Start button, its length and its pattern.
    case timerStart
    case timerLength
    case timerPattern
}

/// The buttons of a session's page.
public enum SessionAction: String, Hashable, Sendable, CaseIterable {
    case play
    case resume
    case pause
    case download
    case cancelDownload
    case retryDownload
    case favourite
    case removeDownload
    case stop
}
