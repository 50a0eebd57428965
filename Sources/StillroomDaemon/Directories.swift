import Glibc

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
            throw StartupError("\(purpose) \(path) is not writable: \(String(cString: strerror(errno)))")
        }
    }

    /// Checks `path` is a readable directory.
    static func checkReadable(_ path: String, purpose: String) throws(StartupError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StartupError("\(purpose) \(path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw StartupError("\(purpose) \(path) is not a directory") }
        guard access(path, R_OK | X_OK) == 0 else {
            throw StartupError("\(purpose) \(path) is not readable: \(String(cString: strerror(errno)))")
        }
    }

    /// Checks `path` is a readable regular file.
    static func checkReadableFile(_ path: String, purpose: String) throws(StartupError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw StartupError("\(purpose) \(path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw StartupError("\(purpose) \(path) is not a file") }
        guard access(path, R_OK) == 0 else {
            throw StartupError("\(purpose) \(path) is not readable: \(String(cString: strerror(errno)))")
        }
    }

    /// The folder that holds `path` ("." for a bare name).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func makeDirectories(_ path: String, purpose: String) throws(StartupError) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o750) != 0 && errno != EEXIST {
                throw StartupError("\(purpose) \(path): cannot create \(built): \(String(cString: strerror(errno)))")
            }
        }
    }
}
