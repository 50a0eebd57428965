import Glibc
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

    public static func run(_ arguments: [String], _ body: ([UInt8]) -> Void) -> Int32 {
        var count = 0
        for path in arguments { count += replay(path, body) }
        let line = "replayed \(count) inputs\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
        return 0
    }

    /// A file, or every file in a folder.
    private static func replay(_ path: String, _ body: ([UInt8]) -> Void) -> Int {
        if let directory = opendir(path) {
            defer { closedir(directory) }
            var count = 0
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasPrefix(".") { continue }
                count += replay(path + "/" + name, body)
            }
            return count
        }
        guard let file = fopen(path, "rb") else { return 0 }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = fread(&chunk, 1, chunk.count, file)
            if got <= 0 { break }
            bytes += chunk[..<got]
        }
        body(bytes)
        return 1
    }
}
