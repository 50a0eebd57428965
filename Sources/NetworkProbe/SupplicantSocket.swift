import Glibc
import SystemCalls

/// A client socket on one of wpa_supplicant's control sockets (/run/wpa_supplicant/<interface>): a Unix
/// datagram socket, connected to it. wpa_supplicant answers to the sender's address, so the client needs
/// one: an abstract name the kernel picks (autobind), which leaves no file behind in a folder the
/// daemon may not write (its unit's ProtectSystem=strict) and nothing to clean up after a crash.
public final class SupplicantSocket {
    private let descriptor: FileDescriptor
    public var fd: Int32 { descriptor.rawValue }
    public let path: String
    /// The inode of the socket file it was connected through, to notice one made anew under the same name.
    public let inode: UInt64

    public init(path: String) throws {
        self.path = path
        inode = Self.inode(of: path)
        let made = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard made >= 0 else { throw SupplicantSocketError(SystemError("socket").description) }
        descriptor = FileDescriptor(adopting: made) // closed with this object, or at once when a step fails
        let bound = UnixSocketAddress.autobind.withSockaddr { bind(made, $0, $1) }
        guard bound == 0 else { throw SupplicantSocketError("\(path): \(SystemError("bind").reason)") }
        guard let remote = try? UnixSocketAddress(path) else { throw SupplicantSocketError("\(path): the path is too long") }
        let connected = retryingOnInterrupt { remote.withSockaddr { connect(made, $0, $1) } }
        guard connected == 0 else { throw SupplicantSocketError("\(path): \(SystemError("connect").reason)") }
    }

    /// The inode of the file at `path` (0 when there is none).
    static func inode(of path: String) -> UInt64 {
        var info = stat()
        return lstat(path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    /// Sends one command ("STATUS", "ATTACH"); false if wpa_supplicant is gone or its queue is full.
    @discardableResult
    public func send(_ command: String) -> Bool {
        let bytes = Array(command.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// The datagrams waiting now (non-blocking), as text; `gone` when the peer went away (the read
    /// failed with ECONNREFUSED: wpa_supplicant stopped and its socket is no more).
    public func receiveWaiting() -> (datagrams: [String], gone: Bool) {
        let (datagrams, gone) = receiveWaitingBytes()
        return (datagrams.map { String(decoding: $0, as: UTF8.self) }, gone)
    }

    /// The same, as the bytes arrived (the Wi-Fi relay passes them on untouched).
    public func receiveWaitingBytes() -> (datagrams: [[UInt8]], gone: Bool) {
        var datagrams: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = retryingOnInterrupt { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            if count > 0 {
                datagrams.append(Array(buffer[..<count]))
                continue
            }
            return (datagrams, count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        }
    }

    /// Waits up to `milliseconds` for one datagram (the CLI's request, never the daemon's loop).
    public func receive(waitingUpTo milliseconds: Int32) -> String? {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard retryingOnInterrupt({ poll(&request, 1, milliseconds) }) > 0 else { return nil }
        return receiveWaiting().datagrams.first
    }
}

public struct SupplicantSocketError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension SupplicantSocket {
    /// The folder's control sockets, one per interface wpa_supplicant runs on (a P2P device's is skipped:
    /// the box makes no Wi-Fi Direct connections).
    public static func interfaces(in directory: String) -> [String] {
        let names = ((try? Files.listDirectory(directory)) ?? []).filter { name in
            guard !name.hasPrefix("."), !name.hasPrefix("p2p-dev-") else { return false }
            var info = stat()
            return lstat(directory + "/" + name, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        }
        return names.sorted()
    }

    /// One request and its reply, waiting up to two seconds (wpa_supplicant answers at once; the bound is
    /// for one that is wedged). For the CLI; the daemon never waits.
    public static func ask(_ command: String, interface: String, in directory: String) -> String? {
        guard let socket = try? SupplicantSocket(path: directory + "/" + interface), socket.send(command) else { return nil }
        return socket.receive(waitingUpTo: 2000)
    }
}
