import Glibc
import TestSupport
import Testing

/// The real stillroomctl against the real stillroomd on a temporary socket.
@Suite struct ControlSocketTests {
    @Test func playPauseSeekAndStatusThroughTheCLI() {
        let harness = DaemonHarness()
        harness.start()
        let idle = harness.ctl("status", "--json")
        #expect(idle.status == 0)
        #expect(idle.stdout.contains("\"state\":\"idle\""))
        #expect(harness.ctl("play", "sweep").status == 0)
        let playing = harness.ctl("status", "--json").stdout
        #expect(playing.contains("\"state\":\"playing\""))
        #expect(playing.contains("\"session\":\"sweep\""))
        #expect(playing.contains("\"duration\":3"))
        #expect(harness.ctl("seek", "+1").status == 0)
        #expect(harness.ctl("pause").status == 0)
        let paused = harness.waitForStatus { $0.contains("\"lastCheckpoint\":{") && $0.contains("\"state\":\"paused\"") }
        #expect(paused.contains("\"pauseReason\":\"user\""))
        #expect(harness.ctl("toggle").stdout.hasPrefix("Playing: Sweep (sweep)"))
        let ended = harness.waitForStatus { $0.contains("\"state\":\"ended\"") }
        #expect(ended.contains("\"position\":3"))
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("<6>playing sweep from 0:00"))
        #expect(log.contains("<6>ended sweep"))
    }

    @Test func badCommandLinesAndUnknownSessionsSayWhatToDo() {
        let harness = DaemonHarness()
        harness.start()
        let unknown = harness.ctl("play", "nope")
        #expect(unknown.status == 4)
        #expect(unknown.stderr == "stillroomctl: no session \"nope\" on this box; see stillroomctl sessions\n")
        let badSeek = harness.ctl("seek", "soon")
        #expect(badSeek.status == 2)
        #expect(badSeek.stderr.hasPrefix("stillroomctl: seek: \"soon\" is not a time"))
        let nothing = harness.ctl("seek", "+10")
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("nothing is playing or paused"))
        #expect(harness.ctl("volume", "101").status == 2)
        #expect(harness.ctl("frobnicate").status == 2)
        let volume = harness.ctl("volume", "35", "--json")
        #expect(volume.stdout.contains("\"volume\":35"))
        harness.stop()
        harness.start()
        #expect(harness.ctl("status", "--json").stdout.contains("\"volume\":35")) // kept in the store
    }

    @Test func settingsAreListedChangedValidatedAndKept() {
        let harness = DaemonHarness()
        harness.start()
        #expect(harness.ctl("settings").stdout.contains("night-cap       40"))
        #expect(harness.ctl("settings", "set", "night-cap", "35").status == 0)
        let wrong = harness.ctl("settings", "set", "night-cap", "quiet")
        #expect(wrong.status == 2)
        #expect(wrong.stderr == "stillroomctl: night-cap: expected a whole number from 0 to 100, got \"quiet\"\n")
        #expect(harness.ctl("settings", "set", "colour", "blue").status == 4)
        harness.stop()
        #expect(harness.ctl("settings").stdout.contains("night-cap       35")) // from the database, daemon down
    }

    @Test func garbageOversizedAndHalfWrittenLinesGetErrorsAndHarmNothing() throws {
        let harness = DaemonHarness()
        harness.start()
        let client = try #require(RawSocketClient(path: harness.socketPath))
        client.send("this is not json\n")
        client.send("[1,2,3]\n")
        client.send("{\"v\":2,\"id\":5,\"command\":\"status\"}\n")
        client.send("{\"v\":1,\"id\":6,\"command\":\"status\",\"surprise\":true}\n") // unknown fields ignored
        client.send(Array(repeating: UInt8(ascii: "x"), count: 70_000) + [0x0A])
        client.send("{\"v\":1,\"id\":7,\"comm") // half a line, then the client goes away
        let lines = client.readLines(5)
        #expect(lines.count == 5)
        #expect(lines[0].contains("\"code\":\"bad_request\""))
        #expect(lines[1].contains("\"code\":\"bad_request\""))
        #expect(lines[2].contains("\"code\":\"unsupported_version\"") && lines[2].contains("\"id\":5"))
        #expect(lines[3].contains("\"ok\":true") && lines[3].contains("\"id\":6"))
        #expect(lines[4].contains("\"code\":\"too_long\""))
        client.finishWriting()
        // The daemon is still fine and answers others.
        #expect(harness.ctl("status").status == 0)
        let (status, _) = harness.stop()
        #expect(status == 0)
    }

    @Test func aPeerThatIsNotPermittedIsRefused() throws {
        let harness = DaemonHarness()
        harness.start()
        // Let anyone reach the socket file, so the daemon's own SO_PEERCRED check is what refuses.
        chmod(harness.socketPath, 0o666)
        chmod(harness.directory.file("run"), 0o755)
        chmod(harness.directory.path, 0o755)
        let refused = Subprocess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
            BuiltProducts.path("stillroomctl"), "--socket", harness.socketPath, "pause"])
        #expect(refused.status == 5)
        #expect(refused.stderr.contains("permission denied"))
        let (_, log) = harness.stop()
        #expect(log.contains("<4>control: refused a connection from uid 65534"))
    }

    @Test func withTheDaemonDownReadOnlyCommandsUseTheFilesAndOthersSayItIsDown() {
        let harness = DaemonHarness()
        harness.start()
        harness.ctl("play", "sweep")
        harness.ctl("pause")
        _ = harness.waitForStatus { $0.contains("\"lastCheckpoint\":{") }
        harness.stop()
        let status = harness.ctl("status", "--json")
        #expect(status.status == 0)
        #expect(status.stdout.contains("\"daemon\":false"))
        #expect(status.stdout.contains("\"session\":\"sweep\""))
        let sessions = harness.ctl("sessions")
        #expect(sessions.status == 0)
        #expect(sessions.stdout.contains("sweep"))
        let transcript = harness.ctl("transcript", "sweep")
        #expect(transcript.stdout == "  0:00  A rising sound.\n  0:01  Still rising.\n")
        let play = harness.ctl("play")
        #expect(play.status == 3)
        #expect(play.stderr.contains("the daemon is not running"))
    }
}
