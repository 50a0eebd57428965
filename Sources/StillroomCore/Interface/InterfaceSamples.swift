// Realistic sample content and states for every screen: the golden images, docs/design.md, benchmarks
// and the simulator's screenshots all draw these. Titles and descriptions include long ones on purpose
// (longer than the shipped catalog's), so layouts are proven with room to spare.

/// Sample models and interface states.
public enum InterfaceSamples {
    /// 20 May 2026, 21:40 UTC (a Wednesday evening), in milliseconds.
    public static let wallNow: UnixMilliseconds = 1_779_313_200_000
    /// The monotonic time the samples are drawn at.
    public static let now = MonotonicInstant(nanoseconds: 500_000_000_000)

    /// The longest title used in tests: longer than any in the catalog.
    public static let longestTitle = "A slow body scan for the end of a long and busy day"
    /// A description at the catalog's 600-character limit (595 characters).
    public static let longestDescription = "A long, unhurried body scan for the last minutes of the day. Lying down, you move your attention "
        + "slowly from the soles of the feet to the crown of the head, resting a few breaths in each place. Nothing needs "
        + "to change: the practice is only to notice warmth, weight, tingling or nothing at all, and to let each part "
        + "soften as you leave it. Towards the end the guidance thins out into long silences, so you can drift off if "
        + "sleep comes. If your mind wanders, that is part of it; come back to the last place you remember. There is no "
        + "right way to feel by the end, and nothing to achieve on the way."

    static let licence = "CC BY 4.0 \u{00B7} Stillroom project"

    /// The library: bundled sessions, a remote one to download, one downloading, one downloaded, one failed.
    public static let sessions: [InterfaceModel.SessionItem] = [
        .init(id: "steady-breath", title: "Steady breath", theme: .breathe,
              description: "Five quiet minutes of breathing in for four and out for six, with a soft tone to follow. "
                + "Good for the start or the end of a day.",
              durationSeconds: 300, isBundled: true, licenceLine: licence),
        .init(id: "counting-breaths", title: "Counting breaths", theme: .breathe,
              description: "Count each out-breath from one to ten, then begin again. When you lose count, simply start at one.",
              durationSeconds: 480, isBundled: true, licenceLine: licence),
        .init(id: "setting-down-the-day", title: "Setting down the day", theme: .unwind,
              description: "A gentle wind-down: name what happened today, set each thing down, and let the body grow heavy.",
              durationSeconds: 720, isBundled: true, isFavourite: true, licenceLine: licence),
        .init(id: "sounds-around-you", title: "Sounds around you", theme: .focus,
              description: "Rest attention on the sounds of the room and beyond, near and far, without naming them.",
              durationSeconds: 420, isBundled: false, downloadBytes: 6_120_000,
              download: DownloadStatus(sessionID: "sounds-around-you", state: .available, bytesTotal: 6_120_000), licenceLine: licence),
        .init(id: "body-scan-for-sleep", title: "Body scan for sleep", theme: .unwind,
              description: "Move slowly through the body from the feet upwards, letting each part rest, until sleep comes.",
              durationSeconds: 1200, isBundled: false, downloadBytes: 17_800_000,
              download: DownloadStatus(sessionID: "body-scan-for-sleep", state: .downloading, bytesDone: 8_010_000, bytesTotal: 17_800_000),
              licenceLine: licence),
        .init(id: "slow-body-scan", title: longestTitle, theme: .unwind, description: longestDescription,
              durationSeconds: 1500, isBundled: false, downloadBytes: 22_400_000,
              download: DownloadStatus(sessionID: "slow-body-scan", state: .onThisBox, bytesDone: 22_400_000, bytesTotal: 22_400_000),
              isFavourite: true, licenceLine: licence),
        .init(id: "noticing-thoughts", title: "Noticing thoughts without following them", theme: .focus,
              description: "Watch thoughts arrive and leave like traffic seen from a window, and return to the breath each time.",
              durationSeconds: 600, isBundled: false, downloadBytes: 9_000_000,
              download: DownloadStatus(sessionID: "noticing-thoughts", state: .failed, bytesTotal: 9_000_000,
                                       failure: .diskFull(SpaceShortage(neededBytes: 41_000_000, availableBytes: 36_800_000,
                                                                        reserveBytes: 32_000_000))),
              licenceLine: licence),
    ]

    /// The first minute of "Steady breath" (the shipped transcript's words).
    public static let transcript = Transcript(cues: [
        cue(3.0, 4.379, "Hello, and welcome."),
        cue(5.479, 10.039, "For the next few minutes there is only one thing to do, and that is to breathe."),
        cue(11.139, 13.694, "Find a way to sit or lie that feels easy."),
        cue(14.244, 17.549, "You can close your eyes, or let them rest on one spot."),
        cue(20.649, 24.481, "Start by noticing the breath just as it is, without changing it."),
        cue(25.581, 26.549, "Air coming in."),
        cue(27.099, 27.947, "Air going out."),
        cue(34.047, 36.071, "Now let's give the breath a gentle shape."),
        cue(36.621, 38.740, "In for four, and out for six."),
        cue(39.840, 44.019, "A soft tone will rise as you breathe in, and fall away as you breathe out."),
        cue(44.569, 45.501, "Let it lead you."),
        cue(46.721, 47.379, "Breathe in."),
        cue(50.721, 51.347, "And out."),
    ])

    /// A cue of 318 characters (longer than the transcript screen holds at the largest text size).
    public static let longCue = "In for four, and out for six. Let the breath find its own pace as you count, without forcing anything: "
        + "the in-breath rising gently through the chest, a small pause at the top, and then the long, slow out-breath, "
        + "letting the shoulders soften and the jaw loosen, until the next breath arrives by itself, gentle and easy."

    /// The sample transcript with its "In for four…" cue made long: what a downloaded transcript may hold.
    public static let longCueTranscript = Transcript(cues: transcript.cues.map { cue in
        cue.text == "In for four, and out for six." ? TranscriptCue(start: cue.start, end: cue.end, text: longCue) : cue
    })

    static func cue(_ start: Double, _ end: Double, _ text: String) -> TranscriptCue {
        TranscriptCue(start: .milliseconds(Int64(start * 1000)), end: .milliseconds(Int64(end * 1000)), text: text)
    }

    /// In for four, out for six, from 46.6 s (as the shipped session's cues).
    public static let breathCues = BreathCueTrack(cues: (0..<28).flatMap { index -> [BreathCue] in
        let start = 46.601 + Double(index) * 10
        return [BreathCue(phase: .inhale, startSeconds: start, endSeconds: start + 4),
                BreathCue(phase: .exhale, startSeconds: start + 4, endSeconds: start + 10)]
    })

    /// A month of practice: evenings on most days, a late-night run, one from before the clock was set.
    public static func history(empty: Bool = false) -> InterfaceModel.HistorySummary {
        guard !empty else {
            return InterfaceModel.HistorySummary(PracticeHistory(runs: [], calendar: PracticeCalendar(timeZone: .utc), now: wallNow))
        }
        let day: Int64 = 86_400_000
        let may1 = wallNow - 19 * day - (21 * 60 + 40) * 60_000 // 1 May 00:00 UTC
        var runs: [PracticeRunRecord] = []
        var id: Int64 = 1
        func add(_ dayOfMonth: Int, _ minuteOfDay: Int, _ session: String, _ minutes: Double, recording: Double, trusted: Bool = true) {
            let start = may1 + Int64(dayOfMonth - 1) * day + Int64(minuteOfDay) * 60_000
            runs.append(PracticeRunRecord(id: id, sessionID: session, startedAt: start, actualListeningSeconds: minutes * 60,
                                          coveredSeconds: minutes * 60, recordingSeconds: recording,
                                          completedAt: minutes * 60 >= recording * 0.9 ? start + Int64(minutes * 60_000) : nil,
                                          clockTrusted: trusted, updatedAt: start))
            id += 1
        }
        add(2, 21 * 60 + 30, "steady-breath", 5, recording: 300)
        add(4, 22 * 60, "setting-down-the-day", 12, recording: 720)
        add(5, 7 * 60 + 15, "counting-breaths", 6.5, recording: 480)
        add(9, 21 * 60 + 50, "steady-breath", 5, recording: 300)
        add(12, 22 * 60 + 10, "slow-body-scan", 18, recording: 1500)
        add(14, 6 * 60 + 50, "counting-breaths", 8, recording: 480)
        add(17, 21 * 60, "setting-down-the-day", 12, recording: 720)
        add(18, 25 * 60 + 30, "steady-breath", 5, recording: 300) // 01:30 on the 19th: counts for the 18th
        add(19, 22 * 60, "slow-body-scan", 24.5, recording: 1500)
        add(20, 21 * 60 + 10, "steady-breath", 3.2, recording: 300)
        let calendar = PracticeCalendar(timeZone: .utc)
        let history = PracticeHistory(runs: runs, calendar: calendar, now: wallNow)
        var summary = InterfaceModel.HistorySummary(history, recentLimit: 8)
        summary.silentMinutes = 25 // five breathing timers of five minutes, shown apart
        return summary
    }

    /// The model with nothing playing, at 21:40 (night by the clock unless `appearance` says day).
    public static func model(appearance: Appearance = .day, textSize: Settings.TextSize = .regular) -> InterfaceModel {
        var settings = Settings()
        settings.nightMode = appearance == .night ? .on : .off
        settings.textSize = textSize
        return InterfaceModel(sessions: sessions, firstBootSessionID: "steady-breath", history: history(), settings: settings,
                              reminder: InterfaceModel.ReminderChoice(enabled: true, minuteOfDay: 21 * 60 + 30),
                              clock: InterfaceModel.LocalClock(hour: 21, minute: 40, dateText: "Wednesday 20 May"),
                              todayMinutes: 3, nextReminder: "tomorrow at 21:30", headphonesConnected: true)
    }

    /// A session loaded in the player.
    public static func playing(_ model: InterfaceModel, sessionID: String = "steady-breath", phase: PlayerPhase = .playing,
                               position: Double = 48.6, pauseReason: PauseReason? = nil) -> InterfaceModel {
        var model = model
        let session = model.session(sessionID)!
        model.player = InterfaceModel.PlayerInfo(phase: phase, sessionID: sessionID, title: session.title, positionSeconds: position,
                                                 positionAt: now, lengthSeconds: session.durationSeconds,
                                                 pauseReason: pauseReason ?? (phase == .paused ? .user : nil))
        if sessionID == "steady-breath" {
            model.transcript = transcript
            model.breathCues = breathCues
        }
        return model
    }

    /// A breathing timer of `minutes` with `pattern`, `elapsed` seconds in at `now`, with the set-up's
    /// choice the same.
    public static func breathing(_ model: InterfaceModel, pattern: String = "4-7-8", minutes: Int = 5,
                                 elapsed: Double = 97, at instant: MonotonicInstant = now) -> InterfaceModel {
        var model = model
        model.settings.timerPattern = pattern
        model.settings.timerMinutes = minutes
        model.breathingTimer = BreathingTimer(patternName: pattern, minutes: minutes,
                                              startedAt: MonotonicInstant(nanoseconds: instant.nanoseconds - UInt64(elapsed * 1e9)))
        return model
    }

    /// How many of `states` are whole screens (the rest are variants).
    public static let screenCount = 14

    /// A named state for every screen and its variants.
    public struct State {
        public var name: String
        public var interface: Interface
        public var model: InterfaceModel
        public var now: MonotonicInstant
    }

    /// Every screen (first) and the variants worth a picture, in the given look.
    public static func states(appearance: Appearance, textSize: Settings.TextSize) -> [State] {
        let base = model(appearance: appearance, textSize: textSize)
        func state(_ name: String, _ stack: [Page], _ model: InterfaceModel, filter: LibraryFilter = .all,
                   actions: [ControlAction] = []) -> State {
            var ui = Interface(showing: stack, filter: filter)
            for action in actions { _ = ui.handle(action, model: model, now: now) }
            return State(name: name, interface: ui, model: model, now: now)
        }
        var withNotice = base
        withNotice.notices = [InterfaceModel.Notice(id: 7, kind: .databaseMovedAside,
                                                    message: "The practice database failed its check at start and was moved aside to stillroom.db.broken-1.")]
        var resume = base
        resume.player.resumeOffer = ResumeOffer(title: "Setting down the day",
                                                position: PlaybackPosition(sessionID: "setting-down-the-day", frame: 205 * 44_100, sampleRate: 44_100))
        var editing = Interface(showing: [Page(.settings, focus: .setting(.headphonesCap))])
        _ = editing.handle(.select, model: base, now: now)
        _ = editing.handle(.focus(by: -2), model: base, now: now)
        var failedOutput = playing(base, phase: .paused, position: 131, pauseReason: .outputLost)
        failedOutput.player.outputProblem = "the USB audio device was unplugged"
        var emptyHistory = base
        emptyHistory.history = history(empty: true)
        var reduced = playing(base, position: 48.6)
        reduced.settings.reduceMotion = true
        var timerReduced = breathing(base, pattern: "box", minutes: 10, elapsed: 14.2) // the empty hold
        timerReduced.settings.reduceMotion = true
        var choosing = Interface(showing: [Page(.timerSetup, focus: .timerLength)])
        _ = choosing.handle(.contextAction, model: base, now: now)
        _ = choosing.handle(.focus(by: 2), model: base, now: now)
        return [
            state("library", [], base),
            state("detail", [Page(.detail(sessionID: "slow-body-scan"))], base),
            state("player", [Page(.player)], playing(base)),
            state("transcript", [Page(.player), Page(.transcript)], playing(base, position: 37.2)),
            state("history", [Page(.history)], base),
            state("settings", [Page(.settings)], base),
            state("downloads", [Page(.settings), Page(.downloads)], base),
            state("confirm", [Page(.history), Page(.confirm(.deleteAllHistory))], base),
            state("notice", [Page(.notice(id: 7))], withNotice),
            state("resume", [], resume),
            state("idle", [Page(.idle)], base),
            state("timer-setup", [Page(.timerSetup)], base),
            state("timer", [Page(.timerSetup), Page(.breathingTimer)], breathing(base)),
            state("update", [], { var m = base; m.systemUpdate = .installing(percent: 42, step: "Copying image to rootfs.1"); return m }()),
            // Variants.
            state("library-notice", [], withNotice),
            state("library-favourites-empty", [], { var m = base; m.sessions = m.sessions.map { var s = $0; s.isFavourite = false; return s }; return m }(),
                  filter: .favourites),
            state("library-playing", [], playing(base, sessionID: "setting-down-the-day", phase: .paused, position: 212)),
            state("detail-downloadable", [Page(.detail(sessionID: "sounds-around-you"))], base),
            state("detail-downloading", [Page(.detail(sessionID: "body-scan-for-sleep"))], base),
            state("detail-failed", [Page(.detail(sessionID: "noticing-thoughts"))], base),
            state("player-paused-headphones", [Page(.player)], playing(base, phase: .paused, position: 131, pauseReason: .headphonesRemoved)),
            state("player-output-lost", [Page(.player)], failedOutput),
            state("player-seeking", [Page(.player)], playing(base, position: 48.6), actions: [.seekPreview(seconds: 15), .seekPreview(seconds: 30)]),
            state("player-reduced-motion", [Page(.player)], reduced),
            state("player-loading", [Page(.player)], playing(base, phase: .loading, position: 0)),
            state("player-long-title", [Page(.player)], playing(base, sessionID: "slow-body-scan", position: 612)),
            state("transcript-scrolled", [Page(.player), Page(.transcript)], playing(base, position: 37.2), actions: [.scroll(by: -4)]),
            state("transcript-long-cue", [Page(.player), Page(.transcript)], { var m = playing(base, position: 36.7); m.transcript = longCueTranscript; return m }()),
            state("history-empty", [Page(.history)], emptyHistory),
            State(name: "settings-editing", interface: editing, model: base, now: now),
            state("update-restarting", [Page(.player)],
                  { var m = playing(base, phase: .paused, position: 131); m.systemUpdate = .restarting(version: "2027.01.15-4be1c7a9e0"); return m }()),
            state("library-update-undone", [], { var m = base; m.notices = [InterfaceModel.Notice(id: 9, kind: .updateRolledBack,
                message: "A new version did not start well, so the box went back to the one it ran before (update failed: 2027.01.15 (slot B) did not start; back to slot A).")]; return m }()),
            state("notice-wifi", [Page(.notice(id: -4))], { var m = base; m.notices = [InterfaceModel.Notice(id: -4, kind: .wifiNotJoined,
                message: WifiWatch.Problem.wrongPassphrase(ssid: "Flat 4").noticeMessage)]; return m }()),
            state("notice-controls", [Page(.notice(id: -5))], { var m = base; m.notices = [InterfaceModel.Notice(id: -5, kind: .controlsMissing,
                message: "Not answering yet: PLAY, BACK and pressing the knob (\"gpio-keys\").")]; return m }()),
            state("library-timer", [Page(.library, focus: .timerLink)], base),
            state("timer-setup-pattern", [Page(.timerSetup, focus: .timerPattern)], breathing(base, pattern: "box", minutes: 10).withoutTimer),
            State(name: "timer-setup-choosing", interface: choosing, model: base, now: now),
            state("timer-reduced-motion", [Page(.library, focus: .timerLink), Page(.breathingTimer)], timerReduced),
            State(name: "timer-last-second", interface: Interface(showing: [Page(.timerSetup), Page(.breathingTimer)]),
                  model: breathing(base, pattern: "4-4", minutes: 60, elapsed: 3599.5, at: now + .seconds(3600)), now: now + .seconds(3600)),
        ]
    }
}


extension InterfaceModel {
    /// The same model with no breathing timer running (the set-up's choice kept).
    var withoutTimer: InterfaceModel {
        var model = self
        model.breathingTimer = nil
        return model
    }
}
