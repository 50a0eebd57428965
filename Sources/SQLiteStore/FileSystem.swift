// File-system steps of opening: existence checks, moving a damaged database aside, and fsyncing the
// directory so renames and creations survive a power cut.

import Glibc
import StillroomCore
import SystemCalls

enum FileSystem {
    /// Whether something exists at `path` (lstat, so a dangling symlink counts as existing).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Up to the first 16 bytes of the file (empty for an empty file), or nil when it cannot be read.
    static func header(_ path: String) -> [UInt8]? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
        defer { file.close() } // Read-only: nothing to flush.
        var bytes: [UInt8] = []
        while bytes.count < 16, let chunk = try? file.read(upTo: 16 - bytes.count), !chunk.isEmpty { bytes += chunk }
        return bytes
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
        guard let folder = try? Files.makeTemporaryFolder(prefix: "/tmp/stillroom-readonly-") else { return nil }
        for suffix in ["", "-wal"] where exists(path + suffix) {
            guard copyFile(path + suffix, to: folder + "/stillroom.db" + suffix) else { return nil }
        }
        return folder + "/stillroom.db"
    }

    /// Removes a copy `scratchCopy` made (its folder and the files SQLite made beside it); any other path
    /// is left alone.
    static func removeScratchCopy(_ copy: String) {
        let folder = directory(of: copy)
        guard folder.hasPrefix("/tmp/stillroom-readonly-"), copy == folder + "/stillroom.db" else { return }
        for suffix in ["", "-wal", "-shm"] { removeIfPresent(copy + suffix) }
        _ = Glibc.rmdir(folder)
    }

    private static func copyFile(_ source: String, to target: String) -> Bool {
        do throws(SystemError) {
            let input = try FileDescriptor.open(source, O_RDONLY)
            let output = try FileDescriptor.open(target, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
            // Both close when they go; a scratch copy in RAM has nothing to sync.
            while true {
                let chunk = try input.read(upTo: 65_536)
                if chunk.isEmpty { return true }
                try output.writeAll(chunk)
            }
        } catch {
            return false
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
        guard let file = try? FileDescriptor.open(path, O_WRONLY) else { return }
        defer { file.close() }
        let zeros = [UInt8](repeating: 0, count: 32)
        guard retryingOnInterrupt({ zeros.withUnsafeBytes { pwrite(file.rawValue, $0.baseAddress, 32, 0) } }) == 32 else { return }
        _ = retryingOnInterrupt { fdatasync(file.rawValue) }
    }

    /// Whether `path` is a regular file (following symlinks); false when it does not exist.
    static func isRegularFile(_ path: String) -> Bool {
        Files.isRegularFile(path)
    }

    /// The directory part of `path` ("." when there is none).
    static func directory(of path: String) -> String { Files.parent(of: path) }

    /// fsyncs a directory so that entries created or renamed in it are durable.
    static func syncDirectory(_ directory: String, operation: String) throws(StoreError) {
        do throws(SystemError) {
            try Files.syncDirectory(directory)
        } catch {
            // "open directory X", "fsync directory X": the store's messages name what the path is.
            throw StoreError(kind: .moveAsideFailed, operation: operation,
                             cause: SystemError("\(error.operation) directory", path: error.path, errno: error.errno))
        }
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path` (statvfs), or nil.
    static func availableBytes(_ path: String) -> Int64? {
        Files.availableBytes(path)
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
            guard rename(from, to) == 0 else {
                throw StoreError(kind: .moveAsideFailed, operation: operation, cause: SystemError("rename", path: "\(from) to \(to)"))
            }
            moved.append(.init(from: from, to: to))
        }
        try syncDirectory(directory(of: databasePath), operation: operation)
        return (target, moved.reversed())
    }

    /// Every file `moveAside` made for `databasePath` (`<name>.damaged-…`, companions included), sorted.
    static func movedAsideFiles(of databasePath: String) -> [String] {
        let directory = directory(of: databasePath)
        let prefix = databasePath.split(separator: "/").last.map(String.init).map { $0 + ".damaged-" } ?? ".damaged-"
        let names = (try? Files.listDirectory(directory)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.map { directory + "/" + $0 }.filter(isRegularFile).sorted()
    }

    /// Removes one file; one that is already gone is not an error.
    static func remove(_ path: String, operation: String) throws(StoreError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw StoreError(kind: .fileRemovalFailed, operation: operation, cause: SystemError("remove", path: path))
        }
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
