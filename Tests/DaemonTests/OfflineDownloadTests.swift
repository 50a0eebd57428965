import ControlProtocol
import CryptoHash
import Glibc
import StillroomCore
import TestSupport
import Testing

/// Downloaded sessions across a box's life: restarts with no network (the daemon in a network namespace
/// of its own, where nothing answers), kill -9, a manifest that drops a session, removal. Found by using
/// the box: a downloaded session vanished after a reboot without Wi-Fi, and with it its resume offer.
@Suite struct OfflineDownloadTests {
    /// A download source on loopback with two sessions, "far-sweep" (20 s) and "near-sweep" (3 s).
    final class Source {
        let folder: String
        var server: Subprocess?
        var manifestURL = ""

        init(in directory: TemporaryDirectory) {
            folder = directory.file("remote")
            let sessions = [("far-sweep", "Far sweep", "sweep-20s-44k-mono.mp3", 20.0), ("near-sweep", "Near sweep", "sweep-3s-44k-mono.mp3", 3.0)]
            var entries: [String] = []
            for (id, title, fixture, seconds) in sessions {
                runShell("mkdir -p '\(folder)/\(id)'")
                let audio = Files.read(RepositoryPaths.fixture("audio/" + fixture))
                Files.write(audio, to: "\(folder)/\(id)/audio.mp3")
                Files.write("WEBVTT\n\n00:00.000 --> 00:03.000\n\(title), the words.\n", to: "\(folder)/\(id)/transcript.vtt")
                Files.write("{}", to: "\(folder)/\(id)/provenance.json")
                entries.append("""
                    {"id": "\(id)", "title": "\(title)", "theme": "unwind", "description": "A downloadable test sweep.",
                     "durationSeconds": \(seconds), "remote": {"url": "\(id)/audio.mp3", "bytes": \(audio.count),
                     "sha256": "\(SHA256Hasher.digest(audio).hex)"}, "transcript": "\(id)/transcript.vtt",
                     "provenance": "\(id)/provenance.json", "license": {"name": "CC0 1.0", "attribution": "Stillroom project"},
                     \(RemoteSessionServer.sideFileDigests(in: "\(folder)/\(id)"))}
                    """)
            }
            allEntries = entries
            writeManifest(entries)
        }

        private var allEntries: [String] = []
        /// Each list written is a new version, as a publisher's would be (serve-content signs it).
        private var version = 0

        func writeManifest(_ entries: [String]) {
            version += 1
            Files.write("{\"schema\": 1, \"version\": \(version), \"sessions\": [\(entries.joined(separator: ","))]}", to: folder + "/manifest.json")
        }

        /// The manifest without `id`: the source no longer offers it.
        func withdraw(_ id: String) { writeManifest(allEntries.filter { !$0.contains("\"id\": \"\(id)\"") }) }

        func start() throws {
            let process = Subprocess("/usr/bin/python3", [RepositoryPaths.root + "/scripts/serve-content", "--port", "0", "--dir", folder])
            server = process
            let announced = try #require(process.readStderrLine())
            let port = try #require(announced.split(separator: ":").last.map { $0.filter(\.isNumber) })
            manifestURL = "http://127.0.0.1:\(port)/manifest.json"
        }

        func stop() {
            server?.signal(SIGTERM)
            _ = server?.wait()
            server = nil
        }

        deinit { stop() }
    }

    /// A daemon with `source` configured, and far-sweep downloaded.
    func boxWithADownload() throws -> (DaemonHarness, Source) {
        let harness = DaemonHarness()
        let source = Source(in: harness.directory)
        try source.start()
        harness.extraArguments = ["--manifest", source.manifestURL]
        harness.start()
        _ = harness.waitForStatus(attempts: 1000) { _ in harness.ctl("sessions").stdout.contains("far-sweep") }
        #expect(harness.ctl("download", "far-sweep").status == 0)
        _ = harness.waitForStatus(attempts: 2000) { _ in harness.ctl("show", "far-sweep").stdout.contains("On this box") }
        return (harness, source)
    }

    /// Restarts the daemon where no network exists at all.
    func restartOffline(_ harness: DaemonHarness, signal: Int32 = SIGTERM) {
        harness.stop(signal: signal)
        harness.wrapper = ["/usr/bin/unshare", "--net"]
        harness.start()
    }

    @Test func aDownloadedSessionPlaysAndShowsAfterARestartWithNoNetwork() throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "scripts/serve-content needs /usr/bin/python3") else { return }
        try #require(Subprocess.run("/usr/bin/unshare", ["--net", "/bin/true"]).status == 0, "unshare --net is needed")
        let (harness, source) = try boxWithADownload()
        restartOffline(harness)
        let sessions = harness.ctl("sessions").stdout
        #expect(sessions.contains("far-sweep") && sessions.contains("Far sweep  (on this box)"), "\(sessions)")
        #expect(harness.ctl("sessions", "--offline").stdout.contains("Far sweep"))
        // Not downloaded, still listed from the kept manifest, marked as needing the network.
        let near = sessions.split(separator: "\n").first { $0.contains("near-sweep") } ?? ""
        #expect(near.contains("Near sweep  (download") && near.hasSuffix("when online)"), "\(sessions)")
        let show = harness.ctl("show", "far-sweep").stdout
        #expect(show.contains("Far sweep (far-sweep)") && show.contains("Licence: CC0 1.0"), "\(show)")
        #expect(harness.ctl("play", "far-sweep").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing && statusReport($0).position >= 1 }
        #expect(statusReport(playing).session == "far-sweep", "\(playing)")
        #expect(statusReport(playing).title == "Far sweep", "\(playing)")
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("sessions listed by the kept copy of"), "\(log)")
        source.stop()
    }

    @Test(arguments: [(SIGTERM, true), (SIGKILL, true), (SIGTERM, false), (SIGKILL, false)])
    func aPausedDownloadedSessionIsOfferedForResumeAfterARestart(signal: Int32, offline: Bool) throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "scripts/serve-content needs /usr/bin/python3") else { return }
        try #require(Subprocess.run("/usr/bin/unshare", ["--net", "/bin/true"]).status == 0, "unshare --net is needed")
        let (harness, source) = try boxWithADownload()
        #expect(harness.ctl("play", "far-sweep").status == 0)
        #expect(harness.ctl("seek", "0:12").status == 0)
        #expect(harness.ctl("pause").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .paused && statusReport($0).lastCheckpoint != nil }
        if offline {
            restartOffline(harness, signal: signal)
        } else {
            harness.stop(signal: signal)
            harness.start()
        }
        let offered = harness.ctl("status", "--json").stdout
        #expect(statusReport(offered).resumeOffer != nil, "\(offered)")
        #expect(offered.contains("far-sweep"), "\(offered)")
        // PLAY accepts the offer: the downloaded session, near where it stopped, not another session.
        #expect(harness.ctl("play").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing }
        #expect(statusReport(playing).session == "far-sweep", "\(playing)")
        let position = ControlJSON.number("position", in: playing) ?? -1
        #expect(position >= 6 && position <= 13, "resumed at \(position) s, paused at 12 s (the offer rewinds 5 s)")
        harness.stop()
        source.stop()
    }

    @Test func aSessionTheSourceNoLongerOffersStaysPlayableAndRemovable() throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "scripts/serve-content needs /usr/bin/python3") else { return }
        let (harness, source) = try boxWithADownload()
        source.withdraw("far-sweep")
        harness.stop()
        harness.daemonAudioDevice = "paced:8" // the 11 s of listening below in under 2 s
        harness.start()
        // The fresh list arrives after start-up; until then the kept one (which still offers it) stands.
        _ = harness.waitForStatus(attempts: 1000) { _ in harness.ctl("sessions").stdout.contains("no longer offered") }
        let sessions = harness.ctl("sessions").stdout
        #expect(sessions.contains("Far sweep  (on this box; no longer offered)"), "\(sessions)")
        #expect(harness.ctl("play", "far-sweep").status == 0)
        // Past the 10 s a run needs to be kept, then stopped: the history has a run of it.
        _ = harness.waitForStatus { ControlJSON.number("position", in: $0).map { $0 >= 11 } == true }
        #expect(harness.ctl("stop").status == 0)
        #expect(harness.ctl("download", "remove", "far-sweep", "--yes").status == 0)
        #expect(!harness.ctl("sessions").stdout.contains("far-sweep"))
        #expect(harness.ctl("play", "far-sweep").status != 0)
        // Gone from the card too: no file of it is left behind.
        let left = Subprocess.run("/bin/sh", ["-c", "ls '\(harness.dataDirectory)/downloads' | grep far-sweep || true"]).stdout
        #expect(left.isEmpty, "left behind: \(left)")
        // The history still names what was heard, though nothing on the box or in any list knows it now.
        let recent = (try? JSONValue.parse(Array(harness.ctl("history", "recent", "--json").stdout.utf8)))?["recent"]?.arrayValue ?? []
        #expect(recent.first?["session"]?.stringValue == "far-sweep", "\(recent)")
        #expect(recent.first?["title"]?.stringValue == "Far sweep", "\(recent)")
        harness.stop()
        // And so does the CLI reading the database with the daemon down.
        let offline = harness.ctl("history", "recent")
        #expect(offline.stdout.contains("Far sweep"), "\(offline.stdout)")
        source.stop()
    }
}

/// A number in a status answer (`stillroomctl status --json`).
enum ControlJSON {
    static func number(_ key: String, in text: String) -> Double? {
        (try? JSONValue.parse(Array(text.utf8)))?[key]?.doubleValue
    }
}
