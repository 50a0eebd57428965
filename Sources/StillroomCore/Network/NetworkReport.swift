/// `stillroomctl network` and doctor's "network" line, from facts the CLI gathered (interfaces from sysfs and
/// getifaddrs, the Wi-Fi signal, wpa_supplicant's STATUS, the daemon's Wi-Fi problem, host lookups). Pure.
public struct NetworkReport: Equatable, Sendable {
    public struct Interface: Equatable, Sendable {
        public var name: String
        public var wireless: Bool
        /// operstate "up" (a carrier, or a joined Wi-Fi).
        public var up: Bool
        /// Addresses as text ("192.168.4.23", "fd00::5"); link-local IPv6 ones left out by the caller or here.
        public var addresses: [String]
        /// Signal level in dBm (/proc/net/wireless or SIGNAL_POLL), for a joined Wi-Fi.
        public var signalDBm: Int?
        /// wpa_supplicant's STATUS for this interface, when it runs there.
        public var supplicant: SupplicantStatus?

        public init(name: String, wireless: Bool, up: Bool, addresses: [String], signalDBm: Int? = nil, supplicant: SupplicantStatus? = nil) {
            self.name = name
            self.wireless = wireless
            self.up = up
            self.addresses = addresses
            self.signalDBm = signalDBm
            self.supplicant = supplicant
        }

        /// Addresses other boxes can reach: not loopback, not IPv6 link-local.
        var usableAddresses: [String] {
            addresses.filter { !$0.hasPrefix("127.") && $0 != "::1" && !$0.lowercased().hasPrefix("fe80:") }
        }
    }

    /// A download host and what looking it up gave: its addresses, or the resolver's error.
    public struct Lookup: Equatable, Sendable {
        public var host: String
        public var result: Result<[String], LookupError>

        public init(host: String, result: Result<[String], LookupError>) {
            self.host = host
            self.result = result
        }
    }

    public struct LookupError: Error, Equatable, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    public var interfaces: [Interface]
    /// Why the daemon's Wi-Fi is not joined, as wpa_supplicant told it (nil: none known, or daemon down).
    public var wifiProblem: WifiWatch.Problem?
    /// The hosts downloads come from, looked up; nil when they could not be known (the daemon is down).
    public var lookups: [Lookup]?

    public init(interfaces: [Interface], wifiProblem: WifiWatch.Problem? = nil, lookups: [Lookup]? = nil) {
        self.interfaces = interfaces.filter { $0.name != "lo" }
        self.wifiProblem = wifiProblem
        self.lookups = lookups
    }

    /// The interfaces with an address others can reach.
    var connected: [Interface] { interfaces.filter { $0.up && !$0.usableAddresses.isEmpty } }

    /// "good", "fair", "weak": the usual bands for a Wi-Fi station (about −60 and −70 dBm).
    public static func signalWord(_ dBm: Int) -> String { dBm >= -60 ? "good" : dBm >= -70 ? "fair" : "weak" }

    /// One interface as a line: "wlan0 (Wi-Fi): joined "home", 192.168.4.23, signal −52 dBm (good)".
    public static func line(_ interface: Interface) -> String {
        var parts: [String] = []
        if let supplicant = interface.supplicant {
            parts.append(supplicant.joined ? "joined \u{201C}\(supplicant.ssid ?? "?")\u{201D}" : "not joined (\(supplicant.state.lowercased()))")
        } else if interface.wireless {
            parts.append(interface.up ? "up" : "not set up (no wifi.txt yet)")
        } else {
            parts.append(interface.up ? "link up" : "no link (no cable?)")
        }
        let addresses = interface.usableAddresses
        if !addresses.isEmpty { parts.append(addresses.joined(separator: ", ")) } else if interface.up { parts.append("no address yet") }
        if let signal = interface.signalDBm, interface.supplicant?.joined ?? interface.up {
            parts.append("signal \(signal) dBm (\(signalWord(signal)))")
        }
        return "\(interface.name) (\(interface.wireless ? "Wi-Fi" : "wired")): " + parts.joined(separator: ", ")
    }

    /// The doctor's verdict: ok when an interface has a usable address and every download host resolves.
    public var check: (ok: Bool, detail: String, fix: String) {
        let up = connected
        guard !up.isEmpty else {
            if let problem = wifiProblem { return (false, "no network: " + problem.detail, problem.fix) }
            let wifi = interfaces.first { $0.wireless }
            let detail = interfaces.isEmpty ? "no network interface" : "no network: " + interfaces.map(Self.line).joined(separator: "; ")
            let fix = wifi == nil
                ? "plug in a network cable; the box plays without a network, but cannot download or set its clock"
                : "plug in a network cable, or set up Wi-Fi with wifi.txt on the card's boot partition (docs/image.md, Wi-Fi)"
            return (false, detail, fix)
        }
        var detail = up.map(Self.line).joined(separator: "; ")
        guard let lookups else { return (true, detail, "") }
        let failed = lookups.filter { if case .failure = $0.result { return true } else { return false } }
        if let first = failed.first, case .failure(let error) = first.result {
            detail += "; \(first.host) does not resolve (\(error.message))"
            return (false, detail, "the network has no working DNS: check the router, or the box's DHCP lease (networkctl status)")
        }
        if !lookups.isEmpty { detail += "; download hosts resolve" }
        return (true, detail, "")
    }

    /// `stillroomctl network`: every interface, the Wi-Fi problem, the lookups, the verdict.
    public var lines: [String] {
        var result = interfaces.isEmpty ? ["no network interface"] : interfaces.map(Self.line)
        if let wifiProblem { result.append("Wi-Fi: \(wifiProblem.detail); \(wifiProblem.fix)") }
        if let lookups {
            for lookup in lookups {
                switch lookup.result {
                case .success(let addresses): result.append("\(lookup.host): \(addresses.prefix(2).joined(separator: ", "))")
                case .failure(let error): result.append("\(lookup.host): does not resolve (\(error.message))")
                }
            }
        } else {
            result.append("download hosts: not looked up (the daemon is not running, so they are not known)")
        }
        let verdict = check
        result.append(verdict.ok ? "ok" : "not ok: \(verdict.fix)")
        return result
    }
}
