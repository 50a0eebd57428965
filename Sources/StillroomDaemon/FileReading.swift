import Glibc
import SystemCalls

/// Whole-file reads for small files (catalogs, transcripts, cue sidecars), with errno in the error.
enum FileReading {
    /// Reads at most `limit` bytes; a larger file is refused with EFBIG (a catalog is kilobytes, not
    /// megabytes). The error reads "path: reason", as the journal and doctor lines put it.
    static func bytes(_ path: String, limit: Int = 4 << 20) throws(SystemError) -> [UInt8] {
        do throws(SystemError) {
            return try Files.readAll(path, limit: limit)
        } catch {
            throw SystemError("", path: path, errno: error.errno)
        }
    }

    /// The first `count` bytes of a file (fewer when it is shorter), read without following a link.
    static func prefix(_ path: String, count: Int) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW)
        defer { file.close() }
        return try file.read(upTo: count, path: path)
    }

    /// Size and modification time (ns), or nil when the file is missing or not a regular file.
    static func identity(_ path: String) -> (size: Int64, modifiedNanoseconds: Int64)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }
}

extension FileReading {
    /// Where a symbolic link points, or nil.
    static func symlinkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// The range of the first occurrence of `needle` (FoundationEssentials has no `range(of:)`).
    func range(of needle: String) -> Range<String.Index>? {
        guard !needle.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(needle) { return index..<self.index(index, offsetBy: needle.count) }
            index = self.index(after: index)
        }
        return nil
    }
}
