// A test-only SQLite VFS that behaves like a disk with a volatile write cache, so tests can cut the
// power *below* the process: what was written but not fsynced is lost, what was fsynced stays.
//
// "stillroom-crash" wraps the default "unix" VFS:
// - xWrite and xTruncate go to an in-memory overlay per file (keyed by path, shared by every handle, like
//   the kernel's page cache); reads and file sizes see the overlay, so the process sees its own writes.
// - xSync applies that file's overlay to the real file, in order, then calls the real xSync. The real
//   files therefore always hold exactly what was synced: they are "the disk".
// - Directory entries: a file created through the layer, or deleted through it, only counts on the disk
//   once its directory is fsynced. The layer sees SQLite's own directory fsyncs (it hooks the unix VFS's
//   "openDirectory" system call, which SQLite uses only to fsync a directory); an fsync(2) made outside
//   SQLite must be reported with crashvfs_directory_synced.
// - A crash (planned at the Nth sync or Nth write, or immediate) applies the chosen loss to every
//   unsynced overlay, undoes every directory change not yet fsynced, and from then on every write, sync,
//   truncate and delete through the layer fails with SQLITE_IOERR: the disk is gone. Close the crashed
//   connections, then reopen the real files with the ordinary VFS.
//
// Not modelled: the -shm file (SQLite maps it and never syncs it; it is left as the process left it,
// possibly ahead of what reached the disk, and the next open must see through it: docs/reliability.md); renames (SQLite makes none); temporary
// files (no name, or temp/transient types), which pass straight through; memory-mapped I/O (the layer
// offers no xFetch, so SQLite reads through xRead).
//
// One crash plan for the whole process: tests that use it must not run in parallel with each other.

#ifndef CCRASHVFS_H
#define CCRASHVFS_H

/// The VFS name to pass to sqlite3_open_v2 (or SQLiteStore.open(vfs:)).
#define CRASHVFS_NAME "stillroom-crash"

/// What happens to writes that were not yet synced when the power goes.
typedef enum {
    /// All of them are lost: the volatile cache simply vanishes.
    crashvfs_loss_all = 0,
    /// The cache was being written back in order: a seeded random prefix of them, cut at a 512-byte
    /// sector boundary, reached the disk.
    crashvfs_loss_torn_prefix = 1,
    /// The cache was written back in any order: each 512-byte sector of each unsynced write (and each
    /// unsynced truncate) independently reached the disk or not, seeded.
    crashvfs_loss_torn_scattered = 2,
} crashvfs_loss;

/// Registers the VFS (not as the default) and hooks the unix VFS's directory syncs. Idempotent;
/// returns an SQLite result code.
int crashvfs_register(void);

/// Forgets every overlay and directory record, zeroes the counters, clears any plan and the crashed
/// state. Call between scenarios with no connection open through the layer.
void crashvfs_reset(void);

/// Plans a crash at the moment the `sync_number`-th xSync (1-based, counted since the last reset) is
/// called, before it takes effect; 0 = no sync crash point.
void crashvfs_plan_crash_at_sync(long long sync_number, crashvfs_loss loss, unsigned long long seed);

/// Plans a crash at the moment the `write_number`-th xWrite or xTruncate is called, before it takes
/// effect; 0 = no write crash point.
void crashvfs_plan_crash_at_write(long long write_number, crashvfs_loss loss, unsigned long long seed);

/// Crashes now.
void crashvfs_crash_now(crashvfs_loss loss, unsigned long long seed);

/// The process dies but the machine does not (a kill -9): every write not yet synced reaches its file,
/// as the kernel writes its cache back; nothing is lost.
void crashvfs_write_back_all(void);

/// Whether the crash has happened.
int crashvfs_has_crashed(void);

/// xSync calls seen since the last reset (counting the one that crashed, if any).
long long crashvfs_sync_count(void);

/// xWrite and xTruncate calls seen since the last reset.
long long crashvfs_write_count(void);

/// Successful xSync calls on main database files (SQLite syncs the database itself only when it
/// checkpoints the WAL, or commits in rollback mode): shows that a workload reached a checkpoint.
long long crashvfs_database_sync_count(void);

/// File creations and deletions the crash undid because their directory had not been fsynced since.
int crashvfs_directory_changes_undone(void);

/// Unsynced writes and truncates currently held in overlays (for tests of the layer itself).
long long crashvfs_pending_operation_count(void);

/// Reports that the directory holding `path_in_directory` was fsynced by code outside SQLite, so the
/// creations and deletions of entries in it are now durable.
void crashvfs_directory_synced(const char *path_in_directory);

#endif
