import Glibc
import SystemCalls

/// The file-system checks the daemon makes before it starts, each failing with a one-line reason.
enum Directories {
    /// Makes `path` (and its parents) if needed, and checks it is a writable directory.
    static func prepareWritable(_ path: String, purpose: String) throws(StartupError) {
        try makeDirectories(path, purpose: purpose)
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw StartupError("\(purpose) \(path) is not a directory")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw StartupError("\(purpose) \(path) is not writable: \(SystemError("access").reason)")
        }
    }

    /// Checks `path` is a readable directory.
    static func checkReadable(_ path: String, purpose: String) throws(StartupError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StartupError("\(purpose) \(path): \(SystemError("stat").reason)")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw StartupError("\(purpose) \(path) is not a directory") }
        guard access(path, R_OK | X_OK) == 0 else {
            throw StartupError("\(purpose) \(path) is not readable: \(SystemError("access").reason)")
        }
    }

    /// Checks `path` is a readable regular file.
    static func checkReadableFile(_ path: String, purpose: String) throws(StartupError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StartupError("\(purpose) \(path): \(SystemError("stat").reason)")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw StartupError("\(purpose) \(path) is not a file") }
        guard access(path, R_OK) == 0 else {
            throw StartupError("\(purpose) \(path) is not readable: \(SystemError("access").reason)")
        }
    }

    private static func makeDirectories(_ path: String, purpose: String) throws(StartupError) {
        do throws(SystemError) {
            try Files.makeDirectories(path, mode: 0o750)
        } catch {
            throw StartupError("\(purpose) \(path): cannot create \(error.path ?? path): \(error.reason)")
        }
    }
}
