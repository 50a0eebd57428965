import StillroomCore

/// The `timer` answer: whether the breathing timer runs, and if so its pattern, length, time left and the
/// breath's phase now (nil between breaths).
///
///     {"running": true, "pattern": "box", "minutes": 5, "remaining": 241.5, "phase": "inhale"}
///     {"running": false}
public struct TimerReport: Equatable, Sendable {
    public struct Running: Equatable, Sendable {
        public var pattern: String
        public var minutes: Double
        public var remainingSeconds: Double
        public var phase: String?

        public init(pattern: String, minutes: Double, remainingSeconds: Double, phase: String?) {
            self.pattern = pattern
            self.minutes = minutes
            self.remainingSeconds = remainingSeconds
            self.phase = phase
        }
    }

    /// nil when no timer runs.
    public var running: Running?

    public init(running: Running?) { self.running = running }

    public var json: JSONValue {
        guard let running else { return .object(["running": false]) }
        return .object([
            "running": true, "pattern": .string(running.pattern), "minutes": .number(running.minutes),
            "remaining": .number(running.remainingSeconds), "phase": running.phase.map { .string($0) } ?? .null,
        ])
    }

    public init(json: JSONValue) {
        guard json["running"]?.boolValue == true else {
            running = nil
            return
        }
        running = Running(pattern: json["pattern"]?.stringValue ?? "", minutes: json["minutes"]?.doubleValue ?? 0,
                          remainingSeconds: json["remaining"]?.doubleValue ?? 0, phase: json["phase"]?.stringValue)
    }
}
