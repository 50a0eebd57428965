/// Everything that can happen to the box, as the daemon reports it.
public enum BoxEvent: Equatable, Sendable {
    /// The interface begins, on the model the box already holds.
    case start
    /// The daemon rebuilt the model (the player, the store, the downloads or the clock changed).
    case modelChanged(InterfaceModel)
    /// A button, the knob or the jack, from any input backend.
    case input(InputEvent)
    /// A timer the box armed is due (BoxTimer.swift).
    case timer(BoxTimer)
    /// Light the screen as a touch would (a reminder's silent cue), without a control being used.
    case glow
    /// Something to say (Box+Voice.swift).
    case speech(SpeechRequest)
    /// What the box asked to say (`.say`) lasts this long (0 when it could not be said).
    case spoke(seconds: Double)
    /// The CLI's `say` was said, lasting this long.
    case saidOnRequest(String, seconds: Double)

    // Listening: the player and the practice ledger (Box+Listening.swift).

    /// A request for the player (a control, a command on the socket) or a report from the engine.
    /// `prepared` once the steps it needs first were taken (the output tried again, a run joined).
    case player(PlayerEvent, prepared: Bool = false)
    /// The output's effects of a player event were performed (they reported what the output played):
    /// the ledger follows, and the save and what comes after it are asked for.
    case settle(Listening.Step, of: PlayerEvent)
    /// The save and what followed it were performed too: what the player shows now. `acted` when the
    /// player asked for anything at all.
    case finish(PlayerEvent, acted: Bool)
    /// The output played these frames of the recording it has open.
    case heard([Range<Int64>])
    /// The store kept `runs` as `stored` (the same order, with their ids).
    case saved(runs: [PracticeRunRecord], as: [PracticeRunRecord])
    /// The run to continue on accepting the offered place: the session's latest, not complete.
    case continueRun(PracticeRunRecord, sampleRate: Int, recordingFrames: Int64)
    /// The wall clock was set; `trusted` whether it is synchronised (at start too). The reminder is
    /// planned again; practice runs are dated by the clock once it is trusted.
    case clockSet(trusted: Bool)
    /// Practice runs were deleted: `run`, or all of them with nil.
    case runsDeleted(run: Int64?)
    /// A download is about to be removed: the player must not hold its file.
    case removingDownload(sessionID: String)

    // The breathing timer: silent practice (Box+Silent.swift).

    /// Start a timer (an unknown pattern or length starts nothing).
    case startBreathingTimer(pattern: String, minutes: Int)
    case stopBreathingTimer
    /// The store inserted a timer's run (with its id).
    case timerRunInserted(PracticeRunRecord, startedMonotonic: MonotonicInstant)

    // The reminder (Box+Reminder.swift).

    /// Plan the reminder in this time zone: at start, and when the zone changes.
    case planReminder(TimeZoneRules)
    /// The owner chose the reminder, and it is stored.
    case reminderChosen(ReminderPreferenceRecord)
}

/// What the daemon does for the box, in order.
public enum BoxEffect: Equatable, Sendable {
    /// The interface's own effects: play, store, speak, timers, screen power…
    case interface(InterfaceAction)
    /// Arm this timer for `at` (again, if it was armed), or cancel it: the daemon's loop timers, named.
    case arm(BoxTimer, at: TimerDeadline)
    case cancel(BoxTimer)
    /// Synthesise this and play it now (cutting off an older label); answer `.spoke(seconds:)`.
    case say(String)
    /// The screen may have changed: draw it again when the display can take a frame.
    case redraw

    // Listening (Box+Listening.swift).

    /// Hand this event back to the box once the effects before it are performed.
    case then(BoxEvent)
    /// The player's effects on the output (the engine); its checkpoint timer comes as `.arm`.
    case output(OutputEffect)
    /// Try to open the missing output once more now (a DAC that came up late plays at once).
    case retryOutput
    /// While the output is missing, try it again whenever a sound device changes (as well as on the
    /// `.outputRetry` timer).
    case watchSoundDevices
    /// Find the session's latest run and, if it may be continued, answer `.continueRun`.
    case joinLatestRun(sessionID: String)
    /// Keep the place and the runs with it in one transaction; answer `.saved`.
    case save(ProgressSave)
    /// The clock became trustworthy: date these runs again (saved under the untrusted clock in this boot,
    /// with their monotonic start).
    case redateRuns([Int64: MonotonicInstant])
    /// The breathing timer's effects but its alarms (`.arm`): its cues, its run.
    case silent(SilentAction)
    /// The reminder's effects but its timers (`.arm`): the chime or the glow and card, the day it fired.
    case reminder(ReminderAction)
    /// A session was left with a run open: a quiet moment for deferred work.
    case sessionLeft
    /// The player settled in a new phase (the log says it; the reminder follows it).
    case playerPhaseChanged(PlayerPhase)
    /// What the player shows changed: rebuild the model (which comes back as `.modelChanged`).
    case rebuildModel
}

/// Something for the box to say (the interface's words, or the daemon's).
public enum SpeechRequest: Equatable, Sendable {
    /// A label: said with spoken labels on, or `always` (what someone asked for with labels off: a gesture,
    /// the key describer, the guide, a setting that could not be saved).
    case label(String, always: Bool)
    /// Said after what is being said now (a notice held back while a recording played); labels on only.
    case afterCurrent(String)
    /// The transcript of the session playing, read aloud from this cue.
    case readTranscript(fromCue: Int)
    /// These sentences read aloud one after another (the guide), with labels on or off.
    case read([String])
}
