import Glibc

/// A small tmpfs mounted over a directory, so a test can fill a disk for real: the kernel, not a
/// simulation, answers ENOSPC, and SQLite sees it as SQLITE_FULL exactly as on a full SD card.
///
/// Mounting needs root. Tests that use it begin with
/// `guard Requirement.need(SmallDisk.mayMount, SmallDisk.whyNot) else { return }`: on a developer's
/// machine without root they are skipped loudly and counted by scripts/test; under `CI=true` the unmet
/// need is a failure. As root, a mount that fails throws: a failure, never a skip.
public final class SmallDisk {
    public let path: String
    private var mounted = false
    /// The file that fills the disk; `RawFileBytes` leaves it out.
    public static let fillerName = ".filler"
    private var fillerPath: String { path + "/" + Self.fillerName }

    /// Whether this process may mount a tmpfs (root).
    public static var mayMount: Bool { geteuid() == 0 }

    /// Why a test on a small disk cannot run here.
    public static let whyNot = "mounting a tmpfs needs root"

    public struct MountError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Mounts a tmpfs of `kibibytes` over `path` (created if missing).
    public init(at path: String, kibibytes: Int) throws {
        self.path = path
        _ = mkdir(path, 0o755)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(kibibytes)k,mode=0755") == 0 else {
            let reason = String(cString: strerror(errno))
            throw MountError(description: "cannot mount a tmpfs on \(path) (\(reason)); these tests need root, and CI runs them as root")
        }
        mounted = true
    }

    deinit { unmount() }

    /// Unmounts (lazily, so a file a process still holds open does not stop it). Safe to call twice.
    public func unmount() {
        guard mounted else { return }
        _ = umount2(path, Int32(MNT_DETACH))
        mounted = false
    }

    /// Bytes a writer may still use.
    public var availableBytes: Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// Fills the disk with a filler file until the kernel says ENOSPC, then gives back `leavingBytes`
    /// (rounded to whole pages by tmpfs), so exactly that much room is left.
    public func fill(leavingBytes: Int64 = 0) {
        let fd = open(fillerPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        precondition(fd >= 0, "cannot create \(fillerPath): \(String(cString: strerror(errno)))")
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xA5, count: 65536)
        var size: Int64 = 0
        // Shrinking chunks: the last few bytes of a page count as well.
        var length = chunk.count
        while length > 0 {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, length) }
            if written > 0 {
                size += Int64(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                length /= 2
            }
        }
        if leavingBytes > 0 { precondition(ftruncate(fd, off_t(max(0, size - leavingBytes))) == 0) }
    }

    /// Removes the filler: the disk has room again.
    public func makeRoom() { _ = unlink(fillerPath) }

    /// Makes it `kibibytes` large, staying read-only or writable as it is asked: room comes to a card that
    /// stays read-only, with no moment of being writable in between (which a daemon may use).
    @discardableResult
    public func resize(kibibytes: Int, readOnly: Bool) -> Bool {
        system("mount -o remount,\(readOnly ? "ro" : "rw"),size=\(kibibytes)k '\(path)'") == 0
    }

    /// Remounts it read-only or writable (as the kernel does to a failing card); false when the kernel
    /// refuses (a file open for writing keeps it from going read-only).
    @discardableResult
    public func setReadOnly(_ readOnly: Bool) -> Bool {
        system("mount -o remount,\(readOnly ? "ro" : "rw") '\(path)'") == 0
    }
}

/// Raw bytes of files, read without SQLite: what anyone holding the card could read.
public enum RawFileBytes {
    /// Whether `marker` occurs in the bytes of the file at `path`.
    public static func contains(_ marker: String, inFile path: String) -> Bool {
        let bytes = Files.read(path)
        let needle = Array(marker.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        // memchr finds candidates for the first byte; memcmp checks the rest (glibc's memmem is not
        // visible to Swift).
        return bytes.withUnsafeBytes { haystack in
            needle.withUnsafeBytes { pattern in
                let base = haystack.baseAddress!
                let last = haystack.count - pattern.count
                var offset = 0
                while offset <= last {
                    guard let found = memchr(base + offset, Int32(needle[0]), last - offset + 1) else { return false }
                    let position = base.distance(to: UnsafeRawPointer(found))
                    if memcmp(base + position, pattern.baseAddress!, pattern.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }

    /// The regular files directly in `directory` whose bytes hold `marker` (names only, sorted), a
    /// `SmallDisk`'s filler left out.
    public static func files(containing marker: String, in directory: String) -> [String] {
        regularFiles(in: directory).filter { contains(marker, inFile: directory + "/" + $0) }
    }

    /// Names of the regular files directly in `directory`, sorted (a `SmallDisk`'s filler left out).
    public static func regularFiles(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            var info = stat()
            if name != ".", name != "..", name != SmallDisk.fillerName, lstat(directory + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                names.append(name)
            }
        }
        return names.sorted()
    }
}
