import ControlProtocol
import CryptoHash
import Glibc
import StillroomCore
import TestSupport
import Testing

/// A remote session served by scripts/serve-content on loopback, fetched by the real daemon.
@Suite struct DownloadTests {
    /// A folder like Content/remote: manifest.json, and the session's audio, transcript and provenance.
    func makeRemote(in directory: TemporaryDirectory) -> String {
        let remote = directory.file("remote")
        runShell("mkdir -p '\(remote)/far-sweep'")
        let audio = Files.read(RepositoryPaths.fixture("audio/sweep-20s-44k-mono.mp3"))
        Files.write(audio, to: remote + "/far-sweep/audio.mp3")
        Files.write("WEBVTT\n\n00:00.000 --> 00:20.000\nA far sweep.\n", to: remote + "/far-sweep/transcript.vtt")
        Files.write("{}", to: remote + "/far-sweep/provenance.json")
        let hasher = SHA256Hasher()
        hasher.update(audio)
        Files.write("""
            {"schema": 1, "version": 1, "sessions": [{"id": "far-sweep", "title": "Far sweep", "theme": "unwind",
              "description": "A downloadable test sweep.", "durationSeconds": 20.0,
              "remote": {"url": "far-sweep/audio.mp3", "bytes": \(audio.count), "sha256": "\(hasher.finalize().hex)"},
              "transcript": "far-sweep/transcript.vtt", "provenance": "far-sweep/provenance.json",
              \(RemoteSessionServer.sideFileDigests(in: remote + "/far-sweep")),
              "license": {"name": "CC0 1.0", "attribution": "Stillroom project"}}]}
            """, to: remote + "/manifest.json")
        return remote
    }

    @Test func fetchPlayOfflineAndRemoveThroughTheCLI() throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "scripts/serve-content needs /usr/bin/python3") else { return }
        let harness = DaemonHarness()
        let server = Subprocess("/usr/bin/python3", [RepositoryPaths.root + "/scripts/serve-content", "--port", "0",
                                                    "--dir", makeRemote(in: harness.directory)])
        defer { server.signal(SIGTERM); server.wait() }
        let announced = try #require(server.readStderrLine())
        let port = try #require(announced.split(separator: ":").last.map { $0.filter(\.isNumber) })
        harness.extraArguments = ["--manifest", "http://127.0.0.1:\(port)/manifest.json"]
        harness.start()

        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("sessions").stdout.contains("far-sweep") }
        #expect(harness.ctl("sessions").stdout.contains("download 0.1 MB"))
        // Refused before the player moves (seen failing when the player took it and failed: an error in
        // the log, and what played stopped).
        let refused = harness.ctl("play", "far-sweep")
        #expect(refused.status != 0 && (refused.stdout + refused.stderr).contains("far-sweep is not on this box: download it first"))
        #expect(statusReport(harness.waitForStatus { _ in true }).state == .idle)
        #expect(harness.ctl("download", "far-sweep").status == 0)
        _ = harness.waitForStatus(attempts: 1000) { _ in harness.ctl("downloads").stdout.contains("On this box") }
        #expect(harness.ctl("sessions").stdout.contains("(on this box)"))
        // Played offline: the server is gone.
        server.signal(SIGTERM)
        server.wait()
        #expect(harness.ctl("play", "far-sweep").status == 0)
        let playing = harness.waitForStatus { statusReport($0).state == .playing }
        #expect(statusReport(playing).session == "far-sweep")
        #expect(harness.ctl("download", "remove", "far-sweep").status == 2) // needs --yes
        // The daemon asks for the confirmation itself: a client that is not stillroomctl and leaves it out
        // removes nothing (docs/security.md, "The control socket"). Seen failing with a missing
        // confirmation taken for a yes (the recording was removed).
        let client = try #require(RawSocketClient(path: harness.socketPath))
        client.send(#"{"v":1,"id":7,"command":"downloads","arguments":{"action":"remove","session":"far-sweep"}}"# + "\n")
        let answer = client.readLines(1).first ?? ""
        #expect(answer.contains("\"id\":7") && answer.contains("Add --yes to confirm"), "\(answer)")
        #expect(harness.ctl("downloads").stdout.contains("On this box"), "removed without its confirmation")
        #expect(harness.ctl("download", "remove", "far-sweep", "--yes").status == 0)
        #expect(harness.ctl("sessions").stdout.contains("download 0.1 MB")) // listed again as downloadable
        let (status, _) = harness.stop()
        #expect(status == 0)
    }

    /// A host that signs with a key the box does not hold (a host taken over, a stranger's server): nothing
    /// of its list is offered, and `stillroomctl downloads` says why. Then the publisher's own signature:
    /// the same list is taken. Seen failing with the check disabled (far-sweep offered from the stranger).
    @Test func aListSignedWithAKeyTheBoxDoesNotHoldOffersNothing() throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "scripts/serve-content needs /usr/bin/python3") else { return }
        let harness = DaemonHarness()
        let remote = makeRemote(in: harness.directory)
        let stranger = harness.directory.file("stranger.key")
        #expect(Subprocess.run("/usr/bin/openssl", ["genpkey", "-algorithm", "ed25519", "-out", stranger]).status == 0)
        func serve(_ key: String?) throws -> (Subprocess, String) {
            let server = Subprocess("/usr/bin/python3", [RepositoryPaths.root + "/scripts/serve-content", "--port", "0", "--dir", remote]
                                                        + (key.map { ["--sign-key", $0] } ?? []))
            let announced = try #require(server.readStderrLine())
            let port = try #require(announced.split(separator: ":").last.map { $0.filter(\.isNumber) })
            return (server, port)
        }
        let (strangerServer, port) = try serve(stranger)
        harness.extraArguments = ["--manifest", "http://127.0.0.1:\(port)/manifest.json"]
        harness.start()
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("downloads").stdout.contains("not used") }
        let downloads = harness.ctl("downloads").stdout
        #expect(downloads.contains("The list of sessions was not used: its signature is not the maker's (no key of \(RepositoryPaths.developmentContentKeys) verifies it)."), "\(downloads)")
        #expect(!harness.ctl("sessions").stdout.contains("far-sweep"))
        #expect(harness.ctl("download", "far-sweep").status != 0)
        strangerServer.signal(SIGTERM)
        strangerServer.wait()
        _ = harness.stop()

        // Signed with the publisher's key (the development key the daemon trusts): taken.
        let (server, goodPort) = try serve(nil)
        defer { server.signal(SIGTERM); server.wait() }
        harness.extraArguments = ["--manifest", "http://127.0.0.1:\(goodPort)/manifest.json"]
        harness.start()
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("sessions").stdout.contains("far-sweep") }
        #expect(harness.ctl("sessions").stdout.contains("far-sweep"))
        _ = harness.stop()
    }
}
