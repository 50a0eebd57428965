import Glibc
import Testing

/// The real stillroomd as a subprocess on temporary folders, and the real stillroomctl against it.
public final class DaemonHarness {
    public let directory: TemporaryDirectory
    public let content: String
    public var daemon: Subprocess?
    public var extraArguments: [String]
    /// The daemon's `--audio-device` ("paced" plays in real time; "paced:8" eight times faster; empty: none
    /// given, the daemon's own choice).
    public var daemonAudioDevice = "paced"
    /// A command the daemon runs under (for example `unshare --net`).
    public var wrapper: [String] = []
    /// The daemon run: the built one, or a test's copy of it.
    public var binary = BuiltProducts.path("stillroomd")
    private var notify: NotifySocket?
    private var starts = 0

    /// `content` defaults to a folder holding the 3-second sweep fixture as session "sweep" and the
    /// 20-second one as "long".
    public init(content: String? = nil, extraArguments: [String] = []) {
        directory = TemporaryDirectory("stillroom-daemon")
        self.extraArguments = extraArguments
        self.content = content ?? Self.makeSweepContent(in: directory)
    }

    deinit {
        stop()
        directory.remove()
    }

    public var socketPath: String { directory.file("run/control.sock") }
    public var dataDirectory: String { directory.file("data") }

    public var daemonArguments: [String] {
        ["--data-dir", dataDirectory, "--content-dir", content, "--display", "none", "--input", "none",
         "--socket", socketPath, "--content-keys", RepositoryPaths.developmentContentKeys] + (daemonAudioDevice.isEmpty ? [] : ["--audio-device", daemonAudioDevice]) + extraArguments
    }

    /// Starts the daemon and waits for READY=1. With `keys`, its stdin is a pipe (`typeKeys`).
    public func start(environment: [String: String] = [:], keys: Bool = false) {
        launch(environment: environment, keys: keys)
        _ = waitForReadyNotification()
    }

    /// Starts the daemon without waiting for anything (a test that watches its start-up itself).
    public func launch(environment: [String: String] = [:], keys: Bool = false) {
        starts += 1
        let socket = NotifySocket(path: directory.file("notify-\(starts)"))
        notify = socket
        var env = environment
        env["NOTIFY_SOCKET"] = socket.path
        let command = wrapper + [binary] + daemonArguments
        daemon = Subprocess(command[0], Array(command.dropFirst()), environment: env, stdinPipe: keys)
    }

    /// What the daemon has told systemd so far and not yet read here, without waiting.
    public func pendingNotifications() -> [String] { notify?.pending() ?? [] }

    /// What the daemon told systemd up to and including READY=1 (already sent, or waited for).
    public func waitForReadyNotification() -> [String] {
        notify?.receive(until: "READY=1") ?? []
    }

    /// Types keys on the daemon's terminal (for `--input terminal`).
    public func typeKeys(_ keys: String) { daemon?.writeStdin(keys) }

    /// SIGTERM and wait; returns the exit status and the log.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM) -> (status: Int32, log: String) {
        guard let daemon else { return (0, "") }
        daemon.signal(signal)
        let status = daemon.wait()
        let log = daemon.readStderr()
        self.daemon = nil
        return (status, log)
    }

    /// Runs stillroomctl with the harness's socket, data and content folders.
    @discardableResult
    public func ctl(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) {
        ctl(arguments)
    }

    public func ctl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        Subprocess.run(BuiltProducts.path("stillroomctl"),
                       ["--socket", socketPath, "--data-dir", dataDirectory, "--content-dir", content] + arguments)
    }

    /// Polls `stillroomctl status --json` until `condition` holds on its output (a state change the
    /// daemon makes by itself, like reaching the end). Each poll is a real request; no sleeping.
    /// Gives up after `attempts` polls (a guard against a hang, not a timing), and giving up fails the
    /// test at the caller's line: a wait whose result nobody reads can no longer pass by timing out.
    @discardableResult
    public func waitForStatus(attempts: Int = 3000, sourceLocation: SourceLocation = #_sourceLocation,
                              _ condition: (String) -> Bool) -> String {
        var status = ""
        for _ in 0..<attempts {
            status = ctl("status", "--json").stdout
            if condition(status) { return status }
            usleep(20_000) // 20 ms between polls keeps the daemon's loop free; not an assertion on time
        }
        Issue.record("the status waited for never came (\(attempts) polls); the last: \(status.prefix(800))", sourceLocation: sourceLocation)
        return status
    }

    public static func makeSweepContent(in directory: TemporaryDirectory) -> String {
        let content = directory.file("content")
        for (id, fixture) in [("sweep", "sweep-3s-44k-mono.mp3"), ("long", "sweep-20s-44k-mono.mp3")] {
            runShell("mkdir -p '\(content)/sessions/\(id)'")
            runShell("cp '\(RepositoryPaths.fixture("audio/" + fixture))' '\(content)/sessions/\(id)/audio.mp3'")
            Files.write("{}", to: content + "/sessions/\(id)/provenance.json")
        }
        Files.write("WEBVTT\n\n00:00.000 --> 00:01.500\nA rising sound.\n\n00:01.500 --> 00:03.000\nStill rising.\n",
                    to: content + "/sessions/sweep/transcript.vtt")
        Files.write("WEBVTT\n\n00:00.000 --> 00:20.000\nA long rise.\n", to: content + "/sessions/long/transcript.vtt")
        Files.write("""
            {"schema": 1, "defaultSession": "sweep", "sessions": [{
              "id": "sweep", "title": "Sweep", "theme": "focus", "description": "A rising test sweep.",
              "durationSeconds": 3.0, "audio": "sessions/sweep/audio.mp3",
              "transcript": "sessions/sweep/transcript.vtt",
              "license": {"name": "CC0 1.0", "attribution": "Stillroom project"},
              "provenance": "sessions/sweep/provenance.json"}, {
              "id": "long", "title": "Long sweep", "theme": "breathe", "description": "A twenty-second test sweep.",
              "durationSeconds": 20.0, "audio": "sessions/long/audio.mp3",
              "transcript": "sessions/long/transcript.vtt",
              "license": {"name": "CC0 1.0", "attribution": "Stillroom project"},
              "provenance": "sessions/long/provenance.json"}], "sounds": []}
            """, to: content + "/catalog.json")
        return content
    }
}
