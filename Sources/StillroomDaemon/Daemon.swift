import ALSAAudio
import ControlProtocol
import ControlSocket
import DisplayPipeline
import CurlDownloader
import SimulatorDevices
import Devices
import EventLoop
import FoundationEssentials
import Glibc
import MPG123Decoder
import SQLiteStore
import StillroomCore
import SystemCalls

/// The appliance: wires the pure core to the adapters and runs the event loop.
///
/// Start-up order matters: paths are checked first (a bad path is a one-line error, exit 1), then the
/// store and the catalog are opened, then the loop's sources are added and the audio output opened, and
/// only then is READY=1 sent, the screen opened and its first frame drawn: the screen offers PLAY only
/// when PLAY can sound (or says from its first frame that there is no sound output), and the drawing
/// stack (cairo, pango, the fonts), which PLAY does not need, is no part of the wait for READY.
public final class Daemon {
    let options: DaemonOptions
    let logger: Logger
    let loop: EventLoop
    let store: SQLiteStore
    var content: LoadedContent
    /// The player and the practice ledger, with the rules between them (in the box: `Box.listening`).
    var listening: Listening { box.listening }
    var player: PlayerMachine { box.player }
    let engine: PlaybackEngine
    /// Whether the wall clock is trustworthy (the box keeps it: practice runs are dated by it).
    var clockTrusted: Bool { box.clockTrusted }
    var settings: Settings
    let timeZone: LocalTimeZone
    /// Every timer the box arms, by name (TimerTable.swift).
    let timers: TimerTable<BoxTimer>
    var downloads: DownloadManager?
    /// The reminder (the box keeps it).
    var reminder: ReminderMachine { box.reminder }
    // The box's rules: the controls, the interface, the player and the ledger. Then the screen.
    var box = Box()
    var ui: Interface { box.interface }
    var model: InterfaceModel { box.model }
    var screen: ScreenDriver?
    /// The rest of the screen's side: the watcher, the scene builder, the preview, the screenshots.
    var panel = PanelSide()
    var controlServer: ControlServer?
    /// The controls: their backends, the jack, how many events they reported.
    var inputs = InputSide()
    /// The cues played and their samples; the watcher on the sound cards while the output is lost.
    var sounds = SoundSide()
    /// What the model is built from, cached between rebuilds (Daemon+Interface).
    var modelSources = ModelSources()
    /// The breathing timer running (the box keeps it).
    var breathingTimer: BreathingTimer? { box.silent.timer }
    /// The memory card: why nothing can be saved, the place last written, a deletion still to finish.
    var storage = StorageSide()
    /// System updates: the machine, the agent's folder, a failure to tell (Daemon+Update).
    var updates = UpdateSide()
    /// The Wi-Fi as wpa_supplicant tells it (Daemon+Wifi).
    var wifi = WifiSide()
    /// Held for the life of the process: no second daemon on this data folder.
    private let dataLock: DataDirectoryLock
    /// What systemd sees of the daemon: its notifications, the watchdog's pings, the start's timeline.
    var service: ServiceSide

    /// Where `--input terminal` reads its keys (standard input on the simulator).
    let terminalFD: Int32
    /// Told after each of the box's effects is performed: lifesim cuts the power between two of them (the
    /// card then holds what the effects before the cut wrote, whatever the handler went on to do).
    public var effectPerformed: (() -> Void)?
    /// The speaker (lifesim takes the paced one away and gives it back).
    public var audioSink: AudioSink { engine.sink }
    /// Values in 0 ..< 1 that spread the downloads' retries (a seeded source on virtual time: a life replays exactly).
    let random: () -> Double
    /// Whether the kernel says the wall clock is synchronised (NTP): the runs saved while it is not are
    /// dated again when it becomes so. lifesim's world decides it; on the box the kernel does.
    let clockSynchronized: () -> Bool

    /// `loop`: the loop to run on instead of one on the kernel's clocks (tests on virtual time, which drive
    /// it themselves: no signals are routed then, since the process's signals are not the daemon's).
    /// `terminalFD`: where `--input terminal` reads (a pipe such a test types into).
    /// `random`: the downloads' retry jitter. `clockSynchronized`: whether the wall clock is to be trusted.
    public init(options: DaemonOptions, environment: [String: String], logger: Logger, loop given: EventLoop? = nil,
                terminalFD: Int32 = STDIN_FILENO, random: @escaping () -> Double = { Double.random(in: 0..<1) },
                clockSynchronized: @escaping () -> Bool = { SystemClocks.isWallClockSynchronized() }) throws(StartupError) {
        service = ServiceSide(notifier: SystemdNotifier(environment: environment),
                              startTimeline: StartTimeline(exec: StartClock.exec(), main: StartClock.now()))
        self.options = options
        self.terminalFD = terminalFD
        self.random = random
        self.clockSynchronized = clockSynchronized
        self.logger = logger
        try Self.checkPaths(options)
        let dataProblem = Self.dataDirectoryProblem(options.dataDirectory)
        // A folder that cannot be used guards nothing (the box runs on in memory); one in use is refused.
        dataLock = try DataDirectoryLock.acquire(in: options.dataDirectory, required: dataProblem == nil)
        do {
            loop = try given ?? EventLoop(timeWarpFactor: options.timeWarp)
        } catch {
            throw StartupError("cannot create the event loop: \(error)")
        }
        timers = TimerTable(loop: loop)
        box = Box(clockTrusted: clockSynchronized())
        timeZone = LocalTimeZone(environment: environment, logger: logger)
        service.startTimeline.mark("set-up", at: StartClock.now())
        if dataProblem == nil { storage.roomKept = Self.keepRoomForTheDatabase(options, logger: logger) }
        (store, storage.problem) = Self.openStore(options, dataProblem: dataProblem, logger: logger, now: loop.wallNow)
        storage.problemOnAFullCard = storage.problem != nil && Self.cardIsFull(options)
        service.startTimeline.mark("database", at: StartClock.now())
        content = ContentLoader.load(directory: options.contentDirectory, store: store, logger: logger)
        service.startTimeline.mark("catalog", at: StartClock.now())
        settings = Self.loadSettings(store: store, logger: logger)
        engine = PlaybackEngine(sink: Self.makeSink(options, loop: loop, logger: logger), logger: logger,
                                lengths: { [store] path in Self.cachedLength(path, store: store) },
                                rememberLength: { [store] path, frames in Self.rememberLength(path, frames: frames, store: store) })
        timers.fired = { [unowned self] name in fired(name) }
        engine.onEvent = { [unowned self] event in apply(event) }
        engine.onHeard = { [unowned self] ranges in recordHeard(ranges) }
        startDownloads()
        // The resume offer is decided once downloaded sessions are known.
        box = Box(listening: Listening(player: restorePlayer()), clockTrusted: clockTrusted, reminder: restoreReminder())
        storage.checkpointOnCard = player.lastCheckpoint.map { ($0, nil) } // the place found on the card: its age unknown
        loop.onClockChange { [unowned self] in clockChanged() }
        timeZone.watch(loop: loop) { [unowned self] in
            applySettings()
            feed(.planReminder(timeZone.rules))
        }
        applySettings()
        replaceRefusedStoredSettings()
        finishPendingPurge(after: "start-up") // a deletion before a power cut, or on a full card
        do {
            controlServer = try ControlServer(path: options.socketPath, loop: loop, timeWarpFactor: options.timeWarp, log: { [logger] in logger.warning("control: \($0)") },
                                              handler: { [unowned self] request, peer in handle(request, from: peer).map(\.json) })
        } catch {
            throw StartupError("\(error)")
        }
        if given == nil {
            do {
                try loop.handleSignals([SIGTERM, SIGINT, SIGHUP]) { [unowned self] signal in handle(signal: signal) }
            } catch {
                throw StartupError("cannot route signals: \(error)")
            }
        }
        startWatchdog()
        service.startTimeline.mark("state and socket", at: StartClock.now())
        try startInput()
        service.startTimeline.mark("input", at: StartClock.now())
        startReminder()
        startUpdates()
        startWifiWatch()
        service.startTimeline.mark("reminder and watchers", at: StartClock.now())
        openOutputBeforeReady() // after the store, catalog and input, before the first frame: PLAY is real
        service.startTimeline.mark("output", at: StartClock.now())
        startInterface() // the screen itself is opened after READY=1 (announceReady)
        service.startTimeline.mark("interface", at: StartClock.now())
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        announceReady()
        do {
            try loop.run()
        } catch {
            logger.error("event loop failed: \(error)")
            service.exitStatus = 1
        }
        shutDown()
        return service.exitStatus
    }

    /// READY=1, what the first moments must say, and the log's line: PLAY is real from here.
    public func announceReady() {
        service.notifier.ready(status: "Ready")
        if storage.problem != nil { announceStorageProblem() }
        logger.notice("ready: \(content.catalog.sessions.count) sessions, output \(engine.sink.name)"
            + (options.simulator ? ", simulator" : "") + (options.timeWarp > 1 ? ", time warp ×\(options.timeWarp)" : ""))
        logger.info(service.startTimeline.summary)
        openDisplay()
        prepareSpeechAfterReady()
    }

    func handle(signal: Int32) {
        switch signal {
        case SIGTERM, SIGINT:
            stop(because: "on \(signal == SIGTERM ? "SIGTERM" : "SIGINT")")
        case SIGHUP:
            logger.notice("SIGHUP: reloading the catalog")
            content = ContentLoader.load(directory: options.contentDirectory, store: store, logger: logger)
        default:
            break
        }
    }

    /// A clean stop, said why ("stopping on SIGTERM"): the loop ends and `shutDown` saves the place.
    func stop(because reason: String) {
        logger.notice("stopping \(reason)")
        service.notifier.stopping()
        loop.stop()
    }

    func shutDown() {
        // Where the listener is, exactly, then the checkpoint the power-off would otherwise cost.
        if let position = engine.heardPosition { apply(.heard(positionFrame: position)) }
        apply(.shutdown)
        feed(.stopBreathingTimer)
        engine.stop()
        stopInput()
        stopInterface()
        downloads?.shutDown()
        controlServer?.shutDown()
        service.watchdogTimer?.cancel()
        timers.cancelAll()
        store.close()
        dataLock.release()
        logger.notice("stopped cleanly")
    }

    /// WATCHDOG=1 from the loop itself, at half of WATCHDOG_USEC: a wedged loop stops the pings.
    /// A turn longer than half a ping's interval is logged with its length: it brought the ping that much
    /// closer to too late, and the journal should say so before systemd's kill does.
    private func startWatchdog() {
        let slowTurn = service.notifier.watchdogInterval.map { $0 / 2 } ?? .seconds(2)
        let ofTheWatchdog = service.notifier.watchdogInterval.map { ", of the watchdog's \(TimeText.seconds(($0 * 2).seconds))" } ?? ""
        loop.reportSlowTurns(longerThan: slowTurn) { [logger] took in
            logger.warning("loop: one turn kept everything else waiting \(TimeText.seconds(took.seconds))\(ofTheWatchdog)")
        }
        guard let interval = service.notifier.watchdogInterval else { return }
        let timer = loop.makeTimer { [unowned self] in
            service.notifier.watchdog()
            service.watchdogTimer?.schedule(after: interval)
        }
        timer.schedule(after: interval)
        service.watchdogTimer = timer
    }

    // MARK: Start-up pieces

    /// Paths the box cannot run without. The data folder is not one: a read-only card still plays.
    private static func checkPaths(_ options: DaemonOptions) throws(StartupError) {
        try Directories.checkReadable(options.contentDirectory, purpose: "content directory")
        try Directories.checkReadableFile(options.contentDirectory + "/catalog.json", purpose: "catalog")
        try Directories.prepareWritable(Files.parent(of: options.socketPath), purpose: "socket directory")
        if case .png(let path, _) = options.display {
            try Directories.prepareWritable(Files.parent(of: path), purpose: "screenshot directory")
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

    /// Changes a setting: checks it, stores it, and only then applies it, so what the box does is always
    /// what a restart would find. A value the key does not take, or one the card has no room to save,
    /// leaves the setting as it was; the error says which.
    func change(setting key: String, to value: String) throws(SettingChangeError) {
        var changed = settings
        do {
            try changed.set(key, to: value)
        } catch {
            throw .refused(error)
        }
        do {
            try store.setSetting(key, to: changed.value(of: key), now: UnixMilliseconds(date: loop.wallNow))
        } catch {
            storeWriteFailed(error, "setting \(key)")
            throw .notSaved(key: key, kept: settings.value(of: key), error)
        }
        storeWriteWentThrough() // a card that had filled has room again
        settings = changed
        applySettings()
    }

    func applySettings() {
        let alone = settings.volumePolicy.voiceAloneVolume(headphones: player.headphonesConnected, night: isNight)
        engine.setGain(VolumePolicy.gain(forVolume: effectiveVolume), voiceAlone: VolumePolicy.gain(forVolume: alone))
    }

    private static func loadSettings(store: SQLiteStore, logger: Logger) -> Settings {
        let stored = ((try? store.allSettings()) ?? []).reduce(into: [String: String]()) { $0[$1.key] = $1.value }
        let settings = Settings(stored: stored)
        for problem in settings.problems { logger.warning(problem) }
        return settings
    }

    static func databasePath(_ options: DaemonOptions) -> String { options.dataDirectory + "/stillroom.db" }

    /// After a restart or a power cut: offer to resume the latest checkpoint, if its session is still on
    /// the box (bundled, or downloaded: from its kept entry, network or not).
    private func restorePlayer() -> PlayerMachine {
        guard let saved = try? store.latestCheckpoint() else { return PlayerMachine() }
        guard let id = try? ContentID(validating: saved.sessionID), let session = anySession(id), audioPath(of: session) != nil else {
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

    private static func makeSink(_ options: DaemonOptions, loop: EventLoop, logger: Logger) -> AudioSink {
        // "paced" is the simulator's speaker; "paced:4" plays four times faster than the loop's clock (which
        // `--time-warp` already speeds up: there plain "paced" keeps audio in step with every timer).
        if options.audioDevice == "paced" { return PacedSink(loop: loop) }
        if options.audioDevice.hasPrefix("paced:"), let speed = Double(options.audioDevice.dropFirst(6)), speed > 0 {
            return PacedSink(loop: loop, speed: speed)
        }
        let alsa = ALSASink(device: options.audioDevice, loop: loop)
        guard options.audioFallsBackToPaced else { return alsa }
        // The simulator on a desktop: heard when ALSA's default device opens (tried once, at the usual rate).
        do {
            try alsa.open(format: AudioFormat(sampleRate: 44_100))
            alsa.close()
            logger.notice("audio: playing through ALSA's \(options.audioDevice) device (--audio-device paced for a silent fake speaker)")
            return alsa
        } catch {
            logger.notice("audio: ALSA's \(options.audioDevice) device cannot be opened (\(error)); playing on the paced fake "
                + "speaker instead, silently (--audio-device NAME for another ALSA device)")
            return PacedSink(loop: loop)
        }
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
