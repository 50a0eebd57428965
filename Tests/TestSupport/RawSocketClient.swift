import Glibc

/// A bare Unix-socket client for sending arbitrary bytes to the control socket (garbage, halves, floods).
public final class RawSocketClient {
    public let fd: Int32

    public init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let connected = withUnixSocketAddress(path) { connect(fd, $0, $1) }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        var limit = timeval(tv_sec: 60, tv_usec: 0) // a hang guard, not a timing
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Reads until `count` newline-terminated lines have arrived (or the peer closes).
    public func readLines(_ count: Int) -> [String] {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.filter({ $0 == 0x0A }).count < count {
            let got = recv(fd, &chunk, chunk.count, 0)
            if got <= 0 { break }
            buffer += chunk[..<got]
        }
        return String(decoding: buffer, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Closes our writing side (a half-written line stays half-written).
    public func finishWriting() { shutdown(fd, Int32(SHUT_WR)) }
}
