import Glibc
import SystemCalls
#if FUZZING
import CFuzzerDriver
#endif

/// Runs a fuzz target's body over files given on the command line (a corpus, or one crash input): how
/// the fuzzers double as regression tests in ordinary builds.
public enum FuzzReplay {
    /// The fuzz build's main: hands the command line to libFuzzer, which calls `callback` per input.
    public static func main(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        return LLVMFuzzerRunDriver(&argc, &argv, callback)
        #else
        return run(Array(CommandLine.arguments.dropFirst())) { bytes in
            _ = bytes.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
        }
        #endif
    }

    /// Replays every path (a file, or every file in a folder) and prints how many inputs ran. Fails (1)
    /// when a path does not exist or cannot be read, or when nothing at all was replayed: a mistyped
    /// corpus path must not pass as a regression test that ran nothing.
    public static func run(_ arguments: [String], _ body: ([UInt8]) -> Void) -> Int32 {
        var count = 0
        var problems: [String] = []
        for path in arguments { count += replay(path, body, problems: &problems) }
        if count == 0 && problems.isEmpty {
            problems.append(arguments.isEmpty ? "no corpus given: usage: fuzz-TARGET FILE|FOLDER..."
                                              : "no input replayed from \(arguments.joined(separator: " ")) (empty folders?)")
        }
        say(STDOUT_FILENO, "replayed \(count) inputs\n")
        for problem in problems { say(STDERR_FILENO, "fuzz replay: FAILED: \(problem)\n") }
        return problems.isEmpty ? 0 : 1
    }

    private static func say(_ fd: Int32, _ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
    }

    /// A file, or every file in a folder (names starting with "." left out, as `.keep`).
    private static func replay(_ path: String, _ body: ([UInt8]) -> Void, problems: inout [String]) -> Int {
        do throws(SystemError) {
            guard let info = Files.status(path) else { throw SystemError("stat", path: path) }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                var count = 0
                for name in try Files.listDirectory(path) where !name.hasPrefix(".") {
                    count += replay(path + "/" + name, body, problems: &problems)
                }
                return count
            }
            body(try Files.readAll(path, limit: 64 << 20)) // corpus entries are kilobytes
            return 1
        } catch {
            problems.append("\(path): \(error.reason)")
            return 0
        }
    }
}
