import CairoPainter
import SimulatorDevices
import Devices
import DisplayPipeline
import EspeakSpeech
import EventLoop
import FoundationEssentials
import Glibc
import SQLiteStore
import StillroomCore

/// The screens: the interface core decides what is shown and what a control does; the daemon feeds it a
/// model of the box, performs its effects, and draws its scenes on the display (DRM, or a PNG in the
/// simulator, previewed in the terminal).
extension Daemon {
    func startInterface() {
        refreshModel(historyChanged: true)
        feed(.start)
    }

    func stopInterface() {
        screen?.close()
    }

    var screenKind: ScreenKind { box.screenKind }
    var screenIsDark: Bool { ui.isDark }

    /// Rebuilds the model after anything on screen may have changed, lets the interface react, redraws.
    /// `historyChanged` when practice runs were written or deleted (the summary is cached otherwise).
    func refreshModel(historyChanged: Bool = false) {
        if historyChanged { modelSources.historySummary = nil }
        if modelSources.storeChanged {
            modelSources.favourites = nil
            modelSources.notices = nil
            modelSources.storeChanged = false
        }
        var next = buildModel()
        if let sceneBuilder = panel.sceneBuilder, let screen {
            // The pages the screen cuts the transcript's long cues into, for the knob (Interface.scroll).
            next.transcriptPages = sceneBuilder.transcriptPages(ui, model: next, size: screen.display.size, now: loop.now)
        }
        feed(.modelChanged(next))
    }

    private func buildModel() -> InterfaceModel {
        let favourites = modelSources.favourites ?? Set(((try? store.favorites()) ?? []).map(\.sessionID))
        modelSources.favourites = favourites
        let stored = modelSources.notices ?? ((try? store.notices()) ?? []).map(InterfaceModel.Notice.init)
        modelSources.notices = stored
        let notices = liveNotices() + stored
        let remote = (downloads?.sessions ?? []).filter { content.catalog.session(withID: $0.id) == nil }
        let sessions = (content.catalog.sessions + remote).map { session in
            InterfaceModel.SessionItem(session: session, download: downloads?.status(of: session.id),
                                       isFavourite: favourites.contains(session.id.rawValue))
        }
        let summary = cachedHistorySummary()
        let local = timeZone.rules.localDateTime(at: unixNow)
        let reminderChoice = reminder.preference.map { InterfaceModel.ReminderChoice(enabled: $0.enabled, minuteOfDay: $0.minuteOfDay) }
        let nextReminder = reminder.due.map { due -> String in
            let at = timeZone.rules.localDateTime(at: due)
            return "Reminder at \(Settings.clock(at.hour * 60 + at.minute))"
        }
        var model = InterfaceModel(
            sessions: sessions, firstBootSessionID: content.catalog.firstBootSession?.id.rawValue,
            player: InterfaceModel.PlayerInfo(player, positionAt: loop.now),
            transcript: currentTranscript(), breathCues: currentBreathCues(), history: summary, settings: settings,
            reminder: reminderChoice, notices: notices,
            clock: InterfaceModel.LocalClock(local),
            todayMinutes: summary.month?.days.first { $0.day == summary.today }?.amount.wholeMinutes ?? 0,
            nextReminder: nextReminder, headphonesConnected: player.headphonesConnected, breathingTimer: breathingTimer)
        model.systemUpdate = SystemUpdateShown(updates.machine.phase)
        return model
    }

    private func cachedHistorySummary() -> InterfaceModel.HistorySummary {
        if let summary = modelSources.historySummary { return summary }
        var made = InterfaceModel.HistorySummary(practiceHistory())
        made.silentMinutes = practiceHistory(.silent).totals().allTime.wholeMinutes
        modelSources.historySummary = made
        return made
    }

    /// The transcript of the session playing, parsed once per session.
    private func currentTranscript() -> Transcript? {
        guard let id = player.sessionID else { return nil }
        if let cached = modelSources.transcript, cached.id == id { return cached.transcript }
        var transcript: Transcript?
        if let contentID = try? ContentID(validating: id), let session = anySession(contentID) {
            switch loadTranscript(of: session) {
            case .success(let loaded): transcript = loaded
            case .failure(let problem): logger.warning(problem.message) // once: the result is cached per session
            }
        }
        modelSources.transcript = (id, transcript)
        return transcript
    }

    /// The breath cues of the session playing, parsed once per session.
    private func currentBreathCues() -> BreathCueTrack? {
        guard let id = player.sessionID else { return nil }
        if let cached = modelSources.breathCues, cached.id == id { return cached.track }
        var track: BreathCueTrack?
        if let contentID = try? ContentID(validating: id), let session = anySession(contentID) {
            if let path = breathCuesPath(of: session), let bytes = try? FileReading.bytes(path) {
                track = try? BreathCueParser.parse(bytes, fileName: path, recordingSeconds: player.lengthSeconds > 0 ? player.lengthSeconds : 3600)
            }
        }
        modelSources.breathCues = (id, track)
        return track
    }

    // MARK: The interface's effects

    /// Performs one of the interface's effects, `refused` when a setting earlier in its run could not be
    /// saved; returns whether one has been now. A setting the card cannot save is said to be unchanged
    /// (even with spoken labels off: someone asked for it), and what the interface meant to say about the
    /// change is not said.
    func perform(_ effect: InterfaceAction, afterRefusal refused: Bool) -> Bool {
        switch effect {
        case .changeSetting(let key, let value):
            do {
                try change(setting: key, to: value)
            } catch {
                logger.warning("setting \(key): \(error.message)")
                let name = SettingRow.allCases.first { $0.key == key }?.title ?? key
                feed(.speech(.label("\(name) not changed: the setting could not be saved.", always: true)))
                refreshModel()
                return true
            }
            refreshModel()
            return refused
        default:
            perform(effect)
            return refused
        }
    }

    private func perform(_ effect: InterfaceAction) {
        switch effect {
        case .setFavourite(let id, let on):
            if on {
                _ = try? store.addFavorite(sessionID: id, now: wallMilliseconds)
            } else {
                _ = try? store.removeFavorite(sessionID: id)
            }
            modelSources.storeChanged = true
        case .changeSetting: break // above, where a refusal is said
        case .setReminder(let enabled, let minute):
            var preference = reminder.preference ?? ReminderPreferenceRecord(enabled: enabled, minuteOfDay: minute, weekdays: .all,
                                                                             style: .chime, quietStartMinute: 0, quietEndMinute: 0,
                                                                             updatedAt: wallMilliseconds)
            preference.enabled = enabled
            preference.minuteOfDay = minute
            preference.updatedAt = wallMilliseconds
            if (try? store.setReminderPreference(preference)) != nil {
                feed(.reminderChosen(preference))
            }
        case .startDownload(let id):
            if let contentID = try? ContentID(validating: id) { try? downloads?.download(contentID) }
        case .cancelDownload(let id):
            if let contentID = try? ContentID(validating: id) { try? downloads?.cancel(contentID) }
        case .removeDownload(let id):
            if let contentID = try? ContentID(validating: id) {
                if (try? downloads?.remove(contentID)) != nil { finishPendingPurge(after: "a download was removed") }
            }
        case .deleteHistory(let which):
            switch which {
            case .all: _ = deleteHistory(run: nil)
            case .run(let id): _ = deleteHistory(run: id)
            }
        case .dismissNotice(let id):
            if !dismissLiveNotice(id) { // a live one stands until its problem goes; doctor still says it
                _ = try? store.dismissNotice(id: id, now: wallMilliseconds)
            }
            modelSources.storeChanged = true
        case .setScreenPower(let power):
            screen?.setScreenOn(power != .off) // the box stops the minute's timer in the dark; the refresh below catches up
        case .cue(let cue):
            playCue(cue)
        case .headphones:
            applySettings() // the headphone cap, once the player (in the box) has followed the jack
        case .quit:
            logger.notice("stopping: quit from the terminal")
            service.notifier.stopping()
            loop.stop()
        }
        switch effect {
        case .deleteHistory: refreshModel(historyChanged: true)
        case .cue: break
        default: refreshModel()
        }
    }

    /// A short cue (the seek's tick) mixed under whatever plays, at the voice's level; it cuts nothing off.
    func playCue(_ cue: SoundCue) {
        let decoded = sounds.cueSamples[cue] ?? decodeSound(cue.rawValue)
        guard let decoded else {
            logger.warning("sound \(cue.rawValue) is not in the catalog; no cue")
            return
        }
        sounds.cueSamples[cue] = decoded
        sounds.cuesPlayed += 1
        engine.cue(decoded.samples, rate: decoded.rate)
    }

    /// Speaks at once (cutting off an older label), through the engine's mixer: what the box's `.say`
    /// asks. Returns the length of the speech in seconds (0 when it could not be said).
    func speakNow(_ text: String) -> Double {
        do {
            return try speak(text)
        } catch {
            logger.warning("spoken label: \(error)")
            return 0
        }
    }

    /// With spoken labels on, eSpeak NG is loaded and started on the loop's first turn after READY: off
    /// PLAY's path (CLazyLibrary), and before the first label anyone asks for, which then does not wait
    /// for the library and its voice.
    func prepareSpeechAfterReady() {
        guard settings.spokenLabels else { return }
        loop.makeTimer { [unowned self] in
            do {
                _ = try EspeakSynthesizer.shared()
            } catch {
                logger.warning("speech: \(error)")
            }
        }.schedule(at: loop.now)
    }

    /// Synthesises `text` and hands it to the engine's mixer (over the recording, ducked, or alone).
    /// Returns the speech's length in seconds.
    func speak(_ text: String) throws -> Double {
        let voice = try EspeakSynthesizer.shared()
        let samples = try voice.synthesize(text)
        engine.speak(samples, rate: voice.sampleRate)
        sounds.spokenListener?(text)
        return Double(samples.count) / Double(voice.sampleRate)
    }

    /// Called with each text the box says, as it hands it to the mixer: what a listener beside the box
    /// hears (lifesim's oracle checks no notice is said twice). Nothing on the box sets it.
    public var spokenListener: ((String) -> Void)? {
        get { sounds.spokenListener }
        set { sounds.spokenListener = newValue }
    }

}
