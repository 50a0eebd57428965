import CLinuxShims
import Glibc
import SystemCalls

/// The systemd notification protocol (sd_notify(3)) without libsystemd: datagrams of `KEY=VALUE` lines
/// to the socket named by $NOTIFY_SOCKET. With no $NOTIFY_SOCKET every call does nothing.
public final class SystemdNotifier {
    private let socket: FileDescriptor?
    /// Half of $WATCHDOG_USEC when the watchdog is on for this process: how often to send WATCHDOG=1.
    public let watchdogInterval: Duration?

    public init(environment: [String: String]) {
        socket = Self.connect(environment["NOTIFY_SOCKET"])
        watchdogInterval = Self.watchdogInterval(environment)
    }

    /// Whether a service manager is listening.
    public var isConnected: Bool { socket != nil }

    /// Sends `READY=1` and a status line.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// Sends `WATCHDOG=1`: the loop is alive.
    public func watchdog() { send("WATCHDOG=1") }

    /// Sends `STOPPING=1`.
    public func stopping() { send("STOPPING=1") }

    /// Sends a free-form `STATUS=` line (shown by `systemctl status`).
    public func status(_ text: String) { send("STATUS=\(text)") }

    func send(_ message: String) {
        guard let socket else { return }
        // A full or vanished socket must not stop the appliance; systemd notices a missing watchdog itself.
        _ = message.utf8CString.withUnsafeBufferPointer { write(socket.rawValue, $0.baseAddress, $0.count - 1) }
    }

    private static func connect(_ path: String?) -> FileDescriptor? {
        guard let path, let first = path.first, first == "/" || first == "@" else { return nil }
        guard let address = try? UnixSocketAddress(path) else { return nil }
        let made = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { return nil }
        let socket = FileDescriptor(adopting: made)
        let connected = retryingOnInterrupt { address.withSockaddr { Glibc.connect(made, $0, $1) } }
        return connected == 0 ? socket : nil
    }

    private static func watchdogInterval(_ environment: [String: String]) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let micros = Int64(text), micros > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"], Int32(pid) != getpid() { return nil }
        return .microseconds(micros / 2)
    }
}
