/// What wpa_supplicant says on its control socket (docs/image.md, "Wi-Fi": the daemon's contract), read
/// into what the box cares about. Pure: the adapter hands over the datagrams as text.
///
/// Events arrive on an ATTACHed socket as "<level>CTRL-EVENT-… fields"; replies to requests (STATUS,
/// SIGNAL_POLL) are "key=value" lines. Anything else is ignored, never trusted: the socket is root's, but a
/// line that does not parse must not change what the box shows.
public enum SupplicantEvent: Equatable, Sendable {
    /// Joined a network (the 4-way handshake completed).
    case connected
    /// Left or lost the network.
    case disconnected
    /// The access point refused the passphrase (a "temporarily disabled" network with reason WRONG_KEY).
    case wrongPassphrase(ssid: String)
    /// A network disabled for another reason (association refused, …): tried again later by wpa_supplicant.
    case joinFailed(ssid: String, reason: String)
    /// A scan found none of the configured networks.
    case networkNotFound
    /// wpa_supplicant is exiting (stopped, or restarted by systemd).
    case terminating

    /// Reads one event datagram; nil for anything that is not one of the events above.
    public static func parse(_ datagram: String) -> SupplicantEvent? {
        var text = Substring(datagram)
        // "<3>": the message's level; absent when the line comes from a log rather than the socket.
        if text.first == "<", let close = text.firstIndex(of: ">"), text[text.index(after: text.startIndex)..<close].allSatisfy(\.isNumber) {
            text = text[text.index(after: close)...]
        }
        let name = text.prefix { $0 != " " && $0 != "\n" }
        let fields = SupplicantFields(text.dropFirst(name.count))
        switch name {
        case "CTRL-EVENT-CONNECTED": return .connected
        case "CTRL-EVENT-DISCONNECTED": return .disconnected
        case "CTRL-EVENT-NETWORK-NOT-FOUND": return .networkNotFound
        case "CTRL-EVENT-TERMINATING": return .terminating
        case "CTRL-EVENT-SSID-TEMP-DISABLED":
            // wpa_supplicant always names the network and the reason; an SSID is at most 32 bytes.
            guard let escaped = fields["ssid"], let reason = fields["reason"], !reason.isEmpty,
                  SupplicantFields.unescapedBytes(escaped).count <= 32 else { return nil }
            let ssid = SupplicantFields.unescape(escaped)
            return reason == "WRONG_KEY" ? .wrongPassphrase(ssid: ssid) : .joinFailed(ssid: ssid, reason: reason)
        default: return nil
        }
    }
}

/// A STATUS reply: the few fields the box shows.
public struct SupplicantStatus: Equatable, Sendable {
    /// wpa_state: COMPLETED when joined; SCANNING, ASSOCIATING, 4WAY_HANDSHAKE, DISCONNECTED, INACTIVE, …
    public var state: String
    public var ssid: String?

    public var joined: Bool { state == "COMPLETED" }

    public init(state: String, ssid: String? = nil) {
        self.state = state
        self.ssid = ssid
    }

    /// Reads a STATUS reply; nil when it has no wpa_state line (not a STATUS reply).
    public static func parse(_ reply: String) -> SupplicantStatus? {
        var state: String?
        var ssid: String?
        for line in reply.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals]
            let value = String(line[line.index(after: equals)...])
            if key == "wpa_state" { state = value }
            if key == "ssid" { ssid = SupplicantFields.unescape(value) }
        }
        return state.map { SupplicantStatus(state: $0, ssid: ssid) }
    }
}

/// `key=value` fields of an event line, where a value may be a quoted string with spaces.
struct SupplicantFields {
    private var values: [String: String] = [:]

    init(_ text: Substring) {
        var rest = text[...]
        while true {
            rest = rest.drop { $0 == " " }
            guard let equals = rest.firstIndex(of: "="), !rest.isEmpty else { return }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            if rest.first == "\"" {
                // wpa_supplicant prints SSIDs with printf_encode: a quote inside is \", a backslash \\.
                var value = "\""
                var index = rest.index(after: rest.startIndex)
                var escaped = false
                var closed = false
                while index < rest.endIndex {
                    let character = rest[index]
                    value.append(character)
                    index = rest.index(after: index)
                    if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { closed = true; break }
                }
                guard closed else { return } // cut short (a datagram truncated): the fields so far only
                values[key] = String(value.dropFirst().dropLast())
                rest = rest[index...]
            } else {
                let value = rest.prefix { $0 != " " }
                values[key] = String(value)
                rest = rest.dropFirst(value.count)
            }
        }
    }

    subscript(key: String) -> String? { values[key] }

    /// Undoes wpa_supplicant's printf_encode (\\, \", \n, \r, \t, \e, \xHH) into the SSID's bytes, read as
    /// UTF-8 (invalid bytes become U+FFFD: the text is for people, never used to join).
    static func unescape(_ text: String) -> String {
        // Control characters would reach the screen and the terminal: shown as spaces.
        String(decoding: unescapedBytes(text).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    static func unescapedBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.popFirst() else {
                bytes.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "e"): bytes.append(0x1B)
            case UInt8(ascii: "x"):
                let digits = input.prefix(2)
                if digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) {
                    bytes.append(value)
                    input = input.dropFirst(2)
                } else {
                    bytes.append(next)
                }
            default: bytes.append(next)
            }
        }
        return bytes
    }
}
