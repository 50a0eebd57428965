import ControlProtocol
import DeviceFakes
import FoundationEssentials
import Glibc
import StillroomCore
import StillroomDaemon
import TestSupport
import Testing

/// The daemon in this process on virtual time: the same `Daemon` the binary runs, from the same
/// arguments as `DaemonHarness`, on real files, real SQLite, real mpg123 and the paced speaker, with its
/// loop on a manual clock the test moves. Commands go through the control socket's own handler; a
/// restart is a clean stop and a new daemon on the same folders, the clock running on.
///
/// What it cannot show stays with `DaemonHarness` and the real binary: a kill -9, the socket and the CLI
/// themselves, signals, start-up as a process.
final class DrivenDaemon {
    let directory: TemporaryDirectory
    let content: String
    var extraArguments: [String]
    /// The daemon's environment (TZ for its local time).
    var environment: [String: String]
    let clock: ManualClock
    private(set) var virtual: VirtualLoop?
    private(set) var daemon: Daemon?
    private var logFD: Int32 = -1
    private var nextRequestID = 1

    /// `wallNow`: where the box's wall clock starts (ManualClock's default otherwise).
    init(content: String? = nil, extraArguments: [String] = [], environment: [String: String] = [:], wallNow: Date? = nil) {
        directory = TemporaryDirectory("stillroom-driven")
        self.extraArguments = extraArguments
        self.environment = environment
        clock = wallNow.map { ManualClock(wallNow: $0) } ?? ManualClock()
        self.content = content ?? DaemonHarness.makeSweepContent(in: directory)
    }

    deinit {
        if daemon != nil { stop() }
        directory.remove()
    }

    var dataDirectory: String { directory.file("data") }
    var logPath: String { directory.file("daemon.log") }

    var arguments: [String] {
        ["--data-dir", dataDirectory, "--content-dir", content, "--display", "none", "--input", "none",
         "--socket", directory.file("run/control.sock"), "--audio-device", "paced"] + extraArguments
    }

    /// Starts the daemon on a loop of its own (the clock going on from where it was) and lets the loop
    /// run what the start set in motion.
    func start() throws {
        precondition(daemon == nil, "already running")
        guard case .run(let options) = try DaemonOptions.parse(arguments) else {
            preconditionFailure("the arguments ask for no daemon")
        }
        logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        let loop = try VirtualLoop(clock: clock)
        virtual = loop
        daemon = try Daemon(options: options, environment: environment, logger: Logger(fd: logFD, threshold: .debug), loop: loop.loop)
        daemon?.announceReady()
        try loop.settle()
    }

    /// Stops the daemon as SIGTERM would; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        guard let running = daemon else { return 0 }
        let status = running.stopDriven()
        daemon = nil
        virtual = nil
        close(logFD)
        logFD = -1
        return status
    }

    /// Everything the daemon logged, across its starts.
    var log: String { String(decoding: Files.read(logPath), as: UTF8.self) }

    /// Answers `command` as the control socket would, then runs what the answer set in motion.
    @discardableResult
    func request(_ command: ControlCommand) -> Result<JSONValue, ControlError> {
        guard let daemon else { return .failure(ControlError(.failed, "not running")) }
        nextRequestID += 1
        let answer = daemon.answer(ControlRequest(id: nextRequestID, command))
        try? virtual?.settle()
        return answer
    }

    /// The answer's result, or `.null` for a refusal.
    func result(_ command: ControlCommand) -> JSONValue {
        (try? request(command).get()) ?? .null
    }

    func status() -> JSONValue { result(.status) }

    /// Moves virtual time on by `duration`; everything due on the way runs at its time.
    func advance(by duration: Duration) throws {
        try #require(virtual != nil, "not running")
        try virtual?.advance(by: duration)
    }

    /// Moves virtual time on until the status satisfies `condition`, for at most `limit` of it (a guard,
    /// not a timing: the expectations after it then fail on the last status). Returns the last status.
    @discardableResult
    func advance(until condition: (JSONValue) -> Bool, within limit: Duration = .seconds(3600)) throws -> JSONValue {
        let loop = try #require(virtual, "not running")
        _ = try loop.advance(until: { condition(status()) }, within: limit)
        return status()
    }

    /// Practice the box has kept, from the same CSV export the CLI prints.
    var practiceKept: PracticeKept {
        PracticeKept(csv: HistoryExportReport(json: result(.history(.export(.csv)))).text)
    }
}
