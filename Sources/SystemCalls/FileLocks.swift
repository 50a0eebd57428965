import Glibc

/// Who holds a lock, as the kernel tells it: /proc/locks names the process that took each flock, which a
/// pid written into the lock file cannot promise (a holder on a read-only folder cannot rewrite it).
public enum FileLocks {
    /// The pid holding an flock on the file `fd` is open on, from `locksPath` ("1: FLOCK ADVISORY WRITE
    /// 4242 b3:02:1234 0 EOF": the device's major and minor in hex, the inode); nil when nobody does, or
    /// it cannot be told.
    public static func flockHolder(of fd: Int32, locksPath: String = "/proc/locks") -> Int32? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return flockHolder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), locksPath: locksPath)
    }

    /// The same for the file named by `path`, which is only looked at (lstat), never opened: it may lie in a
    /// folder someone else writes (the daemon's, read by root's stillroomctl), where a FIFO would hang an
    /// open and a link lead anywhere. Anything but a regular file there holds no lock of the daemon's: nil.
    public static func flockHolder(ofFileAt path: String, locksPath: String = "/proc/locks") -> Int32? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return flockHolder(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), locksPath: locksPath)
    }

    private static func flockHolder(device: UInt64, inode: UInt64, locksPath: String) -> Int32? {
        guard let bytes = try? Files.readAll(locksPath, limit: 1 << 20) else { return nil }
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        let file = "\(hex(major)):\(hex(minor)):\(inode)"
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // Held locks only (a waiter's line has "->" after the number).
            guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == file, let pid = Int32(fields[4]), pid > 0 else { continue }
            return pid
        }
        return nil
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return text.count < 2 ? "0" + text : text
    }
}
