import Glibc
import TestSupport
import Testing

/// The real stillroomd binary, started as a subprocess.
@Suite struct DaemonProcessTests {
    let binary = BuiltProducts.path("stillroomd")

    /// A content folder with a minimal valid catalog.
    func makeContent(in directory: TemporaryDirectory, extraSessions: String = "") -> String {
        let content = directory.file("content")
        runShell("mkdir -p '\(content)/sessions/tone'")
        runShell("cp '\(RepositoryPaths.fixture("audio/tone-2s-44k-mono.mp3"))' '\(content)/sessions/tone/audio.mp3'")
        Files.write("WEBVTT\n\n00:00.000 --> 00:02.000\nA tone.\n", to: content + "/sessions/tone/transcript.vtt")
        Files.write("{}", to: content + "/sessions/tone/provenance.json")
        Files.write("""
            {"schema": 1, "defaultSession": "tone", "sessions": [{
              "id": "tone", "title": "Tone", "theme": "focus", "description": "A test tone.",
              "durationSeconds": 2.0, "audio": "sessions/tone/audio.mp3",
              "transcript": "sessions/tone/transcript.vtt",
              "license": {"name": "CC0 1.0", "attribution": "Stillroom project"},
              "provenance": "sessions/tone/provenance.json"}\(extraSessions)], "sounds": []}
            """, to: content + "/catalog.json")
        return content
    }

    func arguments(_ directory: TemporaryDirectory, content: String) -> [String] {
        ["--data-dir", directory.file("data"), "--content-dir", content, "--display", "none",
         "--input", "none", "--socket", directory.file("run/control.sock")]
    }

    @Test func helpAndVersion() {
        let help = Subprocess.run(binary, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("Usage: stillroomd [options]"))
        let version = Subprocess.run(binary, ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.contains("alsa-lib 1.2"))
        #expect(version.stdout.contains("libmpg123"))
    }

    @Test func aBadFlagExitsTwoWithOneLineReason() {
        let result = Subprocess.run(binary, ["--display", "hdmi"])
        #expect(result.status == 2)
        #expect(result.stderr == "stillroomd: --display: expected drm[:DIR], png:PATH, png@WxH:PATH, memory[@WxH] or none, got \"hdmi\"\nTry 'stillroomd --help'.\n")
    }

    @Test func anUnusablePathExitsOneWithTheReason() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let content = makeContent(in: directory)
        let missing = Subprocess.run(binary, arguments(directory, content: directory.file("nowhere")))
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("<3>cannot start: content directory \(directory.file("nowhere")): No such file or directory"))

        // A data folder that cannot be used does not stop the box: it plays, and says nothing can be saved
        // (ReadOnlyCardTests has the card that fails for real).
        Files.write("not a folder", to: directory.file("plain"))
        let notify = NotifySocket(path: directory.file("notify"))
        let fileAsData = Subprocess(binary, ["--data-dir", directory.file("plain")] + arguments(directory, content: content).dropFirst(2),
                                    environment: ["NOTIFY_SOCKET": notify.path])
        #expect(notify.receive(until: "READY=1").last?.hasPrefix("READY=1") == true)
        fileAsData.signal(SIGTERM)
        #expect(fileAsData.wait() == 0)
        let log = fileAsData.readStderr()
        #expect(log.contains("<3>storage: the data folder \(directory.file("plain")) is not a folder"), "\(log)")
        #expect(log.contains("nothing could be read; starting with empty data in memory"), "\(log)")

        let noBoard = Subprocess.run(binary, arguments(directory, content: content).dropLast(4)
            + ["--input", "gpio", "--board", directory.file("none.conf"), "--socket", directory.file("s")])
        #expect(noBoard.status == 1)
        #expect(noBoard.stderr.contains("board file \(directory.file("none.conf")): No such file or directory"))
    }

    @Test func announcesReadinessAndStopsCleanlyOnSigterm() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let content = makeContent(in: directory)
        let notify = NotifySocket(path: directory.file("notify"))
        let daemon = Subprocess(binary, arguments(directory, content: content),
                                environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        let beforeReady = notify.receive(until: "READY=1")
        #expect(beforeReady.last?.hasPrefix("READY=1") == true)
        // The loop pings the watchdog by itself (every 100 ms here).
        #expect(notify.receive(until: "WATCHDOG=1").last == "WATCHDOG=1")
        daemon.signal(SIGTERM)
        #expect(notify.receive(until: "STOPPING=1").last == "STOPPING=1")
        #expect(daemon.wait() == 0)
        let log = daemon.readStderr()
        #expect(log.contains("<5>stopping on SIGTERM"))
        #expect(log.contains("<5>stopped cleanly"))
        // Every log line carries a priority prefix.
        for line in log.split(separator: "\n") { #expect(line.first == "<") }
        expectStartTimeline(in: log)
    }

    /// The READY line's companion says where the start's time went, from the kernel's exec: every stage
    /// named, each a whole number of milliseconds, adding up to the total (to rounding), and the total a
    /// start's length, not a clock misread (a start here is milliseconds; a minute would be a wrong clock).
    func expectStartTimeline(in log: String) {
        let line = log.split(separator: "\n").first { $0.hasPrefix("<6>start: ") }
        guard let line else { Issue.record("no start line in \(log)"); return }
        let words = line.dropFirst("<6>start: ".count).split(separator: " ", maxSplits: 5)
        #expect(words.count == 6 && words[1] == "ms" && words[2] == "from" && words[3] == "exec", "\(line)")
        let total = Int(words[0]) ?? -1
        #expect(total >= 0 && total < 60_000, "\(line)")
        let inside = words.last.map { $0.dropFirst("READY (".count).dropLast() } ?? ""
        let stages = inside.split(separator: ", ").map { part -> (String, Int) in
            let name = part.split(separator: " ").dropLast().joined(separator: " ")
            return (name, Int(part.split(separator: " ").last ?? "") ?? -1)
        }
        #expect(stages.map(\.0) == ["before main", "set-up", "database", "catalog", "state and socket", "input",
                                    "reminder and watchers", "output", "interface"], "\(line)")
        #expect(stages.allSatisfy { $0.1 >= 0 }, "\(line)")
        #expect(abs(stages.map(\.1).reduce(0, +) - total) <= stages.count, "\(line)")
    }

    /// Starts the daemon, waits for READY, stops it with SIGTERM and returns (status, log).
    func runOnce(_ directory: TemporaryDirectory, content: String) -> (Int32, String) {
        let notify = NotifySocket(path: directory.file("notify-\(UInt32.random(in: 0...UInt32.max))"))
        let daemon = Subprocess(binary, arguments(directory, content: content), environment: ["NOTIFY_SOCKET": notify.path])
        _ = notify.receive(until: "READY=1")
        daemon.signal(SIGTERM)
        let status = daemon.wait()
        return (status, daemon.readStderr())
    }

    @Test func aBadCatalogEntryIsReportedAndTheGoodOnesLoad() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let content = makeContent(in: directory, extraSessions: ", {\"id\": \"../evil\", \"title\": \"x\"}")
        let (status, log) = runOnce(directory, content: content)
        #expect(status == 0)
        #expect(log.contains("<4>content: catalog.json: sessions[1]: field \"id\": \"../evil\""))
        #expect(log.contains("ready: 1 sessions"))
    }

    @Test func aRecordingWhoseLengthDisagreesWithTheCatalogIsReportedButStillPlays() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let content = makeContent(in: directory)
        let catalog = String(decoding: Files.read(content + "/catalog.json"), as: UTF8.self)
        Files.write(catalog.split(separator: "2.0", maxSplits: 1).joined(separator: "9.5"), to: content + "/catalog.json")
        let (status, log) = runOnce(directory, content: content)
        #expect(status == 0)
        #expect(log.contains("<4>content: catalog.json: session \"tone\": field \"durationSeconds\""))
        #expect(log.contains("ready: 1 sessions"))
    }

    @Test func aDamagedDatabaseIsMovedAsideKeptAndReplaced() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let content = makeContent(in: directory)
        runShell("mkdir -p '\(directory.file("data"))'")
        Files.write("this is not a database, it is a power cut's leftovers", to: directory.file("data/stillroom.db"))
        let (status, log) = runOnce(directory, content: content)
        #expect(status == 0)
        #expect(log.contains("<3>database:"))
        let kept = Subprocess.run("/bin/sh", ["-c", "ls '\(directory.file("data"))'"]).stdout
        #expect(kept.contains("stillroom.db.damaged-"))
        let (again, secondLog) = runOnce(directory, content: content)
        #expect(again == 0)
        #expect(secondLog.contains("<6>database: opened the existing database"))
    }

    @Test func sigintStopsCleanlyToo() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let content = makeContent(in: directory)
        let notify = NotifySocket(path: directory.file("notify"))
        let daemon = Subprocess(binary, arguments(directory, content: content), environment: ["NOTIFY_SOCKET": notify.path])
        _ = notify.receive(until: "READY=1")
        daemon.signal(SIGINT)
        #expect(daemon.wait() == 0)
    }
}
