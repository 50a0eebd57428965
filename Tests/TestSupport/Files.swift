import Glibc

/// Small file helpers for test set-up (tests only; the product uses its adapters).
public enum Files {
    public static func read(_ path: String) -> [UInt8] {
        // "e": O_CLOEXEC, so a process another test spawns meanwhile does not inherit the file (an
        // inherited descriptor keeps an unlinked file's space allocated for as long as that process lives).
        guard let file = fopen(path, "rbe") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    public static func write(_ bytes: [UInt8], to path: String) {
        guard let file = fopen(path, "wbe") else { preconditionFailure("cannot write \(path)") }
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    public static func write(_ text: String, to path: String) { write(Array(text.utf8), to: path) }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
}
