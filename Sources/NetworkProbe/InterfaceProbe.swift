import Glibc
import SystemCalls
import StillroomCore

/// The box's network interfaces as the kernel reports them to this process: names, link state and addresses
/// from getifaddrs(3) (of this network namespace, unlike a listing of sysfs), whether each is wireless from
/// sysfs, the Wi-Fi signal from /proc/net/wireless, and wpa_supplicant's STATUS where it runs.
public enum InterfaceProbe {
    public static func read(sysfs: String = "/sys/class/net", wireless: String = "/proc/self/net/wireless",
                            supplicantDirectory: String = "/run/stillroom-wifi") -> [NetworkReport.Interface] {
        let links = linksByInterface()
        let signals = signalLevels(readText(wireless) ?? "")
        let supplicants = Set(SupplicantSocket.interfaces(in: supplicantDirectory))
        // A socket without its interface (a USB Wi-Fi stick pulled) is still shown: wpa_supplicant runs there.
        let all = links.keys.sorted() + supplicants.subtracting(links.keys).sorted()
        return all.map { name in
            let isWireless = access("\(sysfs)/\(name)/wireless", F_OK) == 0 || access("\(sysfs)/\(name)/phy80211", F_OK) == 0
            let status = supplicants.contains(name)
                ? SupplicantSocket.ask("STATUS", interface: name, in: supplicantDirectory).flatMap(SupplicantStatus.parse) : nil
            return NetworkReport.Interface(name: name, wireless: isWireless || status != nil, up: links[name]?.up ?? false,
                                           addresses: links[name]?.addresses ?? [], signalDBm: signals[name], supplicant: status)
        }
    }

    /// Every interface getifaddrs lists (each appears at least once, with its link-layer entry): whether it is
    /// up and running (IFF_UP and IFF_RUNNING: operstate "up", a carrier or a joined Wi-Fi), and its IPv4
    /// and IPv6 addresses.
    static func linksByInterface() -> [String: (up: Bool, addresses: [String])] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [:] }
        defer { freeifaddrs(first) }
        var result: [String: (up: Bool, addresses: [String])] = [:]
        var cursor = first
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            guard let cName = entry.pointee.ifa_name else { continue }
            let name = String(cString: cName)
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            let running = flags & Int32(IFF_UP) != 0 && flags & Int32(IFF_RUNNING) != 0
            var link = result[name] ?? (running, [])
            link.up = link.up || running
            defer { result[name] = link }
            guard let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let source: UnsafeRawPointer = family == AF_INET
                ? UnsafeRawPointer(address).advanced(by: MemoryLayout<sockaddr_in>.offset(of: \sockaddr_in.sin_addr)!)
                : UnsafeRawPointer(address).advanced(by: MemoryLayout<sockaddr_in6>.offset(of: \sockaddr_in6.sin6_addr)!)
            guard inet_ntop(family, source, &text, socklen_t(text.count)) != nil else { continue }
            link.addresses.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return result
    }

    /// /proc/net/wireless: "wlan0: 0000   70.  -40.  -256 …"; the level column is in dBm.
    static func signalLevels(_ text: String) -> [String: Int] {
        var result: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(" ")
            let columns = line[line.index(after: colon)...].split(separator: " ")
            guard columns.count >= 3, let level = Double(columns[2].filter { $0 != "." }) else { continue }
            result[name] = Int(level)
        }
        return result
    }

    static func readText(_ path: String) -> String? {
        // /proc and /sys files are small (a page); the limit only guards against a file that is not.
        guard let bytes = try? Files.readAll(path, limit: 1 << 20) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    func trimmingCharacters(_ character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
