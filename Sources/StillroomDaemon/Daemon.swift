import EventLoop
import FoundationEssentials
import Glibc
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
    private var watchdogTimer: LoopTimer?
    private(set) var exitStatus: Int32 = 0

    public init(options: DaemonOptions, environment: [String: String], logger: Logger) throws(StartupError) {
        self.options = options
        self.logger = logger
        try Self.checkPaths(options)
        do {
            loop = try EventLoop()
        } catch {
            throw StartupError("cannot create the event loop: \(error)")
        }
        notifier = SystemdNotifier(environment: environment)
        do {
            try loop.handleSignals([SIGTERM, SIGINT, SIGHUP]) { [unowned self] signal in handle(signal: signal) }
        } catch {
            throw StartupError("cannot route signals: \(error)")
        }
        startWatchdog()
    }

    /// Runs until SIGTERM or SIGINT; returns the exit status.
    public func run() -> Int32 {
        notifier.ready(status: "Ready")
        logger.notice("ready: data \(options.dataDirectory), content \(options.contentDirectory)"
            + (options.simulator ? ", simulator" : ""))
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
            reloadContent()
        default:
            break
        }
    }

    func reloadContent() {}

    private func shutDown() {
        watchdogTimer?.cancel()
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

    private static func checkPaths(_ options: DaemonOptions) throws(StartupError) {
        try Directories.prepareWritable(options.dataDirectory, purpose: "data directory")
        try Directories.checkReadable(options.contentDirectory, purpose: "content directory")
        try Directories.checkReadableFile(options.contentDirectory + "/catalog.json", purpose: "catalog")
        try Directories.prepareWritable(Directories.parent(of: options.socketPath), purpose: "socket directory")
        if case .png(let path) = options.display {
            try Directories.prepareWritable(Directories.parent(of: path), purpose: "screenshot directory")
        }
        if options.input == .gpio || options.input == .evdev {
            try Directories.checkReadableFile(options.boardFile, purpose: "board file")
        }
    }
}
