// The one errno error: every adapter, the daemon and the CLI throw this for a failed system call, and
// `reason` below is the only place in the firmware where an errno becomes text.

import Glibc

/// A failed system call: what was being done, on what, and the errno it left.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call or step, as the message names it ("open", "rename", "epoll_ctl(ADD, fd 7)").
    public let operation: String
    /// The path (or other object) it was done to, when there is one.
    public let path: String?
    public let errno: Int32

    /// Captures `errno` now: build the error straight after the failed call, before anything else runs.
    public init(_ operation: String, path: String? = nil, errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The C library's text for the errno ("No such file or directory"). The only strerror call for errno
    /// in the firmware, so messages name errors one way; strerror's text is the user's language-neutral
    /// "C" locale here (the daemon never calls setlocale).
    public var reason: String { String(cString: strerror(errno)) }

    /// "operation path: reason"; "operation: reason" without a path; "path: reason" with an empty
    /// operation (a whole-file read, where the path alone says what could not be read).
    public var description: String {
        guard let path else { return "\(operation): \(reason)" }
        return operation.isEmpty ? "\(path): \(reason)" : "\(operation) \(path): \(reason)"
    }

    /// ENOSPC or EDQUOT: the file system (or the user's quota) is full.
    public var isNoSpace: Bool { errno == ENOSPC || errno == EDQUOT }
}
