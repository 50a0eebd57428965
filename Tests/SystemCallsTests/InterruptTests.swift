import Glibc
import SystemCalls
import Testing

/// The write end of the pipe the signal handler writes to (a C handler cannot capture).
nonisolated(unsafe) private var handlerPipe: Int32 = -1
/// The thread blocked in the read, for the signalling thread, and its kernel task id and the descriptor it
/// reads (to see from /proc that it is blocked in that read).
nonisolated(unsafe) private var readerThread = pthread_t()
nonisolated(unsafe) private var readerTask: pid_t = 0
nonisolated(unsafe) private var readerFD: Int32 = -1

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

        // Another thread signals this one (pthread_kill: this thread only, not the process) once the kernel
        // says it is blocked in the read below: /proc's syscall file names the call and its descriptor. No
        // time is guessed (50 ms was not always enough on a loaded machine: the byte came before the read).
        readerThread = pthread_self()
        readerTask = InterruptTests.currentTask()
        readerFD = ends[0]
        var signaller = pthread_t()
        try #require(pthread_create(&signaller, nil, { _ in
            // Bounded (a /proc without the file must not hang the run): then the test fails on the count.
            for _ in 0..<20_000 where !InterruptTests.blockedInRead(task: readerTask, fd: readerFD) { usleep(1000) }
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

    /// Whether `task` of this process is blocked in read(2) on `fd` ("0 0x3 …" in /proc/self/task/N/syscall).
    static func blockedInRead(task: pid_t, fd: Int32) -> Bool {
        let file = open("/proc/self/task/\(task)/syscall", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(file, &buffer, buffer.count)
        guard count > 0 else { return false }
        let fields = String(decoding: buffer[..<count], as: UTF8.self).split(separator: " ")
        return fields.count > 1 && fields[0] == readCallNumber && fields[1] == "0x" + String(fd, radix: 16)
    }

    /// read(2)'s number on this machine (Linux's tables).
    #if arch(x86_64)
    static let readCallNumber = "0"
    #elseif arch(arm64)
    static let readCallNumber = "63"
    #endif

    /// This thread's kernel task id, from /proc/thread-self ("4242/task/4250").
    static func currentTask() -> pid_t {
        var target = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &target, target.count - 1)
        guard count > 0 else { return 0 }
        let text = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return pid_t(text.split(separator: "/").last.flatMap { Int32($0) } ?? 0)
    }
}
