import Glibc

/// A child process with its stdout and stderr on pipes: how tests run the real binaries.
public final class Subprocess {
    public let pid: pid_t
    /// The read ends of the child's stdout and stderr (for a test that reads them from an event loop).
    public let stdoutFD: Int32
    public let stderrFD: Int32
    private var stdinFD: Int32?
    private var status: Int32?

    /// Starts `executable` with `arguments`; the environment is exactly `environment`. With `stdinPipe`
    /// the child's stdin is a pipe the test writes to (`writeStdin`); otherwise /dev/null.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], stdinPipe: Bool = false) {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        var inPipe: [Int32] = [0, 0]
        precondition(pipe(&outPipe) == 0 && pipe(&errPipe) == 0 && pipe(&inPipe) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        if stdinPipe {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addclose(&actions, inPipe[1])
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, outPipe[0])
        posix_spawn_file_actions_addclose(&actions, errPipe[0])
        // The test process may block signals (the loop tests do); the child must start with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        precondition(result == 0, "posix_spawn \(executable): \(String(cString: strerror(result)))")
        argv.forEach { free($0) }
        envp.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(outPipe[1])
        close(errPipe[1])
        close(inPipe[0])
        if stdinPipe { stdinFD = inPipe[1] } else { close(inPipe[1]) }
        pid = child
        stdoutFD = outPipe[0]
        stderrFD = errPipe[0]
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = wait()
        }
        close(stdoutFD)
        close(stderrFD)
        if let stdinFD { close(stdinFD) }
    }

    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Writes to the child's stdin (when started with `stdinPipe`).
    public func writeStdin(_ text: String) {
        guard let stdinFD else { return }
        _ = text.utf8CString.withUnsafeBufferPointer { write(stdinFD, $0.baseAddress, $0.count - 1) }
    }

    /// Waits for the child to end: its exit status, or 128 + the signal that killed it.
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let code = (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = code
        return code
    }

    /// The next line the child writes to stderr (blocking), without its newline; nil at end of file.
    public func readStderrLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(stderrFD, &byte, 1)
            if count == 1 {
                if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
                bytes.append(byte)
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// Reads stderr lines until one contains `text`; returns the lines read, the last being that one when
    /// it came. `guardSeconds` without a byte ends the wait (a hang guard, not a timing: the caller's
    /// expectation then fails on what was read).
    public func readStderrLines(until text: String, guardSeconds: Int32 = 60) -> [String] {
        var lines: [String] = []
        var current: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            var watched = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, guardSeconds * 1000)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return lines }
            let count = read(stderrFD, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return lines }
            if byte != 0x0A {
                current.append(byte)
                continue
            }
            lines.append(String(decoding: current, as: UTF8.self))
            current = []
            if lines[lines.count - 1].contains(text) { return lines }
        }
    }

    /// Everything the child writes to stdout until it closes it.
    public func readStdout() -> String { Self.readAll(stdoutFD) }

    /// Everything the child writes to stderr until it closes it.
    public func readStderr() -> String { Self.readAll(stderrFD) }

    /// Runs to completion and returns (status, stdout, stderr).
    public static func run(_ executable: String, _ arguments: [String],
                           environment: [String: String] = [:]) -> (status: Int32, stdout: String, stderr: String) {
        let process = Subprocess(executable, arguments, environment: environment)
        let out = process.readStdout()
        let err = process.readStderr()
        return (process.wait(), out, err)
    }

    private static func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count > 0 { bytes.append(contentsOf: chunk[..<count]); continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The folder holding the built products (beside the running test bundle, unless `STILLROOM_PRODUCTS`
/// names another: bench/soak/run runs the release build of the daemon under the same test).
public enum BuiltProducts {
    public static let directory: String = {
        if let chosen = getenv("STILLROOM_PRODUCTS") { return String(cString: chosen) }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        precondition(count > 0)
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<path.lastIndex(of: "/")!])
    }()

    public static func path(_ product: String) -> String { directory + "/" + product }
}
