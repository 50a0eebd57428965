import Glibc
import SystemCalls

/// A Unix datagram socket bound at a path, answering each sender at its own address (as wpa_supplicant's
/// control socket does): the Wi-Fi relay's side that the daemon and the CLI talk to.
public final class DatagramServerSocket {
    /// A sender's address, as recvfrom gave it (an abstract autobind name, or a path).
    public typealias Address = UnixSocketAddress

    private let descriptor: FileDescriptor
    public var fd: Int32 { descriptor.rawValue }
    public let path: String

    /// Binds at `path` (a stale file there is removed first) with `mode` (umask'd from the start, so there
    /// is no moment others could connect).
    public init(path: String, mode: mode_t) throws(SystemError) {
        self.path = path
        let address = try UnixSocketAddress(path)
        descriptor = FileDescriptor(adopting: try systemCall("socket") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        })
        unlink(path)
        let previous = umask(~mode & 0o777)
        let bound = address.withSockaddr { bind(descriptor.rawValue, $0, $1) }
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
            received.append((Array(buffer[..<count]), Address(received: withUnsafeBytes(of: &sender) { Array($0.prefix(Int(length))) })))
        }
    }

    /// Sends `bytes` to `address`; false when the sender is gone (no socket at that address any more, or
    /// one this side may not write to). A full queue loses this datagram only, as wpa_supplicant's own
    /// socket would: a busy client is not let go for it.
    @discardableResult
    public func send(_ bytes: [UInt8], to address: Address) -> Bool {
        let sent = address.withSockaddr { target, length in
            bytes.withUnsafeBytes { payload in
                sendto(fd, payload.baseAddress, payload.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT), target, length)
            }
        }
        return sent == bytes.count || errno == EAGAIN || errno == EWOULDBLOCK || errno == ENOBUFS || errno == EINTR
    }
}
