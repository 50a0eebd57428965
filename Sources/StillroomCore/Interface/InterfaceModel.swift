// What the screens show, as one plain value. The daemon fills it from the catalog, the download
// manager, the player, the practice history, the settings and the clock whenever one of them changes;
// the interface never reads anything else. Equatable, so the daemon can skip an update that changed
// nothing on screen.

/// A snapshot of everything the interface shows.
public struct InterfaceModel: Equatable, Sendable {
    /// The library, in catalog order.
    public var sessions: [SessionItem]
    /// The bundled session the box offers when nothing else is chosen (`Catalog.firstBootSession`).
    public var firstBootSessionID: String?
    public var player: PlayerInfo
    /// The transcript of the player's session, when it has one.
    public var transcript: Transcript?
    /// The pages of the transcript's cues near the reader, as the screen cuts them (`InterfaceScene
    /// .transcriptPages`), so the knob can step through a long cue; empty with no screen (a cue is a page).
    public var transcriptPages = TranscriptPages()
    /// The breath cues of the player's session, when it has them (otherwise the circle follows
    /// `BreathPattern.calm` along the recording).
    public var breathCues: BreathCueTrack?
    public var history: HistorySummary
    public var settings: Settings
    /// The owner's reminder choice; nil: never set (off).
    public var reminder: ReminderChoice?
    /// Notices not yet dismissed, oldest first.
    public var notices: [Notice]
    /// Local wall time now; nil while the clock is not trusted (no time is shown then).
    public var clock: LocalClock?
    /// Whole minutes practised on today's practice day.
    public var todayMinutes: Int
    /// "Today at 21:30", when a reminder is planned.
    public var nextReminder: String?
    /// Whether headphones are plugged in (nil: the box cannot tell).
    public var headphonesConnected: Bool?
    /// The silent breathing timer, while one runs (its pattern, start instant and length: the circle's
    /// phase and the time left follow from these and `now` alone).
    public var breathingTimer: BreathingTimer?
    /// A system update being installed or restarted into: its full-screen notice stands over every screen.
    public var systemUpdate: SystemUpdateShown?

    public init(sessions: [SessionItem] = [], firstBootSessionID: String? = nil, player: PlayerInfo = PlayerInfo(),
                transcript: Transcript? = nil, breathCues: BreathCueTrack? = nil,
                history: HistorySummary = HistorySummary(), settings: Settings = Settings(),
                reminder: ReminderChoice? = nil, notices: [Notice] = [], clock: LocalClock? = nil,
                todayMinutes: Int = 0, nextReminder: String? = nil, headphonesConnected: Bool? = nil,
                breathingTimer: BreathingTimer? = nil) {
        self.sessions = sessions
        self.firstBootSessionID = firstBootSessionID
        self.player = player
        self.transcript = transcript
        self.breathCues = breathCues
        self.history = history
        self.settings = settings
        self.reminder = reminder
        self.notices = notices
        self.clock = clock
        self.todayMinutes = todayMinutes
        self.nextReminder = nextReminder
        self.headphonesConnected = headphonesConnected
        self.breathingTimer = breathingTimer
    }

    /// The session with `id`, if the library has it.
    public func session(_ id: String?) -> SessionItem? {
        guard let id else { return nil }
        return sessions.first { $0.id == id }
    }

    /// The session PLAY starts when nothing is loaded: `preferred` when it plays offline, otherwise
    /// the first-boot session, otherwise the first session on the box.
    public func sessionToStart(preferring preferred: String?) -> SessionItem? {
        if let chosen = session(preferred), chosen.isPlayable { return chosen }
        if let first = session(firstBootSessionID), first.isPlayable { return first }
        return sessions.first { $0.isPlayable }
    }
}

extension InterfaceModel {
    /// One session in the library.
    public struct SessionItem: Equatable, Sendable {
        public var id: String
        public var title: String
        public var theme: Theme
        public var description: String
        public var durationSeconds: Double
        /// Whether the recording ships with the box (always plays, cannot be removed).
        public var isBundled: Bool
        /// The recording's size, for a session that must be downloaded.
        public var downloadBytes: Int64?
        /// The download's state, for a remote session (nil: bundled).
        public var download: DownloadStatus?
        public var isFavourite: Bool
        /// "CC BY 4.0 · Stillroom project".
        public var licenceLine: String

        public init(id: String, title: String, theme: Theme, description: String, durationSeconds: Double,
                    isBundled: Bool, downloadBytes: Int64? = nil, download: DownloadStatus? = nil,
                    isFavourite: Bool = false, licenceLine: String) {
            self.id = id
            self.title = title
            self.theme = theme
            self.description = description
            self.durationSeconds = durationSeconds
            self.isBundled = isBundled
            self.downloadBytes = downloadBytes
            self.download = download
            self.isFavourite = isFavourite
            self.licenceLine = licenceLine
        }

        /// From the catalog, with the download's status (remote sessions) and whether it is a favourite.
        public init(session: Session, download: DownloadStatus? = nil, isFavourite: Bool = false) {
            var bytes: Int64?
            if case .remote(let remote) = session.audio { bytes = Int64(remote.byteCount) }
            let status = session.audio.isBundled ? nil
                : (download ?? DownloadStatus(sessionID: session.id.rawValue, state: .available, bytesTotal: bytes))
            self.init(id: session.id.rawValue, title: session.title, theme: session.theme,
                      description: session.description, durationSeconds: session.durationSeconds,
                      isBundled: session.audio.isBundled, downloadBytes: bytes, download: status,
                      isFavourite: isFavourite,
                      licenceLine: "\(session.license.name) \u{00B7} \(session.license.attribution)")
        }

        /// Whether it plays now, with no network: bundled, or a verified download on the box.
        public var isPlayable: Bool { isBundled || (download?.isPlayableOffline ?? false) }
    }

    /// What the player is doing, as the screens need it.
    public struct PlayerInfo: Equatable, Sendable {
        public var phase: PlayerPhase
        public var sessionID: String?
        public var title: String
        /// Seconds heard so far, as the sink last reported them.
        public var positionSeconds: Double
        /// When `positionSeconds` was read: while playing, the screen moves on from there with `now`.
        public var positionAt: MonotonicInstant?
        /// The recording's length in seconds (0 until loaded).
        public var lengthSeconds: Double
        public var pauseReason: PauseReason?
        /// Why the output is gone ("USB audio device removed"), while it is.
        public var outputProblem: String?
        public var resumeOffer: ResumeOffer?
        /// What is wrong with the recording, while paused at damage.
        public var damage: String?

        public init(phase: PlayerPhase = .idle, sessionID: String? = nil, title: String = "", positionSeconds: Double = 0,
                    positionAt: MonotonicInstant? = nil, lengthSeconds: Double = 0, pauseReason: PauseReason? = nil,
                    outputProblem: String? = nil, resumeOffer: ResumeOffer? = nil) {
            self.phase = phase
            self.sessionID = sessionID
            self.title = title
            self.positionSeconds = positionSeconds
            self.positionAt = positionAt
            self.lengthSeconds = lengthSeconds
            self.pauseReason = pauseReason
            self.outputProblem = outputProblem
            self.resumeOffer = resumeOffer
        }

        /// From the player machine; `positionAt` is when its position was last reported.
        public init(_ machine: PlayerMachine, positionAt: MonotonicInstant?) {
            self.init(phase: machine.phase, sessionID: machine.sessionID, title: machine.title,
                      positionSeconds: machine.positionSeconds, positionAt: positionAt,
                      lengthSeconds: machine.lengthSeconds, pauseReason: machine.pauseReason,
                      outputProblem: machine.outputProblem, resumeOffer: machine.resumeOffer)
            damage = machine.damage
        }

        /// Whether a session is chosen (playing, paused, loading, ended or failed).
        public var hasSession: Bool { sessionID != nil && phase != .idle }
        public var isPlaying: Bool { phase == .playing }

        /// The position at `now`: while playing it moves on from the last report (never past the end).
        public func position(at now: MonotonicInstant) -> Double {
            var seconds = positionSeconds
            if phase == .playing, let positionAt, now > positionAt { seconds += (now - positionAt).seconds }
            return lengthSeconds > 0 ? min(max(0, seconds), lengthSeconds) : max(0, seconds)
        }
    }

    /// Practice history for the history screen: this month, recent runs, totals and the streak.
    public struct HistorySummary: Equatable, Sendable {
        /// The month on the calendar (nil while the clock is not trusted and no month is known).
        public var month: PracticeMonth?
        /// Newest first.
        public var recent: [RecentSession]
        public var totals: PracticeTotals
        public var streak: PracticeStreak?
        /// Today's practice day, when the clock is trusted (marked on the calendar).
        public var today: CivilDate?
        /// Minutes of silent practice (the breathing timer), all time: kept apart from listening, which
        /// is all the calendar and the totals count (docs/routine.md).
        public var silentMinutes = 0

        public init(month: PracticeMonth? = nil, recent: [RecentSession] = [],
                    totals: PracticeTotals = PracticeTotals(allTime: PracticeAmount(), thisMonth: nil, undatedRunCount: 0),
                    streak: PracticeStreak? = nil, today: CivilDate? = nil) {
            self.month = month
            self.recent = recent
            self.totals = totals
            self.streak = streak
            self.today = today
        }

        /// From the history: the month of today (or `month`), up to `recentLimit` recent runs.
        public init(_ history: PracticeHistory, month: CivilMonth? = nil, recentLimit: Int = 12) {
            let shown = month ?? history.today?.civilMonth
            self.init(month: shown.map { history.month($0) }, recent: history.recentSessions(limit: recentLimit),
                      totals: history.totals(), streak: history.streak(), today: history.today)
        }

        /// Whether anything has ever been practised.
        public var isEmpty: Bool { totals.allTime.runCount == 0 && recent.isEmpty }
    }

    /// The reminder as the settings screen edits it.
    public struct ReminderChoice: Equatable, Sendable {
        public var enabled: Bool
        /// Local minutes after midnight.
        public var minuteOfDay: Int

        public init(enabled: Bool, minuteOfDay: Int) {
            self.enabled = enabled
            self.minuteOfDay = min(1439, max(0, minuteOfDay))
        }
    }

    /// A message the owner should read: a moved-aside database, a lost output, a failed download.
    public struct Notice: Equatable, Sendable {
        public var id: Int64
        public var kind: NoticeKind
        public var message: String

        public init(id: Int64, kind: NoticeKind, message: String) {
            self.id = id
            self.kind = kind
            self.message = message
        }

        public init(_ record: NoticeRecord) { self.init(id: record.id, kind: record.kind, message: record.message) }
    }

    /// Local wall time, for the clock and the night display.
    public struct LocalClock: Equatable, Sendable {
        public var hour: Int
        public var minute: Int
        /// "Tuesday 12 May".
        public var dateText: String

        public init(hour: Int, minute: Int, dateText: String) {
            self.hour = hour
            self.minute = minute
            self.dateText = dateText
        }

        public init(_ local: LocalDateTime) {
            self.init(hour: local.hour, minute: local.minute, dateText: InterfaceText.dateText(local.date))
        }

        public var minuteOfDay: Int { hour * 60 + minute }
        /// "21:05".
        public var text: String { Settings.clock(minuteOfDay) }
    }
}

extension NoticeKind {
    /// The sound output went away (a USB DAC pulled, a HAT failing).
    public static let outputLost = NoticeKind(rawValue: "output-lost")
    /// A download ended in its failed state.
    public static let downloadFailed = NoticeKind(rawValue: "download-failed")
    /// A reminder could not sound (quiet hours, night): the silent card.
    public static let reminder = NoticeKind(rawValue: "reminder")
    /// The card filled while running: what happens now is not kept until there is room (live, until a save
    /// goes through again).
    public static let storageFull = NoticeKind(rawValue: "storage-full")
    /// A system update was refused or broke off; nothing was switched (live, this boot only).
    public static let updateFailed = NoticeKind(rawValue: "update-failed")
    /// A new version did not start well and the box went back to the one before (stored until dismissed).
    public static let updateRolledBack = NoticeKind(rawValue: "update-rolled-back")
    /// The Wi-Fi could not be joined (a refused passphrase, a network not in range); live, until it joins.
    public static let wifiNotJoined = NoticeKind(rawValue: "wifi-not-joined")
    /// A control's device is not there (its driver not loaded yet, unplugged, or misnamed in the board
    /// file); live, until it appears.
    public static let controlsMissing = NoticeKind(rawValue: "controls-missing")
}

extension ResumeOffer {
    /// An offer to resume `title` at `position` (for the daemon and tests outside the core).
    public init(title: String, position: PlaybackPosition) {
        self.init(position: position, title: title)
    }
}

/// What the update's full-screen notice shows.
public enum SystemUpdateShown: Equatable, Sendable {
    case installing(percent: Int, step: String)
    case restarting(version: String)

    /// From the update machine's phase: nil when no notice stands.
    public init?(_ phase: SystemUpdate.Phase) {
        switch phase {
        case .installing(let percent, let step): self = .installing(percent: percent, step: step)
        case .restarting(let version): self = .restarting(version: version)
        case .idle, .failed: return nil
        }
    }
}
