import ControlProtocol
import DrivenDaemonSupport
import Glibc
import StillroomCore
import TestSupport
import Testing

/// Using the box by ear through the daemon (in this process on virtual time; the real binary for a kill and
/// a download server): keys on its terminal (L, K and G make the held gestures: the spoken-labels chord,
/// the key-describer chord, BACK held for the guide), what it says read back word for word from
/// `status --json` ("spoken"). Nothing is asserted on a clock: every wait is for something the daemon
/// reports (its input events handled, no label pending, a text said, a state reached).
@Suite struct ByEarDaemonTests {
    static let simulatorBoard = ["--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"]

    /// The bundled content and keys on the terminal, the daemon in this process on virtual time (the
    /// describer's minute passes as fast as the work in it), a person's 4 s between gestures (each held
    /// gesture of the terminal is let go by then).
    func drivenBox() -> DrivenDaemon {
        let harness = DrivenDaemon(content: RepositoryPaths.content, extraArguments: Self.simulatorBoard)
        harness.keyPause = .seconds(4)
        return harness
    }

    /// The same through the real binary (for a kill -9), the daemon's clock `warp` times faster than real
    /// time and the recording played at real speed.
    func box(warp: Int = 1) -> DaemonHarness {
        let harness = DaemonHarness(content: RepositoryPaths.content,
                                    extraArguments: Self.simulatorBoard + (warp > 1 ? ["--time-warp", String(warp)] : []))
        if warp > 1 { harness.daemonAudioDevice = "paced:\(1.0 / Double(warp))" }
        return harness
    }

    func status(_ harness: DaemonUnderTest) -> StatusReport { statusReport(harness.ctl("status", "--json").stdout) }

    func spoken(_ status: StatusReport) -> [String] { status.observed.spoken }

    /// Types `keys` (`events` input events in all) and waits until the daemon has handled them and has no
    /// label waiting; returns what it said meanwhile.
    @discardableResult
    func type(_ harness: KeyedDaemon, _ keys: String, events: Int) -> (said: [String], status: StatusReport) {
        let before = status(harness)
        let handled = before.observed.inputEvents
        let count = spoken(before).count
        let labels = before.observed.spokenLabels
        harness.typeKeys(keys)
        let after = statusReport(harness.waitUntil {
            let now = statusReport($0)
            return now.observed.inputEvents >= handled + events && !now.observed.labelPending
                && now.observed.spokenLabels > labels
        })
        return (Array(spoken(after).dropFirst(min(count, spoken(after).count))), after)
    }

    /// Waits until the daemon has read the whole guide to `page`; returns the last things it said, as many
    /// as the guide has sentences.
    func waitForWholeGuide(_ harness: DaemonUnderTest, _ page: Guide.Page) -> [String] {
        let count = Guide.sentences(page).count
        let status = statusReport(harness.waitUntil { Array(spoken(statusReport($0)).suffix(count)) == Guide.sentences(page) })
        return Array(spoken(status).suffix(count))
    }

    /// Waits until the daemon has said something containing `text`; returns the status then.
    @discardableResult
    func waitToHear(_ harness: DaemonUnderTest, _ text: String) -> StatusReport {
        statusReport(harness.waitUntil { spoken(statusReport($0)).contains { $0.contains(text) } })
    }

    @Test func theKeyDescriberSaysWhatEachControlWouldDoDoesNothingAndTurnsItselfOffAfterAMinute() throws {
        let harness = drivenBox()
        try harness.start(keys: true)
        #expect(harness.ctl("play", "steady-breath").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .playing }
        // K: BACK, then PLAY, held together (let go 2.5 s later): the describer comes on, said with labels off.
        var (said, now) = type(harness, "K", events: 4)
        #expect(said.last?.hasPrefix("Key describer on.") == true, "\(said)")
        #expect(now.observed.describer)
        #expect(now.state == .playing) // PLAY joining BACK did not pause

        // Each control says what it would do here, now, and does nothing else.
        (said, now) = type(harness, " ", events: 2)
        #expect(said == ["PLAY: pauses Steady breath."])
        #expect(now.state == .playing)
        (said, now) = type(harness, "\u{1B}[C", events: 1)
        #expect(said.count == 1 && said[0].hasPrefix("Turn: seeks, 15 seconds a click"), "\(said)")
        (said, now) = type(harness, "\u{7F}", events: 2) // Backspace: BACK
        #expect(said == ["BACK: back to the library."])
        #expect(now.observed.page == "player")
        (said, now) = type(harness, "\r", events: 2)
        #expect(said == ["The knob's press: opens the transcript."])
        #expect(now.observed.page == "player")
        (said, now) = type(harness, "F", events: 3)
        #expect(said == ["The knob, held: adds Steady breath to favourites."])
        #expect(!harness.ctl("show", "steady-breath").stdout.contains("Favourite"))
        #expect(now.state == .playing)
        #expect(now.lastCheckpoint?.position ?? 0 < 60, "a seek happened") // no seek committed

        // A minute without a touch (two seconds at ×30): it turns itself off and says so.
        now = waitToHear(harness, "A minute without a touch: key describer off.")
        #expect(!now.observed.describer)
        // And PLAY works again.
        harness.typeKeys(" ")
        _ = harness.waitForStatus { statusReport($0).state == .paused }
        let (status, _) = harness.stop()
        #expect(status == 0)
    }

    @Test func theSameChordTurnsItOff() throws {
        let harness = drivenBox()
        try harness.start(keys: true)
        type(harness, "K", events: 4)
        let (said, now) = type(harness, "K", events: 4)
        #expect(said.last == "Key describer off. The controls work again.")
        #expect(!now.observed.describer)
        harness.stop()
    }

    @Test func backHeldForThreeSecondsSpeaksTheGuideToTheScreenShowing() throws {
        let harness = drivenBox()
        try harness.start(keys: true)
        // Thirty seconds pass in one here: keep the screen from dimming to the clock face meanwhile.
        harness.ctl("settings", "set", "dim-after", "3600")
        harness.ctl("settings", "set", "dark-after", "7200")
        // On the library, labels off: the guide is said anyway, a sentence at a time (a minute of speech made
        // in one piece held the loop for a second here), and BACK let go does nothing more.
        var (said, now) = type(harness, "G", events: 2)
        #expect(said == [Guide.sentences(.library)[0]])
        #expect(now.observed.page == "home")
        #expect(waitForWholeGuide(harness, .library) == Guide.sentences(.library))
        #expect(Guide.sentences(.library).joined(separator: " ") == Guide.text(.library))
        // On the player.
        #expect(harness.ctl("play", "steady-breath").status == 0)
        _ = harness.waitForStatus { statusReport($0).observed.page == "player" }
        (said, now) = type(harness, "G", events: 2)
        #expect(said == [Guide.sentences(.player)[0]])
        #expect(now.observed.page == "player") // not back, not home
        #expect(waitForWholeGuide(harness, .player) == Guide.sentences(.player))
        harness.stop()
    }

    /// Short labels are a setting like any other: a nonsense value from the socket is refused and changes
    /// nothing; the choice survives a kill -9 and the next start speaks with it.
    @Test func shortLabelsAreKeptThroughAKillAndNonsenseIsRefused() {
        let harness = box()
        harness.start(keys: true)
        harness.ctl("settings", "set", "dim-after", "3600")
        harness.ctl("settings", "set", "spoken-labels", "on")
        let nonsense = harness.ctl("settings", "set", "verbosity", "loudly")
        #expect(nonsense.status == 2)
        #expect(nonsense.stderr.contains("verbosity"))
        #expect(harness.ctl("settings").stdout.contains("verbosity       full"))
        let full = type(harness, "\u{1B}[B", events: 1).said
        #expect(harness.ctl("settings", "set", "verbosity", "short").status == 0)
        _ = harness.stop(signal: SIGKILL)

        harness.start(keys: true)
        #expect(harness.ctl("settings").stdout.contains("verbosity       short"))
        let short = type(harness, "\u{1B}[B", events: 1).said
        #expect(full.count == 1 && short.count == 1, "one label each: \(full) and \(short)")
        #expect((short.first?.count ?? .max) < (full.first?.count ?? 0), "short \(short) against full \(full)")
        harness.stop()
    }

    @Test func theLabelsChordTurnsLabelsOnAndOffAndSaysSoEitherWay() throws {
        let harness = drivenBox()
        try harness.start(keys: true)
        harness.ctl("settings", "set", "dim-after", "3600") // thirty seconds pass in one: no dimming meanwhile
        var (said, now) = type(harness, "L", events: 4)
        #expect(said == ["Spoken labels on."])
        #expect(now.observed.page == "home") // neither BACK nor the knob did its own job
        #expect(!harness.ctl("show", "steady-breath").stdout.contains("Favourite"))
        (said, now) = type(harness, "L", events: 4)
        #expect(said == ["Spoken labels off."])
        #expect(harness.ctl("settings").stdout.contains("off"))
        harness.stop()
    }

    /// A failed download while a recording plays: its notice is not said over the narration; when the
    /// recording ends, "Session finished." and then the notice with its advice, once.
    @Test func aFailedDownloadsAdviceIsSpokenAfterTheRecordingEnds() throws {
        guard Requirement.need(access("/usr/bin/python3", X_OK) == 0, "scripts/serve-content needs /usr/bin/python3") else { return }
        let harness = DaemonHarness(content: RepositoryPaths.content)
        // The manifest names a file the server does not have: the download fails with a 404.
        let remote = harness.directory.file("remote")
        runShell("mkdir -p '\(remote)/gone-sweep'")
        Files.write("WEBVTT\n\n00:00.000 --> 00:20.000\nA sweep.\n", to: remote + "/gone-sweep/transcript.vtt")
        Files.write("{}", to: remote + "/gone-sweep/provenance.json")
        Files.write("""
            {"schema": 1, "version": 1, "sessions": [{"id": "gone-sweep", "title": "Gone sweep", "theme": "unwind",
              "description": "A session whose audio the server no longer has.", "durationSeconds": 20.0,
              "remote": {"url": "gone-sweep/audio.mp3", "bytes": 1000,
                         "sha256": "0000000000000000000000000000000000000000000000000000000000000000"},
              "transcript": "gone-sweep/transcript.vtt", "provenance": "gone-sweep/provenance.json",
              \(RemoteSessionServer.sideFileDigests(in: remote + "/gone-sweep")),
              "license": {"name": "CC0 1.0", "attribution": "Stillroom project"}}]}
            """, to: remote + "/manifest.json")
        let server = Subprocess("/usr/bin/python3", [RepositoryPaths.root + "/scripts/serve-content", "--port", "0", "--dir", remote])
        defer { server.signal(SIGTERM); server.wait() }
        let announced = try #require(server.readStderrLine())
        let port = try #require(announced.split(separator: ":").last.map { $0.filter(\.isNumber) })
        // The recording plays 60 times faster than real time (the five minutes in five seconds; the
        // download's 404 over loopback comes within milliseconds, and the test checks it came first).
        harness.daemonAudioDevice = "paced:60"
        harness.extraArguments = ["--manifest", "http://127.0.0.1:\(port)/manifest.json"]
        harness.start()
        _ = harness.waitForStatus(attempts: 500) { _ in harness.ctl("sessions").stdout.contains("gone-sweep") }
        harness.ctl("settings", "set", "spoken-labels", "on")
        #expect(harness.ctl("play", "steady-breath").status == 0)
        _ = harness.waitForStatus { statusReport($0).state == .playing }
        harness.ctl("download", "gone-sweep")
        // The notice is on screen (and in status) while the recording still plays: not said.
        let noticed = statusReport(harness.waitForStatus {
            let now = statusReport($0)
            return now.notices.contains { $0.kind == .downloadFailed }
                && !now.observed.labelPending
        })
        #expect(noticed.state == .playing, "the recording ended before the notice came; the test proves nothing")
        #expect(!spoken(noticed).contains { $0.contains("A download failed") }, "\(spoken(noticed))")
        // The recording ends: then it is said, after "Session finished.", with the advice.
        let heard = waitToHear(harness, "Notice: A download failed.")
        let words = spoken(heard)
        let finished = words.lastIndex(of: "Session finished.")
        let notice = words.lastIndex { $0.contains("Notice: A download failed.") }
        #expect(finished != nil && notice != nil && finished! < notice!, "\(words)")
        if let notice {
            #expect(words[notice].contains("gone-sweep"))
            #expect(words[notice].contains("What to do: Open the session in the library to try again, or remove it to free the space."))
            #expect(words[notice].contains("The session may have been withdrawn; refresh the list of sessions."))
        }
        #expect(words.filter { $0.contains("A download failed") }.count == 1) // once
        let (status, _) = harness.stop()
        #expect(status == 0)
    }
}
