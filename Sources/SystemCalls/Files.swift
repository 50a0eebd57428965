// Whole-file and directory steps the firmware repeats: read a small file, make a folder and its parents,
// list a folder, make renames durable, replace a file atomically.

import CLinuxShims
import Glibc

public enum Files {
    /// The whole of the file at `path`, refused (EFBIG) when it holds more than `limit` bytes.
    public static func readAll(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.open(path, O_RDONLY)
        defer { file.close() } // read-only: nothing to flush
        return try file.readAll(limit: limit, path: path)
    }

    /// Makes `path` and any missing parents with `mode`, like `mkdir -p`. Anything already there is left
    /// alone (EEXIST is not an error): a file in the way of a parent fails at the next step with ENOTDIR,
    /// and callers that need `path` itself to be a folder check it (their messages say "not a folder").
    public static func makeDirectories(_ path: String, mode: mode_t = 0o750) throws(SystemError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            guard mkdir(built, mode) == 0 || errno == EEXIST else { throw SystemError("mkdir", path: built) }
        }
    }

    /// Makes a new folder, mode 0700, named `prefix` followed by six random characters (mkdtemp), and
    /// returns its path. The name is read back from the template mkdtemp filled in, while that buffer is
    /// alive: the pointer mkdtemp returns is the buffer's own, and an `&array` argument's buffer is gone
    /// once the call returns (reading through it crashed the release build on a read-only card).
    public static func makeTemporaryFolder(prefix: String) throws(SystemError) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let path: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let made = mkdtemp(buffer.baseAddress!) else { return nil }
            return String(cString: made)
        }
        guard let path else { throw SystemError("mkdtemp", path: prefix + "XXXXXX") }
        return path
    }

    /// The names in the folder at `path`, without "." and "..", in the order the file system gives them.
    public static func listDirectory(_ path: String) throws(SystemError) -> [String] {
        guard let stream = opendir(path) else { throw SystemError("opendir", path: path) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// fsync on the folder itself, so entries created, renamed or removed in it survive a power cut.
    public static func syncDirectory(_ path: String) throws(SystemError) {
        let directory = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
        defer { directory.close() } // a read-only descriptor: nothing to flush on close
        try directory.sync(path: path)
    }

    /// Writes `bytes` to `temporary`, fsyncs it and renames it over `path`, so a reader (or a power cut)
    /// sees the old file or the new one, never half of one. The folder is not synced: the caller does it
    /// once for several files (`syncDirectory`). A failure removes the temporary file.
    public static func replaceAtomically(_ path: String, with bytes: some Collection<UInt8>, temporary: String,
                                         mode: mode_t = 0o640, flags: Int32 = 0) throws(SystemError) {
        do {
            let file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | flags, mode: mode)
            defer { file.close() }
            try file.writeAll(bytes, path: temporary)
            try file.sync(path: temporary)
            try rename(temporary, to: path)
        } catch {
            _ = unlink(temporary) // best effort: a leftover is harmless beside the real file
            throw error
        }
    }

    /// rename(2); the error names both paths ("a → b").
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        guard Glibc.rename(source, destination) == 0 else { throw SystemError("rename", path: "\(source) → \(destination)") }
    }

    /// Deletes the file at `path`; one already gone is not an error.
    public static func remove(_ path: String) throws(SystemError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw SystemError("unlink", path: path) }
    }

    /// The folder that holds `path` ("." for a bare name, "/" for an entry of the root).
    public static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path` (all of it for a bare name).
    public static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// stat(2) (following symlinks), or nil when there is nothing there.
    public static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// Whether `path` is a folder (following symlinks).
    public static func isDirectory(_ path: String) -> Bool {
        status(path).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false
    }

    /// Whether `path` is a regular file (following symlinks).
    public static func isRegularFile(_ path: String) -> Bool {
        status(path).map { ($0.st_mode & S_IFMT) == S_IFREG } ?? false
    }

    /// The magic number of the file system holding `path` (statfs f_type: EXT4_SUPER_MAGIC, TMPFS_MAGIC…).
    public static func fileSystemType(_ path: String) throws(SystemError) -> UInt32 {
        let magic = stillroom_file_system_type(path)
        guard magic != 0 else { throw SystemError("statfs", path: path) }
        return UInt32(truncatingIfNeeded: magic)
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path` (statvfs:
    /// f_bavail × f_frsize), or nil.
    public static func availableBytes(_ path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
