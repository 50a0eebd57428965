/// What the interface asks the daemon to do. The interface decides; the daemon performs (the player,
/// the store, the download manager, the loop's timers, the display's power, the voice).
public enum InterfaceEffect: Equatable, Sendable {
    /// Start a session from its beginning (`PlayerEvent.play`).
    case play(sessionID: String)
    /// Play or pause the current session (`PlayerEvent.toggle`).
    case toggle
    case acceptResume
    case dismissResume
    /// Commit a seek (`PlayerEvent.seek`, the seconds converted to frames).
    case seek(toSeconds: Double)
    /// End the current session (`PlayerEvent.stop`).
    case stop
    case setFavourite(sessionID: String, Bool)
    /// `Settings.set(key, to: value)`, then store it.
    case changeSetting(key: String, value: String)
    /// Store the reminder choice (the reminder planner plans and fires it).
    case setReminder(enabled: Bool, minuteOfDay: Int)
    case startDownload(sessionID: String)
    case cancelDownload(sessionID: String)
    /// Remove a downloaded copy; the owner has confirmed it.
    case removeDownload(sessionID: String)
    /// Delete practice history; the owner has confirmed it.
    case deleteHistory(HistoryDeletion)
    case dismissNotice(id: Int64)
    /// Arm the timer of `kind` (one per kind: a new one replaces the old) to call
    /// `Interface.handle(timer:model:now:)` at `at`.
    case scheduleTimer(InterfaceTimer, at: MonotonicInstant)
    case cancelTimer(InterfaceTimer)
    /// Light, dim or blank the screen. No drawing while off.
    case setScreenPower(ScreenPower)
    /// Say this (when spoken labels are on; the interface only asks then). A newer label cuts it off.
    case speak(String)
    /// Say this after whatever is being said now, without cutting it off (a notice held back while a
    /// recording played, spoken at the pause or the end).
    case speakAfter(String)
    /// Say this even with spoken labels off: the listener asked for it (a chord, the key describer, the
    /// guide).
    case announce(String)
    /// Read these aloud a sentence at a time, a breath between, even with spoken labels off (the guide:
    /// the listener asked for it); any control but a wake stops it, as it stops a transcript read aloud.
    case readAloud([String])
    /// A short sound cue under the rest (the seek's tick), at the voice's level, cutting nothing off.
    case cue(SoundCue)
    /// Read the transcript aloud from this cue on (holding the knob on the transcript); the recording
    /// pauses while the box reads.
    case readTranscript(fromCue: Int)
    /// Start the silent breathing timer (a recording that plays is paused; a running timer is ended
    /// first). The set-up screen has already stored the choice with `changeSetting`.
    case startBreathingTimer(patternName: String, minutes: Int)
    /// End the breathing timer early (its minutes are kept as silent practice when they count).
    case stopBreathingTimer
    /// A route change for the player (`PlayerEvent.headphones`).
    case headphones(connected: Bool)
    /// Stop the daemon (the simulator's `q`).
    case quit
}

/// The timers the interface asks for.
public enum InterfaceTimer: String, Equatable, Hashable, Sendable, CaseIterable {
    /// The knob has rested: commit the seek preview.
    case seekCommit
    /// No touch for `dim-after` seconds: dim, and show the clock face unless a session is playing.
    case dim
    /// No touch for `dark-after` seconds: blank the screen.
    case dark
    /// A minute without a touch while the key describer is on: it turns itself off, and says so.
    case describer
}

/// The short sounds the interface plays (Content/sounds, each with its provenance beside it).
public enum SoundCue: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Content/sounds/tick.mp3: each committed step of a seek with the knob.
    case tick
}

/// How lit the screen is.
public enum ScreenPower: String, Equatable, Hashable, Sendable {
    case on
    /// Lit, but low: the clock face, or the player while it plays (the breathing timer while it runs).
    case dim
    /// Blanked (DPMS off): only PLAY acts; any other touch only wakes it.
    case off
}

/// Which practice history to delete.
public enum HistoryDeletion: Equatable, Hashable, Sendable {
    case all
    case run(id: Int64)
}
