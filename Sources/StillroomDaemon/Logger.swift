import Glibc

/// Log lines on stderr with syslog priority prefixes, which journald turns into priorities
/// (sd-daemon(3)): `<3>` error, `<4>` warning, `<5>` notice, `<6>` info, `<7>` debug.
///
/// Each line is one write(2), so lines from a crash or a SIGKILL are never half-buffered: stderr is
/// unbuffered and stdout (block-buffered under systemd) is not used for logs.
public struct Logger: Sendable {
    public enum Priority: Int32, Comparable, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7

        public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
    }

    private let fd: Int32
    /// Lines less important than this are dropped.
    public let threshold: Priority

    public init(fd: Int32 = STDERR_FILENO, threshold: Priority = .info) {
        self.fd = fd
        self.threshold = threshold
    }

    public func log(_ priority: Priority, _ message: String) {
        guard priority <= threshold else { return }
        // One event, one line: newlines inside a message would split it into lines of unknown priority.
        let flat = message.contains("\n") ? message.split(separator: "\n").joined(separator: " | ") : message
        let line = "<\(priority.rawValue)>\(flat)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }

    public func error(_ message: String) { log(.error, message) }
    public func warning(_ message: String) { log(.warning, message) }
    public func notice(_ message: String) { log(.notice, message) }
    public func info(_ message: String) { log(.info, message) }
    public func debug(_ message: String) { log(.debug, message) }
}
