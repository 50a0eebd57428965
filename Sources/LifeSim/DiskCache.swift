import CCrashVFS
import CSQLite

/// The card's write cache as SQLite sees it: every database the daemon opens goes through the crash VFS
/// (`Tests/CCrashVFS`, made the default VFS of this process), which holds what SQLite wrote and has not
/// synced, as the kernel's page cache would. A kill keeps it all (the kernel writes it out); a power cut
/// planned inside SQLite's writes loses it, or tears it, and from that instant nothing more reaches the card.
enum DiskCache {
    /// Puts the layer under every database of this process (once, before the first box starts).
    static func install() {
        precondition(crashvfs_register() == SQLITE_OK, "lifesim: the crash VFS cannot be registered")
        precondition(sqlite3_vfs_register(sqlite3_vfs_find(CRASHVFS_NAME), 1) == SQLITE_OK, "lifesim: the crash VFS cannot be the default")
    }

    /// The power goes at the `writes`-th write or truncate SQLite makes from now, before it lands.
    static func cutPower(afterWrites writes: Int, loss: Int) {
        let kind: crashvfs_loss = switch loss {
        case 1: crashvfs_loss_torn_prefix
        case 2: crashvfs_loss_torn_scattered
        default: crashvfs_loss_all
        }
        crashvfs_plan_crash_at_write(crashvfs_write_count() + Int64(writes), kind, UInt64(writes) &* 7919 &+ UInt64(loss))
    }

    static var powerCut: Bool { crashvfs_has_crashed() != 0 }

    /// A kill: the process goes, the kernel writes back what it holds; nothing SQLite wrote is lost.
    static func writeBack() { crashvfs_write_back_all() }

    /// A new boot: the card is what the files hold; nothing cached, nothing planned.
    static func reset() { crashvfs_reset() }

    /// The daemon fsyncs the data folder itself after creating the database (SQLite's own directory fsyncs
    /// the layer sees): told here, so the file's creation counts as on the card.
    static func folderSynced(holding path: String) { crashvfs_directory_synced(path) }
}
