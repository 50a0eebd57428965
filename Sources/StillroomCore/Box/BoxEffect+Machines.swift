// What the daemon performs for the box's machines: their effects less the timers, which the box keeps
// (`.arm`/`.cancel`, Box+Timers.swift). The daemon can then switch over every case it is given; none
// is a timer it must know to ignore.

/// The player's effects on the engine and the store.
public enum OutputEffect: Equatable, Sendable {
    /// Open `sessionID`'s recording; report `.loaded` or `.loadFailed`.
    case load(sessionID: String)
    /// Start sound at `frame`, fading in.
    case startOutput(fromFrame: Int64)
    /// Fade out and stop; report `.pausedAt` with the exact frame.
    case pauseOutput
    /// Stop at once (the output is gone or the session is over); nothing to fade.
    case stopOutput
    /// Jump while playing, with a short fade out and in.
    case seekOutput(toFrame: Int64)
    case saveCheckpoint(PlaybackPosition)
    case clearCheckpoint(sessionID: String)
}

/// The breathing timer's effects: what the log says, its cues, its run.
public enum SilentAction: Equatable, Sendable {
    case started(BreathingTimer)
    case stopped(completed: Bool, seconds: Double)
    /// A chime where sound is allowed, a glow otherwise.
    case softCue(SilentPractice.Moment)
    /// Insert the run (no id: answer `.timerRunInserted`) or update it.
    case saveRun(PracticeRunRecord, startedMonotonic: MonotonicInstant)
}

/// The reminder's effects: the chime, or the glow and its card; the day it fired, to keep.
public enum ReminderAction: Equatable, Sendable {
    case chime
    case glow
    case firedOn(CivilDate)
}

/// The interface's effects the daemon performs: the store, the downloads, the screen's power, a cue, the
/// headphone cap, quitting. What it asks of the player, the breathing timer and the voice, and its
/// timers, the box takes itself (`Box.listen(to:)`, `Box.wrap`).
public enum InterfaceAction: Equatable, Sendable {
    case setFavourite(sessionID: String, Bool)
    /// `Settings.set(key, to: value)`, then store it; a refusal is said (and what the rest of the
    /// interface's run meant to say about it is not).
    case changeSetting(key: String, value: String)
    case setReminder(enabled: Bool, minuteOfDay: Int)
    case startDownload(sessionID: String)
    case cancelDownload(sessionID: String)
    case removeDownload(sessionID: String)
    case deleteHistory(HistoryDeletion)
    case dismissNotice(id: Int64)
    case setScreenPower(ScreenPower)
    case cue(SoundCue)
    /// The player followed the jack: the headphone cap applies now.
    case headphones(connected: Bool)
    case quit
}
