import Glibc
import SystemCalls
import Testing

/// The write end of the pipe the signal handler writes to (a C handler cannot capture).
nonisolated(unsafe) private var handlerPipe: Int32 = -1
/// The thread blocked in the read, for the signalling thread.
nonisolated(unsafe) private var readerThread = pthread_t()

@Suite(.serialized) struct InterruptTests {
    @Test func aCallFailingWithEINTRIsMadeAgain() {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int in
            calls += 1
            if calls < 3 { errno = EINTR; return -1 }
            return 42
        }
        #expect(result == 42 && calls == 3)
    }

    @Test func anotherFailureIsReturnedWithItsErrno() {
        var calls = 0
        let result = retryingOnInterrupt { () -> Int32 in
            calls += 1
            errno = EAGAIN
            return -1
        }
        #expect(result == -1 && errno == EAGAIN && calls == 1)
        #expect(throws: SystemError("read", path: "/x", errno: EIO)) {
            try systemCall("read", path: "/x") { () -> Int in errno = EIO; return -1 }
        }
    }

    /// A real interruption: a read blocked on an empty pipe, a signal sent to this thread whose handler
    /// (installed without SA_RESTART) writes to the pipe. The kernel fails the read with EINTR before the
    /// handler runs; the retry then finds the byte.
    @Test func aReadInterruptedByASignalIsRetried() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        handlerPipe = ends[1]
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            var byte: UInt8 = 0x2A
            _ = write(handlerPipe, &byte, 1)
        }
        action.sa_flags = 0 // no SA_RESTART: the kernel must not restart the read itself
        var previous = sigaction()
        try #require(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        // Swift's worker threads keep signals blocked (libdispatch does that): let SIGUSR2 in here.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGUSR2)
        var mask = sigset_t()
        try #require(pthread_sigmask(SIG_UNBLOCK, &unblocked, &mask) == 0)
        defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }

        // Another thread signals this one (pthread_kill: this thread only, not the process) 50 ms from now,
        // while the read below is blocked.
        readerThread = pthread_self()
        var signaller = pthread_t()
        try #require(pthread_create(&signaller, nil, { _ in
            usleep(50_000)
            pthread_kill(readerThread, SIGUSR2)
            return nil
        }, nil) == 0)
        defer { pthread_join(signaller, nil) }

        var interruptions = 0
        var byte: UInt8 = 0
        let count = retryingOnInterrupt { () -> Int in
            let result = read(ends[0], &byte, 1)
            if result < 0 && errno == EINTR { interruptions += 1 }
            return result
        }
        #expect(interruptions == 1)
        #expect(count == 1 && byte == 0x2A)
    }
}
