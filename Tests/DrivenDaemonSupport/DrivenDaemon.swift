import ControlProtocol
import ControlSocket
import DeviceFakes
import EventLoop
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
/// The real CLI works against it too (`ctl`): stillroomctl runs as a process on the daemon's real control
/// socket while the test runs the daemon's loop, without moving its time, until the CLI has exited.
///
/// What it cannot show stays with `DaemonHarness` and the real binary: a kill -9, signals, start-up as a
/// process, descriptors and memory over hours.
public final class DrivenDaemon {
    public let directory: TemporaryDirectory
    public let content: String
    public var extraArguments: [String]
    /// The daemon's environment (TZ for its local time).
    public var environment: [String: String]
    public let clock: ManualClock
    public private(set) var virtual: VirtualLoop?
    public private(set) var daemon: Daemon?
    private var logFD: Int32 = -1
    private var nextRequestID = 1

    /// `wallNow`: where the box's wall clock starts (ManualClock's default otherwise).
    public init(content: String? = nil, extraArguments: [String] = [], environment: [String: String] = [:], wallNow: Date? = nil) {
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

    public var dataDirectory: String { directory.file("data") }
    public var logPath: String { directory.file("daemon.log") }

    public var socketPath: String { directory.file("run/control.sock") }
    /// The daemon's `--audio-device` ("paced" plays at the loop's speed; "paced:8" eight times faster).
    public var daemonAudioDevice = "paced"

    public var arguments: [String] {
        ["--data-dir", dataDirectory, "--content-dir", content, "--display", "none", "--input", "none",
         "--socket", socketPath, "--audio-device", daemonAudioDevice, "--content-keys", RepositoryPaths.developmentContentKeys] + extraArguments
    }

    /// The pipe `--input terminal` reads its keys from (`typeKeys`), while running with `keys`.
    private var keysPipe: (read: Int32, write: Int32)?

    /// Starts the daemon on a loop of its own (the clock going on from where it was) and lets the loop
    /// run what the start set in motion. With `keys`, `--input terminal` reads a pipe `typeKeys` writes.
    public func start(keys: Bool) throws {
        if keys {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } // not inherited by a CLI the test runs
            keysPipe = (ends[0], ends[1])
        }
        try start()
    }

    /// Types keys on the daemon's terminal `after` a person's pause, and runs what they set in motion.
    /// The pause is what real time gives a test of the real binary for free: keys never come in the very
    /// instant the last ones were handled, and a press that soon after a release is a bounce to the box.
    public func typeKeys(_ keys: String) { typeKeys(keys, after: keyPause) }

    /// The pause before each `typeKeys`. The terminal's held gestures (K, L, G, F) let go up to 3.5 s
    /// after they are typed: a test that types one and then another key sets it longer than that.
    public var keyPause: Duration = .milliseconds(250)

    public func typeKeys(_ keys: String, after pause: Duration) {
        guard let keysPipe else { preconditionFailure("started without keys") }
        try? virtual?.advance(by: pause)
        _ = keys.utf8CString.withUnsafeBufferPointer { write(keysPipe.write, $0.baseAddress, $0.count - 1) }
        try? virtual?.settle()
    }

    public func start() throws {
        precondition(daemon == nil, "already running")
        guard case .run(let options) = try DaemonOptions.parse(arguments) else {
            preconditionFailure("the arguments ask for no daemon")
        }
        logFD = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        let loop = try VirtualLoop(clock: clock)
        virtual = loop
        daemon = try Daemon(options: options, environment: environment, logger: Logger(fd: logFD, threshold: .debug), loop: loop.loop,
                            terminalFD: keysPipe?.read ?? -1)
        daemon?.announceReady()
        try loop.settle()
    }

    /// Starts it with `environment` (TZ) instead of the one it was made with.
    public func start(environment: [String: String]) throws {
        self.environment = environment
        try start()
    }

    /// Stops the daemon as SIGTERM would; returns the exit status and everything logged so far.
    @discardableResult
    public func stop() -> (status: Int32, log: String) {
        guard let running = daemon else { return (0, log) }
        let status = running.stopDriven()
        daemon = nil
        virtual = nil
        close(logFD)
        logFD = -1
        if let keysPipe {
            close(keysPipe.read)
            close(keysPipe.write)
        }
        keysPipe = nil
        return (status, log)
    }

    /// Runs the real stillroomctl with the daemon's socket, data and content folders, running the
    /// daemon's loop (its time standing still) until the CLI has closed its output and exited. With the
    /// daemon stopped, the CLI answers alone, as on the box.
    @discardableResult
    public func ctl(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) { ctl(arguments) }

    public func ctl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let process = Subprocess(BuiltProducts.path("stillroomctl"),
                                 ["--socket", socketPath, "--data-dir", dataDirectory, "--content-dir", content] + arguments)
        guard let loop = virtual?.loop else {
            let out = process.readStdout(), err = process.readStderr()
            return (process.wait(), out, err)
        }
        var output: [Int32: [UInt8]] = [:]
        var open: Set<Int32> = [process.stdoutFD, process.stderrFD]
        var watches: [IOWatch] = []
        for fd in open {
            output[fd] = []
            watches.append(try! loop.watch(fd, for: .readable) { _ in
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &chunk, chunk.count)
                if count > 0 { output[fd, default: []] += chunk[..<count] } else if count == 0 || errno != EINTR { open.remove(fd) }
            })
        }
        while !open.isEmpty {
            // A minute with nothing at all from the CLI or the daemon: an answer waiting on the daemon's
            // own time, which stands still here. A guard, not a timing: the test fails on it.
            if (try? loop.runOnce(timeout: .seconds(60))) == 0 {
                Issue.record("stillroomctl \(arguments.joined(separator: " ")): no answer while the daemon's time stood still")
                process.signal(SIGKILL)
            }
        }
        for watch in watches { watch.cancel() }
        let status = process.wait()
        try? virtual?.settle()
        return (status, String(decoding: output[process.stdoutFD] ?? [], as: UTF8.self),
                String(decoding: output[process.stderrFD] ?? [], as: UTF8.self))
    }

    /// Moves virtual time on, deadline by deadline, until `condition` holds on the status as
    /// `stillroomctl status --json` prints it (for at most an hour of it: a guard, not a timing). Giving up
    /// fails the test at the caller's line. (For a test that reads the CLI's text; `advance(until:)` reads
    /// the status itself.)
    @discardableResult
    public func waitForStatus(within limit: Duration = .seconds(3600), sourceLocation: SourceLocation = #_sourceLocation,
                              _ condition: (String) -> Bool) -> String {
        func text() -> String { ControlCodec.json(status().json) }
        let met = (try? virtual?.advance(until: { condition(text()) }, within: limit)) ?? false
        if met != true {
            Issue.record("the status waited for never came within \(limit) of the box's time; the last: \(text().prefix(800))",
                         sourceLocation: sourceLocation)
        }
        return text()
    }

    /// Everything the daemon logged, across its starts.
    public var log: String { String(decoding: Files.read(logPath), as: UTF8.self) }

    /// Answers `command` as the control socket would, then runs what the answer set in motion.
    @discardableResult
    public func request(_ command: ControlCommand) -> Result<ControlReply, ControlError> {
        guard let daemon else { return .failure(ControlError(.failed, "not running")) }
        nextRequestID += 1
        let answer = daemon.answer(ControlRequest(id: nextRequestID, command))
        try? virtual?.settle()
        return answer
    }

    /// Answers a request as it came off the socket, whatever it says (a client that is not stillroomctl).
    @discardableResult
    public func request(raw request: ControlRequest, uid: UInt32 = 0) -> Result<ControlReply, ControlError> {
        guard let daemon else { return .failure(ControlError(.failed, "not running")) }
        let answer = daemon.answer(request, from: PeerCredentials(pid: 1, uid: uid, gid: uid))
        try? virtual?.settle()
        return answer
    }

    /// The answer, or nil for a refusal.
    public func result(_ command: ControlCommand) -> ControlReply? {
        try? request(command).get()
    }

    /// The status, as the daemon answers it (the typed values the socket's JSON is made from).
    public func status() -> StatusReport {
        guard let report = result(.status)?.status else { preconditionFailure("status answered without the status") }
        return report
    }

    /// Moves virtual time on by `duration`; everything due on the way runs at its time.
    public func advance(by duration: Duration) throws {
        try #require(virtual != nil, "not running")
        try virtual?.advance(by: duration)
    }

    /// Moves virtual time on until the status satisfies `condition`, for at most `limit` of it (a guard,
    /// not a timing: the expectations after it then fail on the last status). Returns the last status.
    @discardableResult
    public func advance(until condition: (StatusReport) -> Bool, within limit: Duration = .seconds(3600),
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> StatusReport {
        let loop = try #require(virtual, "not running")
        if try !loop.advance(until: { condition(status()) }, within: limit) {
            let last = String(ControlCodec.json(status().json).prefix(800))
            Issue.record("the status waited for never came within \(limit) of the box's time; the last: \(last)",
                         sourceLocation: sourceLocation)
        }
        return status()
    }
}

extension StatusReport {
    /// What only a running daemon reports: always there for the daemon in this process.
    public var observed: Observed {
        guard let live else { preconditionFailure("a status without the daemon's own fields") }
        return live.observed
    }
}

/// The answers the tests read, by kind (nil when the daemon answered with another).
extension ControlReply {
    /// The status, when that is what was answered (most commands that change the player answer with it).
    public var status: StatusReport? {
        if case .status(let report) = self { return report }
        return nil
    }

    public var timer: TimerReport? {
        if case .timer(let report) = self { return report }
        return nil
    }

    public var reminder: ReminderReport? {
        if case .reminder(let report) = self { return report }
        return nil
    }

    public var recentRuns: RecentRunsReport? {
        if case .recentRuns(let report) = self { return report }
        return nil
    }

    public var screenshot: ScreenshotReport? {
        if case .screenshot(let report) = self { return report }
        return nil
    }
}
