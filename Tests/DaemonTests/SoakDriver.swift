import Glibc
import StillroomCore
import TestSupport
import Testing

/// Drives the real stillroomd (paced speaker, terminal keys on a pipe, no screen, the real SQLite store in
/// a temporary folder) under `--time-warp` through cycles of a day's use, and samples what a leak would
/// grow: resident memory, open descriptors, the database files. The driver runs in real time; the daemon
/// lives `warp` times faster, so "wait a warped minute" is a real sleep of 60 / warp seconds.
final class SoakDriver {
    /// One look at the daemon from outside, between cycles (the box idle, the screen off).
    struct Sample {
        var cycle: Int
        var warpedHours: Double
        var rssKB: Int
        var peakKB: Int
        var descriptors: Int
        var databaseBytes: Int
        var walBytes: Int
    }

    let warp: Int
    let screen: String?
    let harness: DaemonHarness
    let logPath: String
    private(set) var samples: [Sample] = []
    /// Descriptor targets at the first and second samples (before any use, after one cycle), to say what
    /// a cycle left open.
    private(set) var firstDescriptors: [String] = []
    private(set) var warmDescriptors: [String] = []
    private(set) var cycles = 0
    private(set) var sessionSecondsPlayed = 0.0
    private(set) var timerSecondsRun = 0.0
    private(set) var keyResumes = 0
    /// Warped seconds from each session's start to its end, and the listening plus pauses they held: more
    /// than the second means the speaker did not keep up with the warp (it then plays silence; positions
    /// and practice stay right, the day just holds fewer sessions).
    private(set) var sessionWarpedSeconds = 0.0
    private(set) var sessionPlannedSeconds = 0.0
    private var startWall = 0.0
    static let sessions = ["steady-breath", "tide-breath", "counting-breaths", "sounds-around", "body-scan", "setting-down-the-day"]

    /// `screen` draws the interface to a PNG of that size (WxH) in the temporary folder; nil: no screen.
    init(warp: Int, screen: String? = nil) {
        self.warp = warp
        self.screen = screen
        harness = DaemonHarness(content: RepositoryPaths.content,
                                extraArguments: ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf",
                                                 "--time-warp", String(warp)])
        if let screen { harness.extraArguments += ["--display", "png@\(screen):" + harness.directory.file("screen.png")] }
        logPath = harness.directory.file("daemon.log")
        // The log goes to a file: a day of lines would fill a pipe nobody reads and block the daemon.
        harness.wrapper = ["/bin/sh", "-c", "exec \"$@\" 2>>'\(logPath)'", "sh"]
    }

    func start() {
        harness.start(environment: ["TZ": "UTC"], keys: true)
        startWall = warpedWallTime
    }

    /// Stops the daemon; its exit status and log.
    func stop() -> (status: Int32, log: String) {
        let status = harness.stop().status
        return (status, String(decoding: Files.read(logPath), as: UTF8.self))
    }

    var pid: pid_t { harness.daemon?.pid ?? 0 }

    /// The box's (warped) wall time, as its status reports it.
    var warpedWallTime: Double { status()["timeWarp"]?["wallTime"]?.doubleValue ?? 0 }

    var warpedHoursElapsed: Double { (warpedWallTime - startWall) / 3600 }

    /// Lets `seconds` of the daemon's time pass: the length of a person's pause or listen in the cycle's
    /// script, not a synchronisation (every check waits for what the daemon reports instead).
    func wait(warpedSeconds seconds: Double) {
        usleep(UInt32(seconds / Double(warp) * 1_000_000))
    }

    /// Commands go through stillroomctl, as a person's would; the driver's many looks at the status go
    /// over one connection of its own: a process per look would cost warped minutes each.
    private var statusClient: RawSocketClient?
    private var requestID = 0

    func request(_ command: String) -> JSONValue {
        if statusClient == nil { statusClient = RawSocketClient(path: harness.socketPath) }
        requestID += 1
        statusClient?.send("{\"v\":1,\"id\":\(requestID),\"command\":\"\(command)\"}\n")
        return statusJSON(statusClient?.readLines(1).first ?? "")["result"] ?? .null
    }

    func status() -> JSONValue { request("status") }

    /// Looks until `what` holds (every 2 ms of real time: a second or so of warped time), giving up after
    /// 30,000 looks (a guard against a hang, not a timing), which fails the test at the caller's line
    /// unless the caller is ready for it (`required: false`: it reads the status returned).
    @discardableResult
    func waitFor(required: Bool = true, sourceLocation: SourceLocation = #_sourceLocation, _ what: (JSONValue) -> Bool) -> JSONValue {
        for _ in 0..<30_000 {
            let seen = status()
            if what(seen) { return seen }
            usleep(2_000)
        }
        let last = status()
        if required { Issue.record("the soak's status waited for never came; the last: \(last)", sourceLocation: sourceLocation) }
        return last
    }

    /// One cycle of use, warped: a session with a pause, seeks both ways, the headphones pulled and put
    /// back, played to its end; a one-minute breathing timer; the daily reminder moved a few minutes
    /// ahead; then twenty idle minutes in which the screen dims and goes dark.
    func runCycle() {
        let session = Self.sessions[cycles % Self.sessions.count]
        harness.ctl("play", session)
        let playing = waitFor { $0["state"]?.stringValue == "playing" }
        let startedAt = playing["timeWarp"]?["wallTime"]?.doubleValue ?? 0
        let duration = playing["duration"]?.doubleValue ?? 0
        sessionSecondsPlayed += duration
        wait(warpedSeconds: 60)
        harness.ctl("pause")
        waitFor { $0["state"]?.stringValue == "paused" }
        wait(warpedSeconds: 20)
        harness.ctl("resume")
        waitFor { $0["state"]?.stringValue == "playing" }
        wait(warpedSeconds: 30)
        harness.ctl("seek", "+30")
        wait(warpedSeconds: 30)
        harness.ctl("seek", "-15")
        wait(warpedSeconds: 30)
        harness.typeKeys("j") // headphones out: the player pauses at once
        waitFor { $0["headphones"]?.boolValue == false && $0["state"]?.stringValue == "paused" }
        wait(warpedSeconds: 10)
        harness.typeKeys("j") // back in; PLAY (space) carries on
        waitFor { $0["headphones"]?.boolValue == true }
        harness.typeKeys(" ")
        if waitFor(required: false, { $0["state"]?.stringValue != "paused" })["state"]?.stringValue == "paused" {
            harness.ctl("resume") // the key did not resume (the screen was elsewhere): still carry on
        } else {
            keyResumes += 1
        }
        let ended = waitFor { $0["state"]?.stringValue == "ended" }
        sessionWarpedSeconds += (ended["timeWarp"]?["wallTime"]?.doubleValue ?? 0) - startedAt
        sessionPlannedSeconds += duration - 15 + 20 + 10 // the seeks skip 15 s; paused 20 s, then 10 s unplugged
        harness.ctl("timer", "start", "--minutes", "1")
        var looks = 0
        while request("timer")["running"] != .bool(false) && looks < 30_000 {
            usleep(2_000)
            looks += 1
        }
        timerSecondsRun += 60
        let due = warpedWallTime + 180
        let minute = Int(due) % 86_400 / 60
        harness.ctl("reminder", "set", "\(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)")
        wait(warpedSeconds: 20 * 60)
        cycles += 1
        sample()
    }

    /// Reads the daemon's memory, descriptors and database files.
    func sample() {
        // A stillroomctl that just exited leaves its connection readable (at end of file) on the daemon's
        // side until the loop closes it. One request over our own connection, answered, means the loop has
        // been round since: the hang-up, ready before our request, was handled in the same or an earlier
        // iteration. Then the count is read, once.
        _ = status()
        let descriptors = Self.descriptorTargets(pid)
        if samples.isEmpty { firstDescriptors = descriptors }
        if samples.count == 1 { warmDescriptors = descriptors }
        let memory = Self.statusFields(pid)
        let database = harness.dataDirectory + "/stillroom.db"
        samples.append(Sample(cycle: cycles, warpedHours: warpedHoursElapsed, rssKB: memory["VmRSS"] ?? 0, peakKB: memory["VmHWM"] ?? 0,
                              descriptors: descriptors.count, databaseBytes: Self.size(database), walBytes: Self.size(database + "-wal")))
    }

    static func statusFields(_ pid: pid_t) -> [String: Int] {
        var fields: [String: Int] = [:]
        for line in String(decoding: Files.read("/proc/\(pid)/status"), as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            fields[String(parts[0])] = Int(parts[1].split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return fields
    }

    /// Where each open descriptor points ("socket:[123]", "/path/file", "anon_inode:[timerfd]").
    static func descriptorTargets(_ pid: pid_t) -> [String] {
        guard let directory = opendir("/proc/\(pid)/fd") else { return [] }
        defer { closedir(directory) }
        var targets: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            var buffer = [CChar](repeating: 0, count: 512)
            let count = readlink("/proc/\(pid)/fd/\(name)", &buffer, buffer.count - 1)
            targets.append(count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?")
        }
        return targets.sorted()
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Practice the box recorded, every run (the CSV export; `history recent` lists only the last 20).
    func practiceRecorded() -> PracticeKept { PracticeKept(harness) }

    /// Seconds of recordings the daemon says its speaker played since it started.
    var heardSeconds: Double { status()["heardSeconds"]?.doubleValue ?? -1 }
}
