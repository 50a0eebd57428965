import Glibc

/// Who holds a lock, as the kernel tells it: /proc/locks names the process that took each flock, which a
/// pid written into the lock file cannot promise (a holder on a read-only folder cannot rewrite it).
public enum FileLocks {
    /// The pid holding an flock on the file `fd` is open on, from `locksPath` ("1: FLOCK ADVISORY WRITE
    /// 4242 b3:02:1234 0 EOF": the device's major and minor in hex, the inode); nil when nobody does, or
    /// it cannot be told.
    public static func flockHolder(of fd: Int32, locksPath: String = "/proc/locks") -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0, let bytes = try? Files.readAll(locksPath, limit: 1 << 20) else { return nil }
        let device = UInt64(info.st_dev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        let file = "\(hex(major)):\(hex(minor)):\(info.st_ino)"
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // Held locks only (a waiter's line has "->" after the number).
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file, let pid = Int32(fields[4]), pid > 0 else { continue }
            return pid
        }
        return nil
    }

    /// The same for a file named by `path` (opened read-only, never through a link; no lock is taken, so
    /// asking never gets in the holder's way); nil when it is missing.
    public static func flockHolder(ofFileAt path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return flockHolder(of: fd)
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return text.count < 2 ? "0" + text : text
    }
}
