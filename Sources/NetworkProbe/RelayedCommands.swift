// What the Wi-Fi relay passes from the daemon to wpa_supplicant (docs/security.md, "Wi-Fi"): the daemon
// follows the Wi-Fi (events, STATUS) and the CLI reads it (STATUS, SIGNAL_POLL); nothing that changes a
// network, a setting or a radio. wpa_supplicant's control socket takes any command from whoever may
// connect (ADD_NETWORK, SET_NETWORK, RECONFIGURE, …), so the daemon reaches it only through this list.

public enum RelayedCommands {
    /// Whole commands passed on as they are; every other datagram is answered "FAIL" and never sent on.
    public static let allowed: Set<String> = ["PING", "STATUS", "SIGNAL_POLL", "ATTACH", "DETACH"]

    /// wpa_supplicant's own answer to a command it refuses.
    public static let refusal = "FAIL\n"

    public static func allows(_ datagram: [UInt8]) -> Bool {
        allowed.contains(String(decoding: datagram, as: UTF8.self))
    }

    /// A refused datagram's first word, for the log: at most 32 printable ASCII characters.
    public static func logName(_ datagram: [UInt8]) -> String {
        let word = datagram.prefix { $0 != 0x20 }.prefix(32)
        return String(decoding: word.map { (0x21...0x7e).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
