// File-system steps of opening: existence checks, moving a damaged database aside, and fsyncing the
// directory so renames and creations survive a power cut.

import Glibc
import StillroomCore

enum FileSystem {
    /// Whether something exists at `path` (lstat, so a dangling symlink counts as existing).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Up to the first 16 bytes of the file (empty for an empty file), or nil when it cannot be read.
    static func header(_ path: String) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) } // Read-only: nothing to flush.
        var bytes = [UInt8](repeating: 0, count: 16)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, 16 - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return Array(bytes.prefix(filled))
    }

    /// The size of the file at `path` in bytes, or nil when there is none.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// Copies the database and its -wal into a new folder in /tmp (RAM on the box) and returns the copy's
    /// path, or nil: a WAL database on media that cannot be written, whose writer was killed, has its last
    /// commits in the -wal alone, and SQLite reads a -wal only through a -shm it can make beside it.
    static func scratchCopy(ofDatabase path: String) -> String? {
        var template = Array("/tmp/stillroom-readonly-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
        for suffix in ["", "-wal"] where exists(path + suffix) {
            guard copyFile(path + suffix, to: folder + "/stillroom.db" + suffix) else { return nil }
        }
        return folder + "/stillroom.db"
    }

    private static func copyFile(_ source: String, to target: String) -> Bool {
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return false }
        defer { _ = Glibc.close(input) }
        let output = Glibc.open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { return false }
        defer { _ = Glibc.close(output) } // a scratch copy in RAM: nothing to sync
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return false }
            if count == 0 { return true }
            var written = 0
            while written < count {
                let step = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if step < 0 && errno == EINTR { continue }
                guard step > 0 else { return false }
                written += step
            }
        }
    }

    /// Removes a file if it is there; a failure leaves it (for files nothing depends on).
    static func removeIfPresent(_ path: String) {
        _ = Glibc.unlink(path)
    }

    /// Zeroes the 32-byte header of a -wal whose frames are all in the database, and syncs it: SQLite then
    /// reads the file as an empty log (a header without its magic number) and writes a new header over it
    /// at the next commit. A failure leaves frames SQLite replays harmlessly (they equal the database).
    static func clearWriteAheadLogHeader(_ path: String) {
        let fd = Glibc.open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { _ = Glibc.close(fd) }
        let zeros = [UInt8](repeating: 0, count: 32)
        guard zeros.withUnsafeBytes({ pwrite(fd, $0.baseAddress, 32, 0) }) == 32 else { return }
        _ = fdatasync(fd)
    }

    /// Whether `path` is a regular file (following symlinks); false when it does not exist.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The directory part of `path` ("." when there is none).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// fsyncs a directory so that entries created or renamed in it are durable.
    static func syncDirectory(_ directory: String, operation: String) throws(StoreError) {
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw errnoError(operation: operation, what: "open directory \(directory)") }
        defer { _ = Glibc.close(fd) } // A read-only directory fd has nothing to flush on close.
        guard fsync(fd) == 0 else { throw errnoError(operation: operation, what: "fsync directory \(directory)") }
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path` (statvfs), or nil.
    static func availableBytes(_ path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// The companion files SQLite keeps beside a database; they belong to its state and move with it.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Moves `databasePath` and its companions aside under a name holding `now` (UTC), never replacing an
    /// existing file, and fsyncs the directory.
    ///
    /// The companions move first: if power is cut between renames, a stale -wal must never be left beside
    /// a database it does not belong to (SQLite would replay it into whatever file has the name next).
    /// The moved set keeps SQLite's naming (`X`, `X-wal`, `X-shm`), so it can still be opened for recovery.
    static func moveAside(_ databasePath: String, now: UnixMilliseconds) throws(StoreError) -> (database: String, files: [MovedAside.MovedFile]) {
        let operation = "move aside"
        let stem = "\(databasePath).damaged-\(timestamp(now))"
        // A box without an RTC may boot with the same clock every time: never reuse a name.
        var target = stem
        var attempt = 1
        while ([""] + companionSuffixes).contains(where: { exists(target + $0) }) {
            attempt += 1
            target = "\(stem).\(attempt)"
        }
        var moved: [MovedAside.MovedFile] = []
        for suffix in companionSuffixes + [""] {
            let from = databasePath + suffix
            guard exists(from) else { continue }
            let to = target + suffix
            // Single writer (the daemon) and a name checked just above: rename cannot clobber anything.
            guard rename(from, to) == 0 else { throw errnoError(operation: operation, what: "rename \(from) to \(to)") }
            moved.append(.init(from: from, to: to))
        }
        try syncDirectory(directory(of: databasePath), operation: operation)
        return (target, moved.reversed())
    }

    /// Every file `moveAside` made for `databasePath` (`<name>.damaged-…`, companions included), sorted.
    static func movedAsideFiles(of databasePath: String) -> [String] {
        let directory = directory(of: databasePath)
        let prefix = databasePath.split(separator: "/").last.map(String.init).map { $0 + ".damaged-" } ?? ".damaged-"
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var files: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            let path = directory + "/" + name
            if name.hasPrefix(prefix), isRegularFile(path) { files.append(path) }
        }
        return files.sorted()
    }

    /// Removes one file; one that is already gone is not an error.
    static func remove(_ path: String, operation: String) throws(StoreError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw errnoError(operation: operation, what: "remove \(path)", kind: .fileRemovalFailed)
        }
    }

    private static func errnoError(operation: String, what: String, kind: StoreError.Kind = .moveAsideFailed) -> StoreError {
        let code = errno
        let text = String(cString: strerror(code))
        return StoreError(kind: kind, code: code, extendedCode: code, operation: operation,
                          message: "\(what): \(text)")
    }

    /// `now` as a compact UTC timestamp for file names: 20260314T221503Z.
    static func timestamp(_ milliseconds: UnixMilliseconds) -> String {
        let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
        let seconds = msOfDay / 1000
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func pad(_ n: Int64, _ width: Int) -> String {
            let digits = String(n)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(pad(year, 4))\(pad(month, 2))\(pad(day, 2))T\(pad(seconds / 3600, 2))\(pad(seconds / 60 % 60, 2))\(pad(seconds % 60, 2))Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }

    /// Proleptic Gregorian (year, month, day) for a day count since 1970-01-01, by the standard
    /// era/day-of-era arithmetic (400-year eras of 146097 days, years starting in March).
    static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468 // days from 0000-03-01
        let era = floorDivide(z, 146_097).0
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
