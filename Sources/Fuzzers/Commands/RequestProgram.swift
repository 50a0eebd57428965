import ControlProtocol
import StillroomCore

/// Reads fuzzer bytes as a short program of control requests: each request picks a command and a few
/// arguments from the ones the daemon knows, with values drawn from the edges (huge, negative, fractional,
/// empty, not a number, not a string, very long, control characters, real ids). Random bytes seldom make
/// a well-formed JSON request; this way nearly every input reaches the command handlers.
///
/// An input that starts with `{` is taken as JSON lines instead, so hand-written cases and crashes found
/// on the wire can be replayed as they are.
struct RequestProgram {
    /// Each command and the arguments it reads; `unknown-command` and stray keys test the refusals.
    static let commands: [(name: String, keys: [String])] = [
        ("status", []), ("play", ["session"]), ("pause", []), ("resume", []), ("toggle", []), ("stop", []),
        ("seek", ["by", "to"]), ("volume", ["level"]), ("dismiss", ["notice"]), ("sessions", []), ("show", ["session"]),
        ("favorite", ["action", "session"]), ("doctor", []), ("say", ["text"]), ("settings", ["key", "value"]),
        ("history", ["view", "month", "format", "run", "all"]), ("downloads", ["action", "session", "confirmed"]),
        ("reminder", ["action", "time", "days", "style", "quiet"]), ("timer", ["action", "pattern", "minutes"]),
        ("screenshot", ["name", "path"]), ("transcript", ["session"]), ("update", ["action", "source"]), ("unknown-command", ["by"]),
    ]
    /// Values worth trying for each key, on top of anything at all.
    static let typical: [String: [JSONValue]] = [
        "session": ["steady-breath", "body-scan", "tide-breath", "even-breath", "missing", "", "../etc", "STEADY"],
        "by": [15, -15, 1e15, -1e15, 9.3e18, 1e300, -1e300, 86_400, 86_401, 0.000_01, "soon"],
        "to": [0, 30, 299, 300, 1e15, -5, 86_400, 86_401, 1e300, "4:30"],
        "level": [0, 50, 100, 101, -1, 1e300, 2.5],
        "notice": [1, 0, -1, 9e18, -9e18, 1e300],
        "action": ["add", "remove", "start", "cancel", "stop", "show", "set", "off", "list", "delete", "install", "status", "bogus"],
        "source": ["/media/stick/next.raucb", "https://127.0.0.1/next.raucb", "http://127.0.0.1:9/next.raucb", "next.raucb",
                   "/etc/passwd", "/a\nb.raucb", "-rf.raucb", ""],
        "text": ["Hello.", "", "\u{1B}[2J\u{07}"],
        "key": ["volume", "headphones-cap", "day-boundary", "text-size", "dim-after", "timer-minutes", "night-starts", "colour"],
        "value": ["20", "23:30", "12:00", "04:00", "largest", "3600", "99999999999999999999", "-1", "", "on"],
        "view": ["month", "recent", "export", "delete", "bogus"],
        "month": ["2026-12", "2026-13", "0000-01", "9999-12", "-1-01", "2026-1"],
        "format": ["json", "csv", "xml"],
        "run": [1, 0, -1, 9e18, 1e300],
        "time": ["07:30", "25:61", "-1:00", "23:59", ""],
        "days": ["all", "weekdays", "mon,tue", "someday", ""],
        "style": ["chime", "glow", "loud"],
        "quiet": ["22:00-07:00", "07:00-07:00", "25:00-01:00", "-"],
        "pattern": ["4-7-8", "box", "4-6", "nope"],
        "minutes": [1, 60, 0, 61, 1e15, -1],
        "path": ["/tmp/screen.png"],
    ]
    static let anyValues: [JSONValue] = [
        .null, true, false, 0, -0.0, 1, -1, 0.5, 1e15, -1e15, 9.3e18, 1e300, .number(.leastNonzeroMagnitude), "", " ", "-", "+-5",
        "1e15", "NaN", "∞", "é\u{301}", .array([]), .object([:]), .array([1]), .string(String(repeating: "long ", count: 400)),
    ]

    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    /// The requests the input describes.
    static func requests(from input: [UInt8]) -> [ControlRequest] {
        if input.first == UInt8(ascii: "{") {
            return input.split(separator: UInt8(ascii: "\n")).compactMap { try? ControlCodec.decodeRequest(Array($0)).get() }
        }
        var program = RequestProgram(input)
        var requests: [ControlRequest] = []
        while !program.bytes.isEmpty && requests.count < 24 { requests.append(program.nextRequest(id: requests.count + 1)) }
        return requests
    }

    private mutating func next() -> Int { Int(bytes.popFirst() ?? 0) }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[next() % choices.count] }

    private mutating func nextRequest(id: Int) -> ControlRequest {
        let command = pick(Self.commands)
        var arguments: [String: JSONValue] = [:]
        for key in command.keys where next() % 4 != 0 { arguments[key] = nextValue(for: key) }
        if next() % 8 == 0 { arguments[pick(Array(Self.typical.keys).sorted())] = pick(Self.anyValues) } // a stray key
        return ControlRequest(id: id, command: command.name, arguments: arguments)
    }

    private mutating func nextValue(for key: String) -> JSONValue {
        switch next() % 4 {
        case 0: pick(Self.anyValues)
        case 1: .number(Double(Int8(truncatingIfNeeded: next())) * pow10(next() % 20))
        default: pick(Self.typical[key] ?? Self.anyValues)
        }
    }

    private func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
