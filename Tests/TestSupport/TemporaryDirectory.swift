import Glibc
import SystemCalls

/// A fresh directory under /tmp, removed (with its contents) when `remove()` is called.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "stillroom") {
        do throws(SystemError) {
            path = try SystemCalls.Files.makeTemporaryFolder(prefix: "/tmp/\(label)-")
        } catch {
            preconditionFailure("cannot make a temporary folder: \(error)")
        }
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
