import ControlProtocol
import CairoPainter
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// The real stillroomctl against stillroomd on a temporary socket: the daemon in this process on virtual
/// time (its real control socket, its real handler), the real binary where the client is not the CLI the
/// test drives (raw bytes, another user).
@Suite struct ControlSocketTests {
    /// Seeks are checked by where they land: while paused nothing else moves the position, so `seek +1`
    /// must move it by exactly one second (to the millisecond the status reports), `seek -1` back, and
    /// the checkpoint written at each seek must say the same place.
    @Test func playPauseSeekAndStatusThroughTheCLI() throws {
        let harness = DrivenDaemon()
        try harness.start()
        let idle = harness.ctl("status", "--json")
        #expect(idle.status == 0)
        #expect(statusReport(idle.stdout).state == .idle)
        #expect(harness.ctl("play", "long").status == 0)
        let playing = harness.ctl("status", "--json").stdout
        #expect(statusReport(playing).state == .playing)
        #expect(statusReport(playing).session == "long")
        #expect(abs(statusReport(playing).duration - 20) < 0.1) // the 20-second sweep, measured
        #expect(harness.ctl("pause").status == 0)
        let paused = statusReport(harness.waitForStatus { statusReport($0).lastCheckpoint != nil && statusReport($0).state == .paused })
        #expect(paused.live?.pauseReason == .user)
        let start = paused.position
        #expect(start >= 0 && start < 15, "paused at \(start) s")

        func position(after arguments: String...) -> (position: Double, checkpoint: Double) {
            let answer = harness.ctl(arguments + ["--json"])
            #expect(answer.status == 0, "\(arguments): \(answer.stderr)")
            let status = statusReport(harness.ctl("status", "--json").stdout)
            #expect(status.state == .paused, "a seek while paused stays paused")
            return (status.position, status.lastCheckpoint?.position ?? -1)
        }
        let forward = position(after: "seek", "+1")
        #expect(abs(forward.position - (start + 1)) <= 0.001, "seek +1 from \(start) s reached \(forward.position) s")
        #expect(abs(forward.checkpoint - (start + 1)) <= 0.001, "the seek's checkpoint says \(forward.checkpoint) s")
        let back = position(after: "seek", "-1")
        #expect(abs(back.position - start) <= 0.001, "seek -1 reached \(back.position) s, not \(start) s")
        let to = position(after: "seek", "19")
        #expect(abs(to.position - 19) <= 0.001, "seek 19 reached \(to.position) s")

        #expect(harness.ctl("toggle").stdout.hasPrefix("Playing: Long sweep (long)"))
        let ended = harness.waitForStatus { statusReport($0).state == .ended }
        #expect(statusReport(ended).position == statusReport(ended).duration) // at the very end
        let (status, log) = harness.stop()
        #expect(status == 0)
        #expect(log.contains("<6>playing long from 0:00"))
        #expect(log.contains("<6>ended long"))
    }

    @Test func badCommandLinesAndUnknownSessionsSayWhatToDo() throws {
        let harness = DrivenDaemon()
        try harness.start()
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
        #expect(statusReport(volume.stdout).live?.volume == 35)
        harness.stop()
        try harness.start()
        #expect(statusReport(harness.ctl("status", "--json").stdout).live?.volume == 35) // kept in the store
    }

    @Test func settingsAreListedChangedValidatedAndKept() throws {
        let harness = DrivenDaemon()
        try harness.start()
        #expect(harness.ctl("settings").stdout.contains("night-cap       40"))
        #expect(harness.ctl("settings", "set", "night-cap", "35").status == 0)
        let wrong = harness.ctl("settings", "set", "night-cap", "quiet")
        #expect(wrong.status == 2)
        #expect(wrong.stderr == "stillroomctl: night-cap: expected a whole number from 0 to 100, got \"quiet\"\n")
        #expect(harness.ctl("settings", "set", "colour", "blue").status == 4)
        harness.stop()
        #expect(harness.ctl("settings").stdout.contains("night-cap       35")) // from the database, daemon down
    }

    @Test func aReminderIsSetShownAndTurnedOff() throws {
        let harness = DrivenDaemon()
        try harness.start()
        #expect(harness.ctl("reminder").stdout == "Reminder: off\n")
        let set = harness.ctl("reminder", "set", "21:30", "--days", "weekdays", "--style", "glow", "--quiet", "22:00-07:00")
        #expect(set.status == 0)
        #expect(set.stdout.hasPrefix("Reminder: 21:30, mon,tue,wed,thu,fri, glow, quiet 22:00-07:00\nNext: "))
        #expect(harness.ctl("reminder", "set", "25:00").status == 2)
        #expect(harness.ctl("reminder", "set", "21:00", "--days", "someday").status == 2)
        harness.stop()
        try harness.start()
        #expect(harness.ctl("reminder").stdout.hasPrefix("Reminder: 21:30")) // kept across a restart
        #expect(harness.ctl("reminder", "off").stdout == "Reminder: off\n")
    }

    @Test func aBreathingTimerStartsPausesTheRecordingAndIsStoppedInWords() throws {
        let harness = DrivenDaemon()
        try harness.start()
        harness.ctl("play", "long")
        let started = harness.ctl("timer", "start", "--minutes", "3", "--pattern", "4-7-8")
        #expect(started.status == 0)
        #expect(started.stdout.hasPrefix("Breathing timer 4-7-8: 2:5") || started.stdout.hasPrefix("Breathing timer 4-7-8: 3:00"))
        #expect(statusReport(harness.ctl("status", "--json").stdout).state == .paused) // silence means silence
        #expect(harness.ctl("timer", "start", "--pattern", "7-11").status == 2)
        #expect(harness.ctl("timer", "stop").stdout == "Breathing timer stopped.\n")
        #expect(harness.ctl("timer", "stop").status == 4)
        // What it keeps as practice: BreathingTimerPracticeTests, on virtual time.
        harness.stop()
    }

    /// The screenshot is compared pixel for pixel with what the daemon's own `png:` display shows (the
    /// file it writes at every changed frame). The two are read between two looks at the daemon's count
    /// of presented frames; if a frame came in between (the clock turned a minute), they are read again.
    @Test func aScreenshotIsWhatTheScreenShows() throws {
        let harness = DrivenDaemon()
        let screenPath = harness.directory.file("screen.png")
        harness.extraArguments = ["--display", "png@480x320:" + screenPath, "--preview", "off"]
        try harness.start()
        let shot = harness.directory.file("shot.png")
        func framesPresented() -> Int { statusReport(harness.ctl("status", "--json").stdout).observed.framesPresented ?? -1 }
        // The first frame is on the screen (and in the file) once one has been presented.
        _ = harness.waitForStatus { statusReport($0).observed.framesPresented ?? 0 >= 1 }
        var screen: Frame?, taken: Frame?
        for _ in 0..<20 where taken == nil {
            let before = framesPresented()
            let result = harness.ctl("screenshot", shot)
            #expect(result.status == 0, "\(result.stderr)")
            let shown = try PNGImage.read(screenPath)
            if framesPresented() == before { (screen, taken) = (shown, try PNGImage.read(shot)) }
        }
        let shown = try #require(screen, "the screen never held still for a screenshot")
        let shotFrame = try #require(taken)
        #expect(shotFrame.size == PixelSize(width: 480, height: 320))
        #expect(shotFrame.size == shown.size)
        var differing = 0
        for y in 0..<shown.height { for x in 0..<shown.width where shown[x, y] != shotFrame[x, y] { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels of the screenshot differ from the screen")
        // Not a blank picture either: the home screen has text on its background.
        #expect(Set((0..<shown.height).flatMap { y in (0..<shown.width).map { shotFrame[$0, y] } }).count > 2)
        #expect(harness.ctl("screenshot", "relative.txt").status == 2)
        harness.stop()
        let noScreen = DrivenDaemon()
        try noScreen.start()
        #expect(noScreen.ctl("screenshot", shot).stderr.contains("this box has no screen"))
        noScreen.stop()
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
        let harness = DaemonHarness() // the CLI runs as another user, outside any loop the test could drive
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

    @Test func withTheDaemonDownReadOnlyCommandsUseTheFilesAndOthersSayItIsDown() throws {
        let harness = DrivenDaemon()
        try harness.start()
        harness.ctl("play", "sweep")
        harness.ctl("pause")
        _ = harness.waitForStatus { statusReport($0).lastCheckpoint != nil }
        harness.stop()
        let status = harness.ctl("status", "--json")
        #expect(status.status == 0)
        #expect(statusReport(status.stdout).live == nil)
        #expect(statusReport(status.stdout).session == "sweep")
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
