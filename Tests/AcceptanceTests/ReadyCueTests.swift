import Glibc
import StillroomCore
import TestSupport
import Testing

/// The truthful ready cue, as the person in bed meets it: the screen lights with the library the
/// moment everything PLAY needs is open, and not before. The real daemon on the bundled content, its
/// screen as PNG (the first file written is the first frame), its audio captured by ALSA's `file` plugin,
/// PLAY typed on its terminal the moment that first frame exists.
@Suite(.serialized) struct ReadyCueTests {
    static let rate = 44_100

    /// Waits for the daemon's first frame by looking for the file it writes whole (temporary + rename).
    /// The bound guards against a daemon that never draws; it is not a timing.
    static func waitForFirstFrame(_ journey: Journey) -> Bool {
        for _ in 0..<60_000 {
            if access(journey.screenPath, F_OK) == 0 { return true }
            usleep(2_000)
        }
        return false
    }

    /// The order the journal tells: `first` logged before `second`.
    static func logged(_ first: String, before second: String, in log: String) -> Bool {
        let lines = log.split(separator: "\n")
        guard let a = lines.firstIndex(where: { $0.contains(first) }), let b = lines.firstIndex(where: { $0.contains(second) }) else { return false }
        return a < b
    }

    @Test func playPressedAtTheFirstDrawnFrameIsHeard() throws {
        let journey = Journey()
        // Set up once, as an owner would: full volume, so what is heard is the recording sample for sample.
        journey.start()
        for key in ["volume", "speaker-cap", "headphones-cap", "night-cap"] { journey.ctl("settings", "set", key, "100") }
        let setUpLog = journey.finish()
        unlink(journey.screenPath)
        journey.harness.launch(keys: true)
        #expect(Self.waitForFirstFrame(journey), "the daemon never drew a frame")
        journey.keys(" ") // PLAY, as soon as the screen shows anything
        // systemd had been told READY=1 before the screen showed the library.
        let told = journey.harness.pendingNotifications()
        #expect(told.contains { $0.contains("READY=1") }, "the first frame came before READY=1: \(told)")
        let playing = journey.waitFor("three seconds heard") {
            $0["state"]?.stringValue == "playing" && ($0["heardSeconds"]?.doubleValue ?? 0) >= 3
        }
        #expect(playing["output"]?["available"]?.boolValue == true)
        let session = playing["session"]?.stringValue ?? "?"
        let position = playing["position"]?.doubleValue ?? 0
        let captured = Audio.readCapture(journey.capture)
        let log = String(journey.finish().dropFirst(setUpLog.count)) // this start's journal only
        // What was heard is the first-boot session from its start: the capture's last second is the
        // recording's, within the first seconds plus what had been played when status was read.
        let recording = try Audio.decode(RepositoryPaths.content + "/sessions/\(session)/audio.mp3")
        let probe = captured.count / 2 - Self.rate
        #expect(probe > 0, "only \(captured.count / 2) frames captured")
        let found = Audio.locate(captured, at: max(0, probe), in: recording, within: 0..<Int((position + 3) * Double(Self.rate)))
        #expect(found != nil, "the capture's last second is not \(session)'s first \(position + 3) s")
        let loud = Audio.rms(captured[max(0, probe * 2)..<captured.count])
        #expect(loud > 30, "the last second heard is silence (RMS \(loud))") // a match on silence proves nothing
        // The journal's order: the output open, then READY, then the first frame.
        #expect(Self.logged("audio output", before: "ready:", in: log), "\(log)")
        #expect(Self.logged("ready:", before: "screen: first frame shown", in: log), "\(log)")
    }

    @Test func noSoundOutputAtStartIsSaidFromTheFirstFrameAndPlayDoesNotPretend() throws {
        let journey = Journey()
        journey.harness.daemonAudioDevice = "hw:CARD=NoSuchCard" // no such card: the open fails
        // The sound cards' folder, here a temporary one the test changes as the kernel and udev would.
        let soundDevices = journey.harness.directory.file("snd")
        #expect(mkdir(soundDevices, 0o755) == 0)
        journey.harness.extraArguments += ["--sound-devices", soundDevices, "--verbose"]
        journey.harness.launch(keys: true)
        #expect(Self.waitForFirstFrame(journey), "the daemon never drew a frame")
        let first = journey.status()
        #expect(first["output"]?["available"]?.boolValue == false, "at the first frame: \(ControlCodecJSON.text(first["output"] ?? .null))")
        let notices = first["notices"]?.arrayValue ?? []
        #expect(notices.contains { $0["kind"]?.stringValue == "output-lost" }, "notices at the first frame: \(ControlCodecJSON.text(.array(notices)))")
        journey.keys(" ")
        let pressed = journey.waitFor("PLAY handled and settled") {
            ($0["inputEvents"]?.integerValue ?? 0) > 0 && $0["state"]?.stringValue != "loading"
        }
        #expect(pressed["state"]?.stringValue == "paused", "PLAY with no output: \(pressed["state"]?.stringValue ?? "?")")
        #expect(pressed["pauseReason"]?.stringValue == "outputLost")
        #expect(pressed["heardSeconds"]?.doubleValue == 0)
        // The owner can put the card away; it stays away until the output comes back and is lost again.
        let dismissed = journey.ctl("dismiss", "--notice", "-2")
        #expect(dismissed.status == 0, "\(dismissed.stderr)")
        let after = journey.status()
        #expect(!(after["notices"]?.arrayValue ?? []).contains { $0["kind"]?.stringValue == "output-lost" })
        #expect(journey.ctl("dismiss", "--notice", "-2").status != 0, "a dismissed live notice is not open any more")
        // A node made in the sound cards' folder (a card plugged in, or given its group by udev) tries the
        // output again at once, not at the next 2 s tick. Two round trips through the loop: the change,
        // queued before them, has been handled by the time the second answers.
        let node = soundDevices + "/pcmC0D0p"
        let made = creat(node, 0o600)
        #expect(made >= 0)
        close(made)
        _ = journey.status()
        _ = journey.status()
        let log = journey.finish()
        #expect(log.contains("cannot be opened; trying again when a sound device changes, and every 2 s"), "\(log)")
        #expect(log.contains("still cannot be opened (tried: pcmC0D0p changed in \(soundDevices))"), "\(log)")
    }

    /// The sound cards' folder missing at start (no card yet: the kernel makes /dev/snd with the first) is
    /// waited for through its parent, and its coming tries the output; a folder that cannot be watched at
    /// all (its parent missing) is said once, and the daemon plays on with the 2 s retry.
    @Test func aSoundDevicesFolderThatComesLaterOrCannotBeWatched() throws {
        let journey = Journey()
        journey.harness.daemonAudioDevice = "hw:CARD=NoSuchCard"
        let later = journey.harness.directory.file("snd")
        journey.harness.extraArguments += ["--sound-devices", later, "--verbose"]
        journey.start()
        #expect(mkdir(later, 0o755) == 0)
        _ = journey.status()
        _ = journey.status()
        let log = journey.finish()
        #expect(log.contains("still cannot be opened (tried: \(later) appeared)"), "\(log)")

        let unwatchable = Journey()
        unwatchable.harness.daemonAudioDevice = "hw:CARD=NoSuchCard"
        let nowhere = unwatchable.harness.directory.file("no/such/snd")
        unwatchable.harness.extraArguments += ["--sound-devices", nowhere]
        unwatchable.start()
        #expect(unwatchable.status()["output"]?["available"]?.boolValue == false)
        let said = unwatchable.finish()
        #expect(said.contains("audio output: cannot watch \(nowhere) for sound devices ("), "\(said)")
        #expect(said.contains("trying every 2 s"), "\(said)")
    }
}
