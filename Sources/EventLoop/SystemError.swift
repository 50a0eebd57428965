import Glibc

/// A failed system call: the operation and the errno it left.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let operation: String
    public let errno: Int32

    public init(_ operation: String, errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.errno = errno
    }

    public var description: String { "\(operation): \(String(cString: strerror(errno)))" }
}

/// Calls `body` until it does not fail with EINTR; a failure other than EINTR throws.
///
/// EINTR is never an error for the loop: a signal we route through signalfd can still interrupt a call.
@discardableResult
func retryingOnInterrupt<Result: BinaryInteger>(_ operation: String, _ body: () -> Result) throws(SystemError) -> Result {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(operation, errno: code)
    }
}
