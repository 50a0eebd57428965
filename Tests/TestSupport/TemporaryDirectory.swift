import Glibc

/// A fresh directory under /tmp, removed (with its contents) when `remove()` is called.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "stillroom") {
        var template = Array("/tmp/\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "mkdtemp failed: errno \(errno)")
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// `path/name`.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Removes the directory and everything below it.
    public func remove() {
        _ = runShell("rm -rf '\(path)'")
    }
}

/// Runs a shell command and returns its exit status (for test set-up only).
@discardableResult
public func runShell(_ command: String) -> Int32 {
    let status = system(command)
    return (status >> 8) & 0xff
}
