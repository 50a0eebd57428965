import StillroomCore
import StillroomDaemon
import Testing

@Suite struct DaemonOptionsTests {
    @Test func defaultsAreTheAppliancePaths() throws {
        guard case .run(let options) = try DaemonOptions.parse([]) else { Issue.record("expected run"); return }
        #expect(options.dataDirectory == "/var/lib/stillroom/stillroomd")
        #expect(options.updateRequestPath == "/run/stillroom/update-request")
        #expect(options.socketPath == "/run/stillroom/control.sock")
        #expect(options.display == .drm())
        #expect(options.input == .gpio)
        #expect(!options.simulator)
    }

    @Test func everyFlagInBothSpellings() throws {
        let request = try DaemonOptions.parse([
            "--data-dir", "/d", "--content-dir=/c", "--board", "/b.conf", "--audio-device=hw:CARD=Headphones",
            "--display", "png:/tmp/s.png", "--input=evdev", "--socket", "/s.sock", "--verbose",
        ])
        guard case .run(let options) = request else { Issue.record("expected run"); return }
        #expect(options.dataDirectory == "/d")
        #expect(options.contentDirectory == "/c")
        #expect(options.boardFile == "/b.conf")
        #expect(options.audioDevice == "hw:CARD=Headphones")
        #expect(options.display == .png(path: "/tmp/s.png", size: PixelSize(width: 800, height: 480)))
        #expect(options.input == .evdev)
        #expect(options.socketPath == "/s.sock")
        #expect(options.logThreshold == .debug)
    }

    @Test func simulatorChangesDefaultsButExplicitFlagsWin() throws {
        guard case .run(let options) = try DaemonOptions.parse(["--display=none", "--simulator"]) else {
            Issue.record("expected run"); return
        }
        #expect(options.simulator)
        #expect(options.dataDirectory == ".sim/data")
        #expect(options.contentDirectory == "Content")
        #expect(options.input == .terminal)
        #expect(options.display == .none)
        #expect(options.wifiControlDirectory == nil, "a desktop's own Wi-Fi is not the box's")
    }

    @Test func wifiControlIsFollowedWhereToldOrNotAtAll() throws {
        guard case .run(let box) = try DaemonOptions.parse([]),
              case .run(let elsewhere) = try DaemonOptions.parse(["--wifi-control", "/tmp/wpa"]),
              case .run(let none) = try DaemonOptions.parse(["--wifi-control=none"]),
              case .run(let simulated) = try DaemonOptions.parse(["--simulator", "--wifi-control", "/tmp/wpa"]) else {
            Issue.record("expected run"); return
        }
        #expect(box.wifiControlDirectory == "/run/stillroom-wifi") // the relay's, never wpa_supplicant's own
        #expect(elsewhere.wifiControlDirectory == "/tmp/wpa")
        #expect(none.wifiControlDirectory == nil)
        #expect(simulated.wifiControlDirectory == "/tmp/wpa")
    }

    @Test(arguments: [
        (["--bogus"], "unknown option \"--bogus\""),
        (["--data-dir"], "--data-dir needs a value"),
        (["--data-dir", "--simulator"], "--data-dir needs a value"),
        (["--data-dir="], "--data-dir needs a non-empty path"),
        (["--display", "hdmi"], "--display: expected drm[:DIR], png:PATH, png@WxH:PATH, memory[@WxH] or none, got \"hdmi\""),
        (["--display", "png:"], "--display png: needs a path, as in png:/tmp/screen.png"),
        (["--display", "drm:"], "--display: expected drm[:DIR], png:PATH, png@WxH:PATH, memory[@WxH] or none, got \"drm:\""),
        (["--input", "mouse"], "--input: expected gpio, evdev, terminal or none, got \"mouse\""),
        (["--audio-device="], "--audio-device needs a PCM name"),
        (["--content-dir", "a\u{7}b"], "--content-dir: the path contains control characters"),
        (["--time-warp", "0"], "--time-warp takes a whole factor from 1 to 100000, got \"0\""),
        (["--time-warp", "2.5"], "--time-warp takes a whole factor from 1 to 100000, got \"2.5\""),
        (["--time-warp", "60"], "--time-warp needs simulated devices (--audio-device paced, --display png:PATH or none, "
            + "--input terminal or none, no --manifest); got --audio-device default, --display drm, --input gpio"),
        (["--time-warp=60", "--simulator", "--manifest", "https://example.org/m.json"],
         "--time-warp needs simulated devices (--audio-device paced, --display png:PATH or none, "
            + "--input terminal or none, no --manifest); got --manifest"),
    ])
    func badCommandLinesSayWhatIsWrong(arguments: [String], message: String) {
        #expect(throws: OptionsError(message)) { try DaemonOptions.parse(arguments) }
    }

    @Test func timeWarpRunsOnTheSimulatorWithoutItsDemoDownloads() throws {
        guard case .run(let options) = try DaemonOptions.parse(["--simulator", "--time-warp", "300"]) else {
            Issue.record("expected run"); return
        }
        #expect(options.timeWarp == 300)
        #expect(options.audioDevice == "paced")
        #expect(options.manifestURLs.isEmpty)
    }

    @Test func helpAndVersionAreRequests() throws {
        #expect(try DaemonOptions.parse(["--data-dir", "/x", "--help"]) == .help)
        #expect(try DaemonOptions.parse(["--version"]) == .version)
    }
}
