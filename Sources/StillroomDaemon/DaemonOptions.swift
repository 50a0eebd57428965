import DisplayPipeline
import StillroomCore
import SystemCalls

/// Where presses and turns come from.
public enum InputSource: String, Equatable, Sendable, CaseIterable {
    /// libgpiod, lines from the board file.
    case gpio
    /// Kernel input devices (gpio-keys, rotary-encoder) via evdev.
    case evdev
    /// Keys typed on the terminal (the simulator).
    case terminal
    /// No input.
    case none
}

/// The daemon's command line. Defaults are the appliance's paths; `--simulator` changes the defaults
/// to a box that runs on a desktop (see `simulatorDefaults`).
public struct DaemonOptions: Equatable, Sendable {
    public var dataDirectory = "/var/lib/stillroom/stillroomd"
    public var contentDirectory = "/usr/share/stillroom/content"
    public var boardFile = "/etc/stillroom/board.conf"
    public var audioDevice = "default"
    /// The simulator's own choice (no `--audio-device`): ALSA's default device when it opens, so a person
    /// trying the box on a desktop hears it; else the paced fake speaker, said in the log.
    public var audioFallsBackToPaced = false
    /// Where the sound cards' device nodes appear: while the output is lost, a change there tries it again.
    public var soundDeviceDirectory = "/dev/snd"
    public var display: DisplaySpec = .drm()
    /// The terminal preview of the screen (the simulator): nil = when stdout is a terminal.
    public var preview: Bool?
    public var input: InputSource = .gpio
    public var socketPath = "/run/stillroom/control.sock"
    /// The one folder screenshots are written to (nil: `screenshots` beside the control socket, in the
    /// daemon's runtime folder); a client names the file, never the folder.
    public var screenshotDirectory: String?
    public var screenshotFolder: String { screenshotDirectory ?? Files.parent(of: socketPath) + "/screenshots" }
    public var simulator = false
    public var logThreshold: Logger.Priority = .info
    /// Where more sessions can be fetched from (each a remote manifest); their hosts form the allow-list.
    public var manifestURLs: [String] = []
    /// The maker's public keys (`*.pub`): a list of sessions is used only when one of them signed it.
    public var contentKeyDirectory = "/usr/share/stillroom/content-keys"
    /// Extra hosts downloads may be redirected to (a CDN behind the manifest's host).
    public var allowedHosts: [String] = []
    /// The hosts downloads and streamed updates may come from: the manifests' and the --allow-host ones,
    /// once each, sorted.
    public var downloadHosts: [String] {
        Array(Set(manifestURLs.compactMap { try? RemoteURL(parsing: $0).host } + allowedHosts)).sorted()
    }
    /// How many times faster than real time the box's clocks run (soaks on simulated devices; 1 = real).
    public var timeWarp: Int64 = 1
    /// Where the daemon reads the update agent's reports (root's folder: the daemon only reads there);
    /// updates are unavailable when the folder does not exist (the simulator, a desktop).
    public var updateDirectory = "/run/stillroom-update"
    /// The file the daemon writes to ask the update agent for an install or a restart: in its own runtime
    /// folder, which the agent (root) only reads from, never writes to (docs/security.md).
    public var updateRequestPath = "/run/stillroom/update-request"
    /// The Wi-Fi relay's sockets (wpa_supplicant's, limited to reading: stillroom-wifi-relay), followed for
    /// the Wi-Fi's state (nil: not followed, the simulator).
    public var wifiControlDirectory: String? = "/run/stillroom-wifi"

    public init() {}

    public static let usage = """
        Usage: stillroomd [options]

        The Stillroom appliance: plays sessions, draws the screen, reads the controls.

        Options:
          --data-dir PATH       user data (database, downloads)       [/var/lib/stillroom/stillroomd]
          --content-dir PATH    bundled content with catalog.json      [/usr/share/stillroom/content]
          --board PATH          board file: pins and controls          [/etc/stillroom/board.conf]
          --audio-device NAME   ALSA PCM to play on                    [default]
          --sound-devices PATH  where sound cards' nodes appear: a change there tries a lost
                                output again at once                   [/dev/snd]
          --display TARGET      drm[:DIR] | png:PATH | png@WxH:PATH | memory[@WxH] | none   [drm]
          --preview on|off      the screen previewed in the terminal   [on when stdout is a terminal]
          --input SOURCE        gpio | evdev | terminal | none         [gpio]
          --socket PATH         control socket for stillroomctl        [/run/stillroom/control.sock]
          --screenshot-dir PATH where screenshots are written           [screenshots beside the socket]
          --manifest URL        a remote manifest of downloadable sessions (repeatable; https,
                                or http on 127.0.0.1 only); its host joins the allow-list
          --allow-host HOST     another host downloads may come from (repeatable)
          --content-keys PATH   the maker's keys lists of sessions must be signed with
                                                               [/usr/share/stillroom/content-keys]
          --update-dir PATH     the update agent's reports            [/run/stillroom-update]
          --update-request PATH the request to the update agent       [/run/stillroom/update-request]
          --wifi-control PATH   the Wi-Fi relay's sockets (wpa_supplicant's, relayed), or none
                                                               [/run/stillroom-wifi]
          --time-warp N         run the clocks N times fast (simulated devices only: paced audio,
                                png or no display, terminal or no input, no downloads)
          --simulator           run on a desktop: data in ./.sim, screen to PNG, keys from the terminal,
                                ALSA's default device if it opens, else a silent paced fake speaker
          --verbose             log debug lines too
          --help                show this text
          --version             show versions of the program and its libraries

        Logs go to stderr with syslog priority prefixes (<3> error ... <7> debug).
        """

    /// What the command line asked for.
    public enum Request: Equatable, Sendable {
        case run(DaemonOptions)
        case help
        case version
    }

    /// Parses `arguments` (without the program name). Both `--flag value` and `--flag=value` work.
    public static func parse(_ arguments: [String]) throws(OptionsError) -> Request {
        var options = DaemonOptions()
        var explicit: Set<String> = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(OptionsError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw OptionsError("\(name) needs a value")
                }
                return next
            }
            func path() throws(OptionsError) -> String {
                let text = try value()
                guard !text.isEmpty else { throw OptionsError("\(name) needs a non-empty path") }
                guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) else {
                    throw OptionsError("\(name): the path contains control characters")
                }
                return text
            }
            switch name {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--simulator": options.simulator = true
            case "--verbose": options.logThreshold = .debug
            case "--data-dir": options.dataDirectory = try path()
            case "--content-dir": options.contentDirectory = try path()
            case "--board": options.boardFile = try path()
            case "--socket": options.socketPath = try path()
            case "--screenshot-dir": options.screenshotDirectory = try path()
            case "--content-keys": options.contentKeyDirectory = try path()
            case "--update-dir": options.updateDirectory = try path()
            case "--update-request": options.updateRequestPath = try path()
            case "--sound-devices": options.soundDeviceDirectory = try path()
            case "--wifi-control":
                let directory = try path()
                options.wifiControlDirectory = directory == "none" ? nil : directory
            case "--audio-device":
                let device = try value()
                guard !device.isEmpty else { throw OptionsError("--audio-device needs a PCM name") }
                options.audioDevice = device
            case "--display": options.display = try parseDisplay(try value())
            case "--preview":
                let text = try value()
                guard text == "on" || text == "off" else { throw OptionsError("--preview: expected on or off, got \"\(text)\"") }
                options.preview = text == "on"
            case "--manifest":
                let url = try value()
                guard (try? RemoteURL(parsing: url))?.isPermittedForDownload == true else {
                    throw OptionsError("--manifest: \"\(url)\" is not an https URL (or http on 127.0.0.1)")
                }
                options.manifestURLs.append(url)
            case "--allow-host":
                let host = try value()
                guard !host.isEmpty, !host.contains("/") else { throw OptionsError("--allow-host takes a host name, got \"\(host)\"") }
                options.allowedHosts.append(host)
            case "--time-warp":
                let text = try value()
                guard let factor = Int64(text), (1...100_000).contains(factor) else {
                    throw OptionsError("--time-warp takes a whole factor from 1 to 100000, got \"\(text)\"")
                }
                options.timeWarp = factor
            case "--input":
                let text = try value()
                guard let source = InputSource(rawValue: text) else {
                    throw OptionsError("--input: expected gpio, evdev, terminal or none, got \"\(text)\"")
                }
                options.input = source
            default:
                throw OptionsError("unknown option \"\(argument)\"")
            }
            explicit.insert(name)
        }
        if options.simulator { options.applySimulatorDefaults(except: explicit) }
        try options.checkTimeWarp()
        return .run(options)
    }

    /// A warped clock is only honest where every device is simulated: real audio, screens and buttons keep
    /// real time, and downloads wait on a real network.
    func checkTimeWarp() throws(OptionsError) {
        guard timeWarp > 1 else { return }
        var real: [String] = []
        if audioDevice != "paced" && !audioDevice.hasPrefix("paced:") { real.append("--audio-device \(audioDevice)") }
        if case .drm = display { real.append("--display drm") }
        if input == .gpio || input == .evdev { real.append("--input \(input.rawValue)") }
        if !manifestURLs.isEmpty { real.append("--manifest") }
        guard real.isEmpty else {
            throw OptionsError("--time-warp needs simulated devices (--audio-device paced, --display png:PATH or none, "
                               + "--input terminal or none, no --manifest); got \(real.joined(separator: ", "))")
        }
    }

    static func parseDisplay(_ text: String) throws(OptionsError) -> DisplaySpec {
        if text == "png:" { throw OptionsError("--display png: needs a path, as in png:/tmp/screen.png") }
        do {
            return try DisplaySpec(parsing: text)
        } catch {
            throw OptionsError("--display: expected drm[:DIR], png:PATH, png@WxH:PATH, memory[@WxH] or none, got \"\(text)\"")
        }
    }

    /// The simulator runs from a checkout: data under ./.sim, the bundled ./Content, the screen as PNG,
    /// keys from the terminal, and the socket beside the data. Flags given explicitly still win.
    mutating func applySimulatorDefaults(except explicit: Set<String>) {
        if !explicit.contains("--data-dir") { dataDirectory = ".sim/data" }
        if !explicit.contains("--content-dir") { contentDirectory = "Content" }
        if !explicit.contains("--display") { display = .png(path: ".sim/screen.png", size: DisplaySpec.defaultPNGSize) }
        if !explicit.contains("--input") { input = .terminal }
        if !explicit.contains("--socket") { socketPath = ".sim/control.sock" }
        // The desktop's speaker when ALSA's default device opens, else the paced fake speaker (which works on
        // any machine). Under a time warp always the fake: real audio keeps real time.
        if !explicit.contains("--audio-device") {
            audioDevice = timeWarp == 1 ? "default" : "paced"
            audioFallsBackToPaced = timeWarp == 1
        }
        if !explicit.contains("--board") { boardFile = "board/simulator.conf" }
        // The checkout's development key, which scripts/serve-content signs with.
        if !explicit.contains("--content-keys") { contentKeyDirectory = "board/keys/development-trusted" }
        // A desktop's own Wi-Fi is not the box's: the simulator follows none unless told.
        if !explicit.contains("--wifi-control") { wifiControlDirectory = nil }
        // The demo server scripts/run starts beside the simulator (scripts/serve-content).
        // Not under a time warp: downloads run on the real network's time.
        if !explicit.contains("--manifest") && timeWarp == 1 { manifestURLs = ["http://127.0.0.1:8765/manifest.json"] }
    }
}

/// A bad command line: one line saying what is wrong.
public struct OptionsError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
