import Glibc
import SystemCalls

/// A Unix datagram socket bound at a path, answering each sender at its own address (as wpa_supplicant's
/// control socket does): the Wi-Fi relay's side that the daemon and the CLI talk to.
public final class DatagramServerSocket {
    /// A sender's address, as recvfrom gave it (an abstract autobind name, or a path).
    public struct Address: Hashable {
        let bytes: [UInt8]
    }

    private let descriptor: FileDescriptor
    public var fd: Int32 { descriptor.rawValue }
    public let path: String

    /// Binds at `path` (a stale file there is removed first) with `mode` (umask'd from the start, so there
    /// is no moment others could connect).
    public init(path: String, mode: mode_t) throws(SystemError) {
        self.path = path
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw SystemError("bind", path: path, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        descriptor = FileDescriptor(adopting: try systemCall("socket") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        })
        unlink(path)
        let previous = umask(~mode & 0o777)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0 else { throw SystemError("bind", path: path) }
    }

    /// Removes the socket's file (the socket itself closes with this object).
    public func unlinkPath() { unlink(path) }

    /// The datagrams waiting now, with their senders (non-blocking).
    public func receiveWaiting() -> [(bytes: [UInt8], from: Address)] {
        var received: [(bytes: [UInt8], from: Address)] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var sender = sockaddr_un()
            var length = socklen_t(MemoryLayout<sockaddr_un>.size)
            let count = retryingOnInterrupt {
                buffer.withUnsafeMutableBytes { raw in
                    withUnsafeMutablePointer(to: &sender) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, raw.baseAddress, raw.count, 0, $0, &length) }
                    }
                }
            }
            guard count >= 0 else { return received }
            let address = withUnsafeBytes(of: &sender) { Array($0.prefix(Int(length))) }
            received.append((Array(buffer[..<count]), Address(bytes: address)))
        }
    }

    /// Sends `bytes` to `address`; false when the sender is gone (no socket at that address any more, or
    /// one this side may not write to). A full queue loses this datagram only, as wpa_supplicant's own
    /// socket would: a busy client is not let go for it.
    @discardableResult
    public func send(_ bytes: [UInt8], to address: Address) -> Bool {
        let sent = address.bytes.withUnsafeBytes { raw in
            bytes.withUnsafeBytes { payload in
                sendto(fd, payload.baseAddress, payload.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT),
                       raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
        }
        return sent == bytes.count || errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS || errno == EINTR
    }
}
