import Glibc
import SystemCalls

/// `stillroomctl screenshot FILE.png`: the daemon writes the PNG into its own screenshot folder only, and
/// the CLI, as its own user, copies it where that user asked. So the daemon never writes a path a client
/// names, and root's CLI never follows a link the daemon could have put in its folder.
enum ScreenshotCopy {
    /// Bigger than any frame's PNG (800×480 RGB is 1.1 MB raw).
    static let limit = 32 << 20

    /// Why the screenshot may not be written at `path`, or nil: nothing there, or a PNG to replace.
    static func targetProblem(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return "\(path) is a symbolic link; a screenshot is never written through one (give a new file's path)"
        case S_IFREG: break
        default: return "\(path) is not a file; give a new file's path"
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK),
              let head = try? file.read(upTo: signature.count) else { return "\(path) cannot be read; give a new file's path" }
        file.close()
        guard head == signature else { return "\(path) exists and is not a PNG; it was left alone (give a new file's path)" }
        return nil
    }

    /// Copies the daemon's PNG at `source` to `target`: read without following a link or waiting on a FIFO,
    /// a regular file of at most `limit` bytes that starts as a PNG; written beside `target` and renamed.
    static func copy(from source: String, to target: String) throws(SystemError) {
        let file = try FileDescriptor.open(source, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        defer { file.close() }
        guard (try file.status(path: source).st_mode & S_IFMT) == S_IFREG else { throw SystemError("", path: source, errno: EINVAL) }
        let bytes = try file.readAll(limit: limit, path: source)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw SystemError("", path: source, errno: EINVAL) }
        let temporary = Files.parent(of: target) + "/.\(Files.name(of: target)).\(getpid()).new"
        try Files.replaceAtomically(target, with: bytes, temporary: temporary, mode: 0o644, flags: O_EXCL | O_NOFOLLOW)
    }
}
