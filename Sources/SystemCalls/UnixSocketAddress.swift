import Glibc

/// A Unix socket's address (unix(7)), built in one place because its length follows three rules: a path
/// counts its terminating NUL; an abstract name (written "@name", as systemd writes $NOTIFY_SOCKET) must
/// not count trailing NULs; the empty address, the family alone, asks bind(2) for an autobind name.
public struct UnixSocketAddress: Hashable {
    /// The sockaddr_un's bytes, as long as `length` says.
    public let bytes: [UInt8]

    public var length: socklen_t { socklen_t(bytes.count) }

    /// The longest path sun_path takes, its NUL aside.
    public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private static let familyBytes: [UInt8] = withUnsafeBytes(of: sa_family_t(AF_UNIX)) { Array($0) }

    /// A path, or with a leading "@" an abstract name. ENAMETOOLONG when it does not fit.
    public init(_ path: String) throws(SystemError) {
        var name = Array(path.utf8)
        guard name.count <= Self.maximumPathBytes else { throw SystemError("socket address", path: path, errno: ENAMETOOLONG) }
        if name.first == UInt8(ascii: "@") {
            name[0] = 0
        } else {
            name.append(0)
        }
        bytes = Self.familyBytes + name
    }

    /// An address as recvfrom(2) or accept(2) gave it.
    public init(received: [UInt8]) {
        bytes = received
    }

    /// The address that asks bind(2) for an autobind abstract name: the family alone. It leaves no file
    /// behind and nothing to clean up after a crash.
    public static var autobind: UnixSocketAddress { UnixSocketAddress(received: familyBytes) }

    /// Calls `body` with the address as bind(2), connect(2) or sendto(2) take it.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var storage = sockaddr_un()
        withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes.prefix($0.count)) }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
