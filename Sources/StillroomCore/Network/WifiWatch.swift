/// What the box knows of its Wi-Fi from wpa_supplicant's events: whether it is joined and, when it cannot
/// join, why. Pure; the daemon feeds it the events and shows `problem` as a quiet notice and a doctor line.
public struct WifiWatch: Equatable, Sendable {
    public enum Problem: Equatable, Sendable {
        case wrongPassphrase(ssid: String)
        case couldNotJoin(ssid: String, reason: String)
        case networkNotFound
    }

    /// True between a CONNECTED and the next DISCONNECTED or TERMINATING.
    public private(set) var joined = false
    /// Why the box is not joined, when wpa_supplicant said; nil once it joins or stops.
    public private(set) var problem: Problem?

    public init() {}

    /// Takes one event; true when `problem` changed (the screen's notice follows it).
    @discardableResult
    public mutating func take(_ event: SupplicantEvent) -> Bool {
        let before = problem
        switch event {
        case .connected:
            joined = true
            problem = nil
        case .disconnected:
            joined = false
        case .terminating:
            // No wpa_supplicant, nothing trying to join: a problem it told is no longer current (a new one
            // says it again once it runs).
            joined = false
            problem = nil
        case .wrongPassphrase(let ssid):
            joined = false
            problem = .wrongPassphrase(ssid: ssid)
        case .joinFailed(let ssid, let reason):
            // A refused passphrase is the more useful cause: a later failure of the same join keeps it.
            if case .wrongPassphrase = problem { break }
            problem = .couldNotJoin(ssid: ssid, reason: reason)
        case .networkNotFound:
            // While the only network is disabled after a refusal, scans find "nothing": keep the refusal.
            if case .wrongPassphrase = problem { break }
            if joined { break }
            problem = .networkNotFound
        }
        return problem != before
    }

    /// A STATUS reply read on attaching (the daemon may start after the join).
    public mutating func take(_ status: SupplicantStatus) {
        joined = status.joined
        if joined { problem = nil }
    }
}

extension WifiWatch.Problem {
    /// One line for `stillroomctl doctor` and the journal.
    public var detail: String {
        switch self {
        case .wrongPassphrase(let ssid): return "Wi-Fi \"\(ssid)\" refused the passphrase"
        case .couldNotJoin(let ssid, let reason): return "Wi-Fi \"\(ssid)\" could not be joined (\(reason))"
        case .networkNotFound: return "the Wi-Fi network set up for the box is not in range"
        }
    }

    /// What the owner can do.
    public var fix: String {
        switch self {
        case .wrongPassphrase:
            return "write wifi.txt again on the card's boot partition with the right passphrase and restart the box (docs/image.md, Wi-Fi)"
        case .couldNotJoin:
            return "move the box nearer the access point, or check that it allows WPA2 (docs/image.md, Wi-Fi)"
        case .networkNotFound:
            return "check the network's name (ssid) in wifi.txt and that the access point is on; a Pi Zero 2 W only sees 2.4 GHz networks"
        }
    }

    /// The screen's quiet notice: what happened and that the box still plays.
    public var noticeMessage: String {
        switch self {
        case .wrongPassphrase(let ssid): return "The Wi-Fi network \u{201C}\(ssid)\u{201D} did not accept the passphrase. Sessions on the box play as usual."
        case .couldNotJoin(let ssid, _): return "The box could not join the Wi-Fi network \u{201C}\(ssid)\u{201D}. Sessions on the box play as usual."
        case .networkNotFound: return "The box cannot find its Wi-Fi network. Sessions on the box play as usual."
        }
    }
}
