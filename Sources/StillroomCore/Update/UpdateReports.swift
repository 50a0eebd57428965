/// What the update agent (board/rauc/stillroom-update-agent, root) writes for the daemon in the update
/// folder: `key=value` lines, each file replaced whole. Anything unknown or malformed is left out, never
/// trusted: a value is one line, at most 512 bytes.
public enum UpdateReportText {
    public static let maximumValueLength = 512

    public static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            let value = String(line[line.index(after: equals)...].prefix(maximumValueLength))
            guard !key.isEmpty, key.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (0x61...0x7a).contains($0) }) else { continue }
            fields[key] = value
        }
        return fields
    }
}

/// The agent's account of the install it is running or last ran (file `progress`).
public struct UpdateProgress: Equatable, Sendable {
    public enum State: String, Sendable {
        /// RAUC is checking and writing the other slot.
        case installing
        /// Written and pending: the daemon may restart the box into it.
        case installed
        /// The daemon asked for the restart; the agent is rebooting into the new slot.
        case restarting
        /// Refused or broken off; nothing was switched.
        case failed
    }

    public var state: State
    /// 0 to 100, RAUC's own figure.
    public var percent: Int
    /// RAUC's step ("Checking bundle", "Copying image to rootfs.1").
    public var step: String
    public var source: String
    /// The version written, once known.
    public var version: String
    /// Why it failed (RAUC's LastError, or the agent's own sentence).
    public var message: String

    public init(state: State, percent: Int = 0, step: String = "", source: String = "", version: String = "", message: String = "") {
        self.state = state
        self.percent = percent
        self.step = step
        self.source = source
        self.version = version
        self.message = message
    }

    /// nil when the text names no known state.
    public init?(reportText text: String) {
        let fields = UpdateReportText.fields(text)
        guard let state = fields["state"].flatMap(State.init(rawValue:)) else { return nil }
        self.init(state: state, percent: min(100, max(0, Int(fields["percent"] ?? "") ?? 0)), step: fields["step"] ?? "",
                  source: fields["source"] ?? "", version: fields["version"] ?? "", message: fields["message"] ?? "")
    }
}

/// The slots as `stillroom-boot-select status` tells them (file `status`, refreshed at each boot's slot
/// check and after each install).
public struct SlotStatus: Equatable, Sendable {
    public var booted: String
    public var bootedVersion: String
    public var committed: String
    public var pending: String
    public var pendingVersion: String
    /// The other slot's version as RAUC last wrote it (empty for a slot never written by an update).
    public var otherVersion: String
    public var bad: [String]
    /// "updated: running …", "update failed: … back to slot A", or empty before any update.
    public var lastResult: String

    public init?(reportText text: String) {
        let fields = UpdateReportText.fields(text)
        guard let booted = fields["booted"], booted == "A" || booted == "B" else { return nil }
        self.booted = booted
        bootedVersion = fields["booted_version"] ?? ""
        committed = fields["committed"] ?? ""
        pending = fields["pending"] ?? ""
        pendingVersion = fields["pending_version"] ?? ""
        otherVersion = fields["other_version"] ?? ""
        bad = (fields["bad"] ?? "").split(separator: " ").map(String.init).filter { $0 == "A" || $0 == "B" }
        lastResult = fields["last_result"] ?? ""
    }

    /// The last update was given up and the box went back: worth a notice until the owner has seen it.
    public var lastUpdateRolledBack: Bool { lastResult.hasPrefix("update failed") }
}
