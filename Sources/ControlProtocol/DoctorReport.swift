import StillroomCore

/// The `doctor` answer: each part of the box, ok or what to do; built by the daemon, and by the CLI from
/// the files when the daemon is down (then the daemon's own check fails, so the whole does too).
///
///     {"checks": [{"check": "database", "ok": true, "detail": "quick_check ok", "fix": ""}, …], "ok": true}
public struct DoctorReport: Equatable, Sendable {
    public struct Check: Equatable, Sendable {
        /// "database", "audio output", "network"…
        public var name: String
        public var ok: Bool
        public var detail: String
        /// What to do when not ok.
        public var fix: String

        public init(_ name: String, ok: Bool, detail: String, fix: String) {
            self.name = name
            self.ok = ok
            self.detail = detail
            self.fix = fix
        }

        var json: JSONValue { .object(["check": .string(name), "ok": .bool(ok), "detail": .string(detail), "fix": .string(fix)]) }
    }

    public var checks: [Check]
    public var ok: Bool

    /// `ok` defaults to every check passing.
    public init(checks: [Check], ok: Bool? = nil) {
        self.checks = checks
        self.ok = ok ?? checks.allSatisfy(\.ok)
    }

    public var json: JSONValue { .object(["checks": .array(checks.map(\.json)), "ok": .bool(ok)]) }

    public init(json: JSONValue) {
        checks = (json["checks"]?.arrayValue ?? []).map { check in
            Check(check["check"]?.stringValue ?? "?", ok: check["ok"]?.boolValue == true, detail: check["detail"]?.stringValue ?? "",
                  fix: check["fix"]?.stringValue ?? "")
        }
        ok = json["ok"]?.boolValue ?? false
    }

    /// With one more check, which the whole then needs too.
    public func adding(_ check: Check) -> DoctorReport { DoctorReport(checks: checks + [check], ok: ok && check.ok) }

    /// The checks PLAY needs (database, content, audio output), ok only when all three are there and pass.
    public var essential: DoctorReport {
        let names: Set<String> = ["database", "content", "audio output"]
        let kept = checks.filter { names.contains($0.name) }
        return DoctorReport(checks: kept, ok: kept.count == names.count && kept.allSatisfy(\.ok))
    }
}
