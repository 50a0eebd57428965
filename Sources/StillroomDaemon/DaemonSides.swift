import ALSAAudio
import Devices
import DisplayPipeline
import EventLoop
import StillroomCore

// The daemon's state, by the side of the box it belongs to (the Wi-Fi's and the updates' are beside their
// code: WifiSide, UpdateSide). Each is plain data the daemon's extensions read and write.

/// The memory card as the daemon found it (Daemon+Storage, Daemon+Purge).
struct StorageSide {
    /// Why nothing can be saved (a read-only card, an unusable database), or nil.
    var problem: String?
    /// Whether the card was full when `problem` arose at start (doctor's advice differs, and the database
    /// opened read-only then is opened for writing once the card has room: `reopenStoreIfTheCardHasRoom`).
    var problemOnAFullCard = false
    /// Whether the card was full when last looked at while `problemOnAFullCard`: the database is tried
    /// for writing once each time the card is seen to have room after being full, not at every event.
    var cardFullAtLastLook = true
    /// The card filled while running (`problem` says so): the next save that goes through ends it.
    var filledWhileRunning = false
    /// Whether the room kept for the database is on the card. Given back at a start on a full card, it is
    /// made again at the first save that goes through once the card has room (`storeWriteWentThrough`).
    var roomKept = false
    /// The place last written to the card, and when (nil: the one found at start); what `status` reports,
    /// not what the player last asked to save.
    var checkpointOnCard: (position: PlaybackPosition, at: MonotonicInstant?)?
    /// Deleted runs may still be readable in the files; true until the store says otherwise.
    var purgePending = true
}

/// The screen's side but the driver itself (Daemon+Display).
struct PanelSide {
    /// Watches for a DRM card while the screen is not there yet (its driver loads after the daemon starts).
    var watcher: DeviceFolderWatcher?
    var sceneBuilder: InterfaceScene?
    var previewWriter: TerminalPreviewWriter?
    /// The screenshots this daemon wrote, oldest first: the newest few are kept (`screenshotsKept`).
    var screenshotsWritten: [String] = []
}

/// The controls (Daemon+Input).
struct InputSide {
    var backends: [InputBackend] = []
    var jackMonitor: ALSAJackMonitor?
    /// Input events handled since start, from every backend (status: tests wait on it instead of sleeping).
    var eventsHandled = 0
}

/// Sounds other than the recording (Daemon+Interface, Daemon+Player).
struct SoundSide {
    /// Sound cues played since start (the seek's ticks), and their decoded samples.
    var cuesPlayed = 0
    var cueSamples: [SoundCue: (samples: [Int16], rate: Int)] = [:]
    /// While the output is lost: the sound cards' folder, for a card made or given its group by udev.
    var devicesWatcher: DeviceFolderWatcher?
    /// Told each text as it is handed to the mixer to be said (lifesim's oracle listens: no notice said twice).
    var spokenListener: ((String) -> Void)?
}

/// What the model is built from, cached between rebuilds (Daemon+Interface).
struct ModelSources {
    var historySummary: InterfaceModel.HistorySummary?
    var favourites: Set<String>?
    var notices: [InterfaceModel.Notice]?
    /// Favourites or notices changed in the store: re-read them at the next rebuild.
    var storeChanged = false
    /// The transcript and the breath cues of the session playing, parsed once per session.
    var transcript: (id: String, transcript: Transcript?)?
    var breathCues: (id: String, track: BreathCueTrack?)?
}

/// What systemd sees of the daemon (Daemon, Daemon+Driving).
struct ServiceSide {
    let notifier: SystemdNotifier
    /// How long each step of the start took, logged once READY=1 is sent.
    var startTimeline: StartTimeline
    /// WATCHDOG=1 from the loop itself, when systemd asked for a watchdog.
    var watchdogTimer: LoopTimer?
    /// What `run()` returns: 1 when the loop itself failed.
    var exitStatus: Int32 = 0
}
