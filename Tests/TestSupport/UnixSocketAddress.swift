import Glibc
import SystemCalls

/// Calls `body` with `path` as a Unix socket address (for bind or connect) and its length
/// (SystemCalls.UnixSocketAddress; a path too long for one is a test's own mistake).
public func withUnixSocketAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
    guard let address = try? UnixSocketAddress(path) else { fatalError("\(path) is too long for a Unix socket address") }
    return address.withSockaddr(body)
}
