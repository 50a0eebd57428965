import Glibc
import MPG123Decoder
import StillroomCore
import TestSupport
import Testing

/// The acceptance journey's tools: the real daemon on the simulator path (the bundled content, the
/// terminal keys, the screen as PNG) with its audio captured by ALSA's `file` plugin, and the real CLI.
final class Journey {
    let harness: DaemonHarness
    let capture: String
    let screenPath: String
    /// Where each step's screenshot is kept (STILLROOM_ACCEPTANCE_EVIDENCE), or nil.
    let evidence: String?
    var log = ""

    init(dataDirectory: String? = nil) {
        harness = DaemonHarness(content: RepositoryPaths.content)
        capture = harness.directory.file("capture.raw")
        screenPath = harness.directory.file("screen.png")
        evidence = getenv("STILLROOM_ACCEPTANCE_EVIDENCE").map { String(cString: $0) }
        harness.extraArguments = ["--display", "png:" + screenPath, "--preview", "off",
                                  "--input", "terminal", "--board", RepositoryPaths.root + "/board/simulator.conf"]
        useCaptureDevice()
    }

    /// Real-time audio into the capture file (what the listener hears, byte for byte).
    func useCaptureDevice() { harness.daemonAudioDevice = "file:FILE=\(capture),FORMAT=raw" }

    func start(environment: [String: String] = [:]) { harness.start(environment: environment, keys: true) }

    func restart(environment: [String: String] = [:], kill: Bool = false) {
        log += harness.stop(signal: kill ? SIGKILL : SIGTERM).log
        start(environment: environment)
    }

    func status() -> JSONValue { json(ctl("status", "--json").stdout) }

    @discardableResult
    func ctl(_ arguments: String...) -> (status: Int32, stdout: String, stderr: String) { harness.ctl(arguments) }

    func keys(_ keys: String) { harness.typeKeys(keys) }

    /// Waits (by asking the daemon) until `condition` holds on its status; returns that status.
    @discardableResult
    func waitFor(_ what: String, attempts: Int = 3000, _ condition: (JSONValue) -> Bool) -> JSONValue {
        var last = JSONValue.null
        for _ in 0..<attempts {
            last = status()
            if condition(last) { return last }
            usleep(20_000)
        }
        Issue.record("never happened: \(what); last status \(ControlCodecJSON.text(last))")
        return last
    }

    /// Keeps the screen as evidence for docs/acceptance.md. The change just made (already confirmed by
    /// the daemon's status) is on the screen once a frame has been presented since, or no frame is due.
    func screenshot(_ name: String) {
        guard let evidence else { return }
        runShell("mkdir -p '\(evidence)'")
        let presented = status()["framesPresented"]?.integerValue ?? 0
        waitFor("the screen drawn") { ($0["framesPresented"]?.integerValue ?? 0) > presented || $0["framePending"]?.boolValue == false }
        ctl("screenshot", "\(evidence)/\(name).png")
    }

    func json(_ text: String) -> JSONValue { (try? JSONValue.parse(Array(text.utf8))) ?? .null }

    func finish() -> String {
        log += harness.stop().log
        return log
    }
}

/// Compact JSON for failure messages (without the CLI's module).
enum ControlCodecJSON {
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return "\(n)"
        case .string(let s): return "\"\(s)\""
        case .array(let items): return "[" + items.map(text).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(text($0.value))" }.joined(separator: ",") + "}"
        }
    }
}

/// Audio helpers: the decoded recording and the captured PCM.
enum Audio {
    static func decode(_ path: String) throws -> [Int16] {
        let decoder = try MP3Decoder(path: path)
        var all: [Int16] = []
        var buffer = [Int16](repeating: 0, count: 16_384 * 2)
        while case .frames(let count) = try buffer.withUnsafeMutableBufferPointer({ try decoder.read(into: $0) }) {
            all.append(contentsOf: buffer[..<(count * 2)])
        }
        return all
    }

    static func readCapture(_ path: String) -> [Int16] {
        let bytes = Files.read(path)
        return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    /// The recording frame whose next `length` frames equal the capture's frames from `captureFrame` on
    /// (within `tolerance`), searched within `window` — where in the recording a part of the capture
    /// came from.
    static func locate(_ capture: [Int16], at captureFrame: Int, in recording: [Int16], within window: Range<Int>,
                       length: Int = 441, tolerance: Int = 2) -> Int? {
        guard (captureFrame + length) * 2 <= capture.count else { return nil }
        candidates: for start in window where start >= 0 && (start + length) * 2 <= recording.count {
            for offset in 0..<length {
                let a = Int(capture[(captureFrame + offset) * 2])
                let b = Int(recording[(start + offset) * 2])
                if abs(a - b) > tolerance { continue candidates }
            }
            return start
        }
        return nil
    }

    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}
