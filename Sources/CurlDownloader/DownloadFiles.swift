// The file-system steps downloads make. Each failure is a `SystemError` with the operation, the path and
// errno, so a message can say exactly what went wrong ("rename x.part → x.mp3: Read-only file system").

import Glibc
import StillroomCore
import SystemCalls

enum DownloadFiles {
    /// Makes `path` and its parents (0750), like `mkdir -p`.
    static func makeDirectories(_ path: String) throws(SystemError) {
        try Files.makeDirectories(path, mode: 0o750)
    }

    /// The regular files directly inside `directory`, with their sizes.
    static func list(_ directory: String) throws(SystemError) -> [DownloadFileEntry] {
        try Files.listDirectory(directory).compactMap { name in
            var info = stat()
            guard lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            return DownloadFileEntry(name: name, size: Int64(info.st_size))
        }
    }

    /// The size of a regular file, or nil.
    static func size(_ path: String) -> Int64? {
        guard let info = Files.status(path), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Deletes `path`; a file already gone is not an error.
    static func remove(_ path: String) throws(SystemError) {
        try Files.remove(path)
    }

    static func rename(_ source: String, to destination: String) throws(SystemError) {
        try Files.rename(source, to: destination)
    }

    /// fsync on the directory itself, so renames and deletions in it survive a power cut.
    static func syncDirectory(_ path: String) throws(SystemError) {
        try Files.syncDirectory(path)
    }

    /// Writes `bytes` to `path + ".tmp"`, fsyncs it and renames it over `path`. The caller fsyncs the
    /// directory (once for several files); start-up removes any .tmp a power cut left.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SystemError) {
        try Files.replaceAtomically(path, with: bytes, temporary: DownloadLayout.temporaryName(for: path), mode: 0o640)
    }

    /// The whole of a regular file of at most `limit` bytes; nil when it is missing, larger, or unreadable.
    static func read(_ path: String, limit: Int64) -> [UInt8]? {
        guard Files.isRegularFile(path) else { return nil }
        return try? Files.readAll(path, limit: Int(clamping: limit))
    }

    /// Bytes an unprivileged writer may still use where `path` lives (statvfs: f_bavail × f_frsize).
    static func availableBytes(_ path: String) -> Int64? {
        Files.availableBytes(path)
    }
}
