import Glibc
import SystemCalls

/// One daemon per data folder. Two daemons on one database would each believe their own player, ledger
/// and checkpoints; the second must refuse to start instead.
///
/// The lock is an `flock` on `stillroomd.lock` in the data folder, taken at start-up and held for the
/// life of the process: the kernel lets it go when the process ends, however it ends (a crash or a power
/// cut leaves no stale lock to clean up). The refusal names the holder as the kernel knows it (/proc/locks):
/// the pid the file holds can be stale (on a read-only folder the holder could not rewrite it), and a
/// maintainer told to stop a stale pid could stop an unrelated process. The file's pid is for people.
final class DataDirectoryLock {
    static let fileName = "stillroomd.lock"

    /// Nil when a read-only folder has no lock file: nothing there can be written, so there is nothing to
    /// guard. Closing it (when this object goes) releases the lock; the process's end does too.
    private var file: FileDescriptor?

    private init(file: FileDescriptor?) { self.file = file }

    /// Lets the folder go at a clean stop. Unlocked first, then closed: a copy of the descriptor that a
    /// child forked in the meantime still holds (until its exec closes it) would otherwise keep the lock,
    /// and a daemon started at once on the same folder would be refused.
    func release() {
        guard let file else { return }
        _ = flock(file.rawValue, LOCK_UN)
        file.close()
        self.file = nil
    }

    /// Takes the lock, or fails with one line naming the daemon that holds it. With `required` false (a
    /// folder the daemon already knows it cannot use), a lock file that cannot be opened is no refusal.
    static func acquire(in directory: String, required: Bool = true) throws(StartupError) -> DataDirectoryLock {
        let path = directory + "/" + fileName
        let file: FileDescriptor
        do throws(SystemError) {
            do throws(SystemError) {
                file = try FileDescriptor.open(path, O_RDWR | O_CREAT, mode: 0o640)
            } catch where error.errno == EROFS || error.errno == EACCES {
                // A read-only folder: an existing lock file still locks (flock needs no write access).
                do throws(SystemError) {
                    file = try FileDescriptor.open(path, O_RDONLY)
                } catch where error.errno == ENOENT {
                    return DataDirectoryLock(file: nil)
                }
            }
        } catch {
            guard required else { return DataDirectoryLock(file: nil) }
            throw StartupError("data directory \(directory): cannot open \(fileName): \(error.reason)")
        }
        guard retryingOnInterrupt({ flock(file.rawValue, LOCK_EX | LOCK_NB) }) == 0 else {
            let reason = errno == EWOULDBLOCK ? nil : SystemError("flock").reason
            let holder = FileLocks.flockHolder(of: file.rawValue)
            file.close()
            if let reason { throw StartupError("data directory \(directory): cannot lock \(fileName): \(reason)") }
            throw StartupError("data directory \(directory) is in use by another stillroomd"
                               + (holder.map { " (pid \($0))" } ?? " (its pid is unknown)") + "; stop it first (systemctl stop stillroom)")
        }
        // Ours: say who holds it. A failure here costs only the pid in a later refusal's message.
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(file.rawValue, 0) == 0 { _ = text.withUnsafeBytes { pwrite(file.rawValue, $0.baseAddress, $0.count, 0) } }
        return DataDirectoryLock(file: file)
    }
}
