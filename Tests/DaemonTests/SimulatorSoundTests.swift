import ControlProtocol
import Glibc
import TestSupport
import Testing

/// The simulator is heard when it can be: with no `--audio-device` it plays through ALSA's default device
/// when that opens, and says so; when it does not, it says it plays silently on the paced fake speaker,
/// and plays. ALSA's default is set per test through a `~/.asoundrc` (HOME): the file plugin captures
/// what a desktop's speaker would have played; a card that is not there cannot be opened.
@Suite struct SimulatorSoundTests {
    func simulator(defaultPCM: String) -> DaemonHarness {
        let harness = DaemonHarness()
        harness.daemonAudioDevice = "" // the simulator's own choice
        harness.extraArguments = ["--simulator"]
        let home = harness.directory.file("home")
        mkdir(home, 0o755)
        Files.write("pcm.!default \(defaultPCM)\n", to: home + "/.asoundrc")
        harness.start(environment: ["HOME": home])
        return harness
    }

    @Test func itPlaysThroughALSAsDefaultDeviceWhenItOpens() throws {
        let harness = DaemonHarness()
        let capture = harness.directory.file("capture.raw")
        let simulator = simulator(defaultPCM: "{ type file; slave.pcm \"null\"; file \"\(capture)\"; format \"raw\" }")
        #expect(simulator.ctl("play", "sweep").status == 0)
        _ = simulator.waitForStatus { statusReport($0).state == .ended }
        let log = simulator.stop().log
        #expect(log.contains("audio: playing through ALSA's default device"), "\(log)")
        let heard = Files.read(capture)
        #expect(heard.count >= 44_100 * 2 * 2 * 2, "\(heard.count) bytes captured of a 3 s sweep") // at least 2 s, S16 stereo
        #expect(heard.contains { $0 != 0 }, "only silence was played")
        harness.stop()
    }

    @Test func withoutADeviceItSaysItIsSilentAndStillPlays() throws {
        let simulator = simulator(defaultPCM: "{ type hw; card 97 }")
        #expect(simulator.ctl("play", "long").status == 0)
        let playing = simulator.waitForStatus { statusReport($0).state == .playing && statusReport($0).position > 0.5 }
        #expect(statusReport(playing).session == "long")
        let log = simulator.stop().log
        #expect(log.contains("audio: ALSA's default device cannot be opened"), "\(log)")
        #expect(log.contains("playing on the paced fake speaker instead, silently"), "\(log)")
    }
}
