import ALSAAudio
import ControlProtocol
import ControlSocket
import DisplayPipeline
import CurlDownloader
import DeviceFakes
import Devices
import EventLoop
import FoundationEssentials
import Glibc
import MPG123Decoder
import SQLiteStore
import StillroomCore

/// The appliance: wires the pure core to the adapters and runs the event loop.
///
/// Start-up order matters: paths are checked first (a bad path is a one-line error, exit 1), then the
/// store and the catalog are opened, then the loop's sources are added, and only then is READY=1 sent.
public final class Daemon {
    let options: DaemonOptions
    let logger: Logger
    let loop: EventLoop
    let notifier: SystemdNotifier
    let store: SQLiteStore
    var content: LoadedContent
    var player: PlayerMachine
    let engine: PlaybackEngine
    var loggedPhase: PlayerPhase = .idle
    var ledger = PracticeLedger()
    /// The session whose recording the engine has open: heard frames belong to it.
    var engineSession: (id: String, sampleRate: Int, frames: Int64)?
    var clockTrusted: Bool
    /// Runs saved under an untrusted clock in this boot, with their monotonic start, for re-dating.
    var untrustedRunsThisBoot: [Int64: MonotonicInstant] = [:]
    var runPauseTimer: LoopTimer!
    var settings: Settings
    let timeZone: LocalTimeZone
    var controlServer: ControlServer?
    var inputBackends: [InputBackend] = []
    var jackMonitor: ALSAJackMonitor?
    var controlMapper = ControlMapper()
    var chord = ChordDetector()
    var chordTimer: LoopTimer!
    /// A label waiting out the debounce (a burst of knob turns speaks only the last item).
    var pendingLabel: String?
    /// Labels spoken since start (for status and tests).
    var labelsSpoken = 0
    /// Transcript lines still to be read aloud.
    var readingQueue: [String] = []
    var readingTimer: LoopTimer!
    var labelTimer: LoopTimer!
    var downloads: DownloadManager?
    var reminder = ReminderMachine(preference: nil, firedDay: nil)
    var reminderTimer: WallClockTimer!
    var reminderRecheck: LoopTimer!
    /// When the current pause began (a reminder waits for a long enough pause).
    var pausedSince: MonotonicInstant?
    // The interface and the screen.
    var ui = Interface()
    var model = InterfaceModel()
    var screen: ScreenDriver?
    var sceneBuilder: InterfaceScene?
    var previewWriter: TerminalPreviewWriter?
    var interfaceTimers: [InterfaceTimer: LoopTimer] = [:]
    var minuteTimer: WallClockTimer?
    var historySummary: InterfaceModel.HistorySummary?
    var favouritesCache: Set<String>?
    var noticesCache: [InterfaceModel.Notice]?
    /// Favourites or notices changed in the store: re-read them at the next model refresh.
    var storedChanged = false
    var lastShownSecond = -1
    var transcriptCache: (id: String, transcript: Transcript?)?
    var breathCueCache: (id: String, track: BreathCueTrack?)?
    var breathingTimer: BreathingTimer?
    var breathingTimerEnd: LoopTimer!
    var timerStartedWall: UnixMilliseconds?
    private var watchdogTimer: LoopTimer?
    var checkpointTimer: LoopTimer!
    var outputRetryTimer: LoopTimer!
    private(set) var exitStatus: Int32 = 0
    /// Held for the life of the process: no second daemon on this data folder.
    private let dataLock: DataDirectoryLock

    public init(options: DaemonOptions, environment: [String: String], logger: Logger) throws(StartupError) {
        self.options = options
        self.logger = logger
        try Self.checkPaths(options)
        dataLock = try DataDirectoryLock.acquire(in: options.dataDirectory)
        do {
            loop = try EventLoop(timeWarpFactor: options.timeWarp)
        } catch {
            throw StartupError("cannot create the event loop: \(error)")
        }
        notifier = SystemdNotifier(environment: environment)
        clockTrusted = SystemClocks.isWallClockSynchronized()
        timeZone = LocalTimeZone(environment: environment, logger: logger)
        store = try Self.openStore(options, logger: logger, now: loop.wallNow)
        content = ContentLoader.load(directory: options.contentDirectory, store: store, logger: logger)
        player = Self.restorePlayer(store: store, content: content, logger: logger)
        settings = Self.loadSettings(store: store, logger: logger)
        engine = PlaybackEngine(sink: Self.makeSink(options, loop: loop), logger: logger,
                                lengths: { [store] path in Self.cachedLength(path, store: store) },
                                rememberLength: { [store] path, frames in Self.rememberLength(path, frames: frames, store: store) })
        checkpointTimer = loop.makeTimer { [unowned self] in apply(.checkpointTimer) }
        outputRetryTimer = loop.makeTimer { [unowned self] in retryOutput() }
        engine.onEvent = { [unowned self] event in apply(event) }
        engine.onHeard = { [unowned self] ranges in recordHeard(ranges) }
        runPauseTimer = loop.makeTimer { [unowned self] in
            perform(ledger.close(wall: wallMilliseconds))
            logger.info("practice: run closed after a long pause")
        }
        loop.onClockChange { [unowned self] in
            clockChanged()
            replanReminder()
        }
        timeZone.watch(loop: loop) { [unowned self] in
            applySettings()
            replanReminder()
        }
        applySettings()
        do {
            controlServer = try ControlServer(path: options.socketPath, loop: loop, log: { [logger] in logger.warning("control: \($0)") },
                                              handler: { [unowned self] request, peer in handle(request, from: peer) })
        } catch {
            throw StartupError("\(error)")
        }
        do {
            try loop.handleSignals([SIGTERM, SIGINT, SIGHUP]) { [unowned self] signal in handle(signal: signal) }
        } catch {
            throw StartupError("cannot route signals: \(error)")
        }
        startWatchdog()
        chordTimer = loop.makeTimer { [unowned self] in chordTimerFired() }
        readingTimer = loop.makeTimer { [unowned self] in readNextCue() }
        labelTimer = loop.makeTimer { [unowned self] in
            if let label = pendingLabel { speakNow(label) }
            pendingLabel = nil
        }
        try startInput()
        try startDownloads()
        startReminder()
        breathingTimerEnd = loop.makeTimer { [unowned self] in finishBreathingTimer(completed: true) }
        try startInterface()
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        notifier.ready(status: "Ready")
        logger.notice("ready: \(content.catalog.sessions.count) sessions, output \(engine.sink.name)"
            + (options.simulator ? ", simulator" : "") + (options.timeWarp > 1 ? ", time warp ×\(options.timeWarp)" : ""))
        do {
            try loop.run()
        } catch {
            logger.error("event loop failed: \(error)")
            exitStatus = 1
        }
        shutDown()
        return exitStatus
    }

    private func handle(signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT:
            logger.notice("stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
            notifier.stopping()
            loop.stop()
        case SIGHUP:
            logger.notice("SIGHUP: reloading the catalog")
            content = ContentLoader.load(directory: options.contentDirectory, store: store, logger: logger)
        default:
            break
        }
    }

    private func shutDown() {
        // Where the listener is, exactly, then the checkpoint the power-off would otherwise cost.
        if let position = engine.heardPosition { apply(.heard(positionFrame: position)) }
        apply(.shutdown)
        finishBreathingTimer(completed: false)
        engine.stop()
        stopInput()
        stopInterface()
        downloads?.shutDown()
        controlServer?.shutDown()
        watchdogTimer?.cancel()
        store.close()
        logger.notice("stopped cleanly")
    }

    /// WATCHDOG=1 from the loop itself, at half of WATCHDOG_USEC: a wedged loop stops the pings.
    private func startWatchdog() {
        guard let interval = notifier.watchdogInterval else { return }
        let timer = loop.makeTimer { [unowned self] in
            notifier.watchdog()
            watchdogTimer?.schedule(after: interval)
        }
        timer.schedule(after: interval)
        watchdogTimer = timer
    }

    // MARK: Start-up pieces

    private static func checkPaths(_ options: DaemonOptions) throws(StartupError) {
        try Directories.prepareWritable(options.dataDirectory, purpose: "data directory")
        try Directories.checkReadable(options.contentDirectory, purpose: "content directory")
        try Directories.checkReadableFile(options.contentDirectory + "/catalog.json", purpose: "catalog")
        try Directories.prepareWritable(Directories.parent(of: options.socketPath), purpose: "socket directory")
        if case .png(let path, _) = options.display {
            try Directories.prepareWritable(Directories.parent(of: path), purpose: "screenshot directory")
        }
        if options.input != .none {
            try Directories.checkReadableFile(options.boardFile, purpose: "board file")
        }
    }

    /// The volume after the caps for the current output and night mode.
    var effectiveVolume: Int {
        settings.volumePolicy.effectiveVolume(headphones: player.headphonesConnected, night: isNight)
    }

    /// Whether the night display and night cap apply now.
    var isNight: Bool { settings.isNight(atMinuteOfDay: localMinuteOfDay) }

    /// Changes a setting, applies it and stores it; the error says what the key takes.
    func change(setting key: String, to value: String) throws(SettingError) {
        try settings.set(key, to: value)
        applySettings()
        do {
            try store.setSetting(key, to: settings.value(of: key), now: UnixMilliseconds(date: loop.wallNow))
        } catch {
            logger.error("setting \(key) not saved: \(error)")
        }
    }

    func applySettings() {
        engine.setGain(VolumePolicy.gain(forVolume: effectiveVolume))
    }

    private static func loadSettings(store: SQLiteStore, logger: Logger) -> Settings {
        let stored = ((try? store.allSettings()) ?? []).reduce(into: [String: String]()) { $0[$1.key] = $1.value }
        let settings = Settings(stored: stored)
        for problem in settings.problems { logger.warning(problem) }
        return settings
    }

    static func databasePath(_ options: DaemonOptions) -> String { options.dataDirectory + "/stillroom.db" }

    private static func openStore(_ options: DaemonOptions, logger: Logger, now: Date) throws(StartupError) -> SQLiteStore {
        do {
            let opened = try SQLiteStore.open(path: databasePath(options), now: UnixMilliseconds(date: now))
            switch opened.outcome {
            case .movedAside: logger.error("database: \(opened.outcome)")
            default: logger.info("database: \(opened.outcome)")
            }
            return opened.store
        } catch {
            throw StartupError("cannot open the database \(databasePath(options)): \(error)")
        }
    }

    /// After a restart or a power cut: offer to resume the latest checkpoint, if its session still exists.
    private static func restorePlayer(store: SQLiteStore, content: LoadedContent, logger: Logger) -> PlayerMachine {
        guard let saved = try? store.latestCheckpoint() else { return PlayerMachine() }
        guard let id = try? ContentID(validating: saved.sessionID), let session = content.catalog.session(withID: id) else {
            logger.info("resume: the saved session \(saved.sessionID) is no longer in the catalog")
            return PlayerMachine()
        }
        let position = PlaybackPosition(sessionID: saved.sessionID, frame: saved.positionFrames, sampleRate: saved.sampleRate)
        let player = PlayerMachine(resumeFrom: position, title: session.title)
        if let offer = player.resumeOffer {
            logger.notice("resume offer: \(session.title) at \(TimeText.clock(offer.position.seconds))")
        }
        return player
    }

    private static func makeSink(_ options: DaemonOptions, loop: EventLoop) -> AudioSink {
        // "paced" is the simulator's speaker; "paced:4" plays four times faster than the loop's clock (which
        // `--time-warp` already speeds up: there plain "paced" keeps audio in step with every timer).
        if options.audioDevice == "paced" { return PacedSink(loop: loop) }
        if options.audioDevice.hasPrefix("paced:"), let speed = Double(options.audioDevice.dropFirst(6)), speed > 0 {
            return PacedSink(loop: loop, speed: speed)
        }
        return ALSASink(device: options.audioDevice, loop: loop)
    }

    /// Caches a length the engine measured (a downloaded recording), keyed by size and mtime.
    private static func rememberLength(_ path: String, frames: Int64, store: SQLiteStore) {
        guard let identity = FileReading.identity(path), let decoder = try? MP3Decoder(path: path) else { return }
        try? store.putAudioLength(AudioLengthRecord(path: path, size: identity.size, modificationTimeNanoseconds: identity.modifiedNanoseconds,
                                                    frames: frames, sampleRate: decoder.sampleRate)) // a cache: a failure costs a scan
    }

    private static func cachedLength(_ path: String, store: SQLiteStore) -> Int64? {
        guard let identity = FileReading.identity(path) else { return nil }
        return (try? store.audioLength(path: path, size: identity.size, modificationTimeNanoseconds: identity.modifiedNanoseconds))??.frames
    }
}

extension UnixMilliseconds {
    init(date: Date) { self = UnixMilliseconds((date.timeIntervalSince1970 * 1000).rounded()) }
}
