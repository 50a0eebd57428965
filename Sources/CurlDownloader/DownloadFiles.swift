// The file-system calls downloads make, each failing with the operation, the path and errno, so a
// message can say exactly what went wrong ("rename x.part → x.mp3: Read-only file system").

import Glibc
import StillroomCore

/// A failed file-system call.
struct FileError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let errno: Int32

    init(_ operation: String, _ path: String, errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// ENOSPC or EDQUOT: the card (or the user's quota) is full.
    var isNoSpace: Bool { errno == ENOSPC || errno == EDQUOT }

    var description: String { "\(operation) \(path): \(String(cString: strerror(errno)))" }
}

enum DownloadFiles {
    /// Makes `path` and its parents (0750), like `mkdir -p`.
    static func makeDirectories(_ path: String) throws(FileError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o750) != 0 && errno != EEXIST { throw FileError("mkdir", built) }
        }
    }

    /// The regular files directly inside `directory`, with their sizes.
    static func list(_ directory: String) throws(FileError) -> [DownloadFileEntry] {
        guard let stream = opendir(directory) else { throw FileError("opendir", directory) }
        defer { closedir(stream) }
        var entries: [DownloadFileEntry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            var info = stat()
            guard fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            entries.append(DownloadFileEntry(name: name, size: Int64(info.st_size)))
        }
        return entries
    }

    /// The size of a regular file, or nil.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }

    /// Deletes `path`; a file already gone is not an error.
    static func remove(_ path: String) throws(FileError) {
        if unlink(path) != 0 && errno != ENOENT { throw FileError("unlink", path) }
    }

    static func rename(_ source: String, to destination: String) throws(FileError) {
        guard Glibc.rename(source, destination) == 0 else { throw FileError("rename", "\(source) → \(destination)") }
    }

    /// fsync on the directory itself, so renames and deletions in it survive a power cut.
    static func syncDirectory(_ path: String) throws(FileError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("open", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError("fsync", path) }
    }

    /// Writes `bytes` to `path + ".tmp"`, fsyncs it and renames it over `path`. The caller fsyncs the
    /// directory (once for several files).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
        let temporary = DownloadLayout.temporaryName(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw FileError("open", temporary) }
        var failure: FileError?
        var offset = 0
        while offset < bytes.count && failure == nil {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = FileError("write", temporary)
            } else {
                offset += written
            }
        }
        if failure == nil && fsync(fd) != 0 { failure = FileError("fsync", temporary) }
        close(fd)
        if let failure {
            _ = unlink(temporary) // best effort; start-up removes any leftover .tmp
            throw failure
        }
        do {
            try rename(temporary, to: path)
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }

    /// The whole of a regular file of at most `limit` bytes; nil when it is missing, larger, or unreadable.
    static func read(_ path: String, limit: Int64) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int64(info.st_size) <= limit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let got = bytes[offset...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }

    /// Bytes an unprivileged writer may still use where `path` lives (statvfs: f_bavail × f_frsize).
    static func availableBytes(_ path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
