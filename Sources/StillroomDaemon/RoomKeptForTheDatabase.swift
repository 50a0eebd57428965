import CurlDownloader
import Glibc
import SystemCalls

/// A little room the daemon keeps on the data partition (a file of 256 KiB) and gives back when it finds the
/// card full at start.
///
/// SQLite cannot open a WAL database for writing without room for its `-shm` (32 KiB) and the first pages of
/// its `-wal`. On a card filled to the last block (a file copied there by hand, say) the daemon used to open
/// the database read-only and say the card "may be failing", and a read-only database cannot delete the
/// downloads or the history that would make room. With this room given back it opens for writing; then the
/// full card's rules hold (docs/reliability.md: what does not fit is refused and nothing changes), while
/// `download remove` and `history delete` make room as they should. A later start that finds room keeps it
/// again.
enum RoomKeptForTheDatabase {
    static let fileName = ".room-kept-for-the-database"
    static let bytes: Int64 = 256 * 1024
    /// Below this the card counts as full at start: given back. At this and above: kept.
    static let fullBelow: Int64 = bytes
    static let keptFrom: Int64 = 4 * bytes

    enum Outcome: Equatable {
        case kept
        /// Made (or remade: a cut while it was being made leaves it short).
        case made
        /// The card was full: given back for the database.
        case givenBack(availableBefore: Int64)
        /// No room to keep any, and none kept.
        case none
        case failed(String)
    }

    /// What to do at start, before the database is opened.
    static func prepare(inDataDirectory directory: String) -> Outcome {
        let path = directory + "/" + fileName
        var info = stat()
        let size: Int64? = lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
        guard let available = DownloadManager.availableBytes(at: directory) else {
            return .failed(SystemError("statvfs", path: directory).description)
        }
        if available < fullBelow {
            guard size != nil else { return .none }
            guard unlink(path) == 0 else { return .failed("cannot remove \(path): \(SystemError("unlink").reason)") }
            return .givenBack(availableBefore: available)
        }
        if size == bytes { return .kept }
        guard available + (size ?? 0) >= keptFrom else { return .none }
        _ = unlink(path) // short (made when the power was cut), or not a file
        let file: FileDescriptor
        do throws(SystemError) {
            file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
        } catch {
            return .failed("cannot create \(path): \(error.reason)")
        }
        // Real blocks, not a sparse file: giving it back must free room the database can use. posix_fallocate
        // returns the errno rather than setting it, and is retried on EINTR like any call.
        let result = retryingOnInterrupt { () -> Int32 in
            let code = posix_fallocate(file.rawValue, 0, off_t(bytes))
            errno = code
            return code == 0 ? 0 : -1
        }
        file.close()
        guard result == 0 else {
            let error = SystemError("posix_fallocate")
            _ = unlink(path)
            return .failed("cannot allocate \(bytes) bytes for \(path): \(error.reason)")
        }
        return .made
    }
}
