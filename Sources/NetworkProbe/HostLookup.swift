import Glibc
import StillroomCore

/// Looks up the hosts downloads come from, with the system's resolver (getaddrinfo(3): nsswitch, then
/// systemd-resolved's stub or /etc/resolv.conf). Blocking, for the CLI only: the daemon never waits on DNS.
public enum HostLookup {
    public static func lookUp(_ host: String) -> NetworkReport.Lookup {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var first: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &first)
        guard status == 0 else {
            return NetworkReport.Lookup(host: host, result: .failure(.init(String(cString: gai_strerror(status)))))
        }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var cursor = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !addresses.contains(address) { addresses.append(address) }
            }
        }
        return NetworkReport.Lookup(host: host, result: .success(addresses))
    }
}
