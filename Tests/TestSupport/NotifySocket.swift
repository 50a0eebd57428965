import Glibc

/// A datagram socket standing in for systemd's notify socket.
public final class NotifySocket {
    public let fd: Int32
    public let path: String

    public init(path: String) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnixSocketAddress(path) { bind(fd, $0, $1) }
        precondition(bound == 0, "bind \(path): errno \(errno)")
        // A guard against a hang when the peer never sends (a crash): not a timing assertion.
        var limit = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Receives datagrams until one contains `text`; returns everything received up to it.
    public func receive(until text: String) -> [String] {
        var received: [String] = []
        while true {
            let message = receive()
            guard !message.isEmpty else { return received }
            received.append(message)
            if message.contains(text) { return received }
        }
    }

    /// The datagrams already sent and not yet received, without waiting for more.
    public func pending() -> [String] {
        var received: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { return received }
            received.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }

    /// The next datagram (blocking; empty after the guard time).
    public func receive() -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return String(decoding: buffer[..<max(0, count)], as: UTF8.self)
    }

    deinit { close(fd) }
}

