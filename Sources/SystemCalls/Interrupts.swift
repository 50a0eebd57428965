// The one EINTR policy. A signal caught by a handler installed without SA_RESTART (the terminal's crash
// restore, a test's alarm) makes a blocking call fail with EINTR; nothing happened, so the call is made
// again. Every read, write, open, fsync, flock, poll and accept in the firmware goes through here.
//
// close(2) is the exception and must never be retried: on Linux the descriptor is released before close
// reports EINTR, so a second close would close whatever descriptor number another open has been given
// since (another thread, or the loop's next registration). `FileDescriptor.close()` calls it once.

import Glibc

/// Calls `body` again while it fails with EINTR, and returns its first other result; on failure errno is
/// still the call's own (nothing runs between the call and the return).
///
/// `body` returns the system call's result: negative (-1) on failure with errno set.
@inlinable
public func retryingOnInterrupt<Result: BinaryInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result < 0 && errno == EINTR { continue }
        return result
    }
}

/// As `retryingOnInterrupt`, throwing a `SystemError` naming `operation` and `path` on any other failure.
@discardableResult
@inlinable
public func systemCall<Result: BinaryInteger>(_ operation: String, path: String? = nil,
                                              _ body: () -> Result) throws(SystemError) -> Result {
    let result = retryingOnInterrupt(body)
    guard result >= 0 else { throw SystemError(operation, path: path) }
    return result
}
