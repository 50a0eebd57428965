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
    static let commands = [
        "status", "play", "pause", "resume", "toggle", "stop", "seek", "volume", "dismiss", "sessions", "show",
        "favorite", "doctor", "say", "settings", "history", "downloads", "reminder", "timer", "screenshot", "transcript",
        "unknown-command",
    ]
    static let keys = [
        "session", "by", "to", "level", "notice", "action", "text", "key", "value", "view", "month", "format",
        "run", "all", "confirmed", "time", "days", "style", "quiet", "pattern", "minutes", "path",
    ]
    static let words = [
        "steady-breath", "sweep", "long", "missing", "even-breath", "add", "remove", "start", "cancel", "stop", "show",
        "set", "off", "list", "delete", "month", "recent", "export", "json", "csv", "all", "weekdays", "mon,tue",
        "chime", "glow", "22:00-07:00", "23:30", "12:00", "04:00", "25:61", "-1:00", "2026-13", "0000-01", "9999-12",
        "volume", "headphones-cap", "day-boundary", "text-size", "largest", "dim-after", "timer-minutes", "box",
        "square", "", " ", "-", "+-5", "1e15", "NaN", "∞", "\u{1B}[2J", "\u{7F}\u{07}", "é\u{301}", "../../etc",
    ]
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.5, 15, -15, 59.999, 60, 61, 100, 101, 3_600, 86_400, 86_401, -86_401, 1e9, -1e9, 1e15,
        -1e15, 9.3e18, -9.3e18, 1e300, -1e300, 2_147_483_648, 9_007_199_254_740_994, .leastNonzeroMagnitude,
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
        for _ in 0..<(next() % 4) { arguments[pick(Self.keys)] = nextValue() }
        return ControlRequest(id: id, command: command, arguments: arguments)
    }

    private mutating func nextValue() -> JSONValue {
        switch next() % 8 {
        case 0, 1: .string(pick(Self.words))
        case 2, 3: .number(pick(Self.numbers))
        case 4: .number(Double(Int8(truncatingIfNeeded: next())) * pow10(next() % 20))
        case 5: .bool(next() % 2 == 0)
        case 6: .string(String(repeating: pick(Self.words) + " ", count: 1 + next() * 8))
        default: [.null, .array([]), .object([:]), .array([.number(1)])][next() % 4]
        }
    }

    private func pow10(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
