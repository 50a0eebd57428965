// The "stillroom-crash" VFS: wraps the unix VFS, routes writes of named files through overlays
// (overlay.c), records directory changes (directory_entries.c), and reports every sync and write to the
// plan (crash_plan.c), which crashes at the planned one. See include/CCrashVFS.h for the model.

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include "internal.h"

// MARK: Files

typedef struct {
    sqlite3_file base;
    /// NULL for a file that passes straight through (temporary files).
    overlay *overlay;
    /// The unix VFS's file, allocated right after this struct.
    sqlite3_file *real;
    int is_main_database;
} crash_file;

static int file_close(sqlite3_file *file) {
    crash_file *f = (crash_file *)file;
    int rc = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    if (f->overlay) {
        pthread_mutex_lock(&crashvfs_lock);
        overlay_release(f->overlay);
        pthread_mutex_unlock(&crashvfs_lock);
        f->overlay = NULL;
    }
    return rc;
}

static int file_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    crash_file *f = (crash_file *)file;
    if (!f->overlay) return f->real->pMethods->xRead(f->real, buffer, amount, offset);
    pthread_mutex_lock(&crashvfs_lock);
    int rc = overlay_read(f->overlay, f->real, buffer, amount, offset);
    pthread_mutex_unlock(&crashvfs_lock);
    return rc;
}

static int file_write(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
    crash_file *f = (crash_file *)file;
    if (!f->overlay) return f->real->pMethods->xWrite(f->real, data, amount, offset);
    pthread_mutex_lock(&crashvfs_lock);
    int rc = plan_count_write() ? SQLITE_IOERR_WRITE : overlay_add_write(f->overlay, data, amount, offset);
    pthread_mutex_unlock(&crashvfs_lock);
    return rc;
}

static int file_truncate(sqlite3_file *file, sqlite3_int64 size) {
    crash_file *f = (crash_file *)file;
    if (!f->overlay) return f->real->pMethods->xTruncate(f->real, size);
    pthread_mutex_lock(&crashvfs_lock);
    int rc = plan_count_write() ? SQLITE_IOERR_TRUNCATE : overlay_add_truncate(f->overlay, size);
    pthread_mutex_unlock(&crashvfs_lock);
    return rc;
}

static int file_sync(sqlite3_file *file, int flags) {
    crash_file *f = (crash_file *)file;
    if (!f->overlay) return f->real->pMethods->xSync(f->real, flags);
    pthread_mutex_lock(&crashvfs_lock);
    int rc = plan_count_sync() ? SQLITE_IOERR_FSYNC : overlay_flush(f->overlay, f->real);
    pthread_mutex_unlock(&crashvfs_lock);
    // The real fsync (and, for a new journal or WAL, the unix VFS's directory fsync) outside the lock:
    // the directory hook takes it.
    if (rc == SQLITE_OK) rc = f->real->pMethods->xSync(f->real, flags);
    if (rc == SQLITE_OK && f->is_main_database) {
        pthread_mutex_lock(&crashvfs_lock);
        plan_note_database_sync();
        pthread_mutex_unlock(&crashvfs_lock);
    }
    return rc;
}

static int file_size(sqlite3_file *file, sqlite3_int64 *size) {
    crash_file *f = (crash_file *)file;
    if (!f->overlay) return f->real->pMethods->xFileSize(f->real, size);
    pthread_mutex_lock(&crashvfs_lock);
    int rc = overlay_size(f->overlay, f->real, size);
    pthread_mutex_unlock(&crashvfs_lock);
    return rc;
}

static int file_lock(sqlite3_file *file, int level) {
    crash_file *f = (crash_file *)file;
    return f->real->pMethods->xLock(f->real, level);
}

static int file_unlock(sqlite3_file *file, int level) {
    crash_file *f = (crash_file *)file;
    return f->real->pMethods->xUnlock(f->real, level);
}

static int file_check_reserved_lock(sqlite3_file *file, int *out) {
    crash_file *f = (crash_file *)file;
    return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int file_control(sqlite3_file *file, int op, void *arg) {
    crash_file *f = (crash_file *)file;
    // A size hint makes the unix VFS extend the real file directly; it is only a hint, so skip it.
    if (f->overlay && op == SQLITE_FCNTL_SIZE_HINT) return SQLITE_OK;
    return f->real->pMethods->xFileControl(f->real, op, arg);
}

static int file_sector_size(sqlite3_file *file) {
    crash_file *f = (crash_file *)file;
    return f->real->pMethods->xSectorSize(f->real);
}

static int file_device_characteristics(sqlite3_file *file) {
    crash_file *f = (crash_file *)file;
    // Passed through: the unix VFS claims POWERSAFE_OVERWRITE, which the torn modes honour (bytes outside
    // a write are never touched) and nothing stronger (no atomic or sequential writes).
    return f->real->pMethods->xDeviceCharacteristics(f->real);
}

static int file_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    crash_file *f = (crash_file *)file;
    return f->real->pMethods->xShmMap(f->real, page, size, extend, out);
}

static int file_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    crash_file *f = (crash_file *)file;
    return f->real->pMethods->xShmLock(f->real, offset, n, flags);
}

static void file_shm_barrier(sqlite3_file *file) {
    crash_file *f = (crash_file *)file;
    f->real->pMethods->xShmBarrier(f->real);
}

static int file_shm_unmap(sqlite3_file *file, int delete_flag) {
    crash_file *f = (crash_file *)file;
    return f->real->pMethods->xShmUnmap(f->real, delete_flag);
}

/// Version 2: shared memory (WAL) but no xFetch, so SQLite never memory-maps a file past the overlay.
static const sqlite3_io_methods file_methods = {
    2, file_close, file_read, file_write, file_truncate, file_sync, file_size, file_lock, file_unlock,
    file_check_reserved_lock, file_control, file_sector_size, file_device_characteristics,
    file_shm_map, file_shm_lock, file_shm_barrier, file_shm_unmap, NULL, NULL,
};

// MARK: The VFS

static sqlite3_vfs crash_vfs;

static sqlite3_vfs *unix_vfs(void) { return (sqlite3_vfs *)crash_vfs.pAppData; }

static int vfs_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    (void)vfs;
    crash_file *f = (crash_file *)file;
    memset(f, 0, sizeof *f);
    f->real = (sqlite3_file *)((char *)file + sizeof(crash_file));
    int temporary = !name || (flags & (SQLITE_OPEN_TEMP_DB | SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_TRANSIENT_DB |
                                       SQLITE_OPEN_SUBJOURNAL | SQLITE_OPEN_DELETEONCLOSE));
    struct stat info;
    int existed = name && stat(name, &info) == 0;
    if (!temporary && (flags & SQLITE_OPEN_CREATE) && !existed) {
        if (crashvfs_has_crashed()) return SQLITE_CANTOPEN; // No creating files on a disk that is gone.
    }
    // The same name pointer: the unix VFS keeps it, and reads URI parameters after it.
    int rc = unix_vfs()->xOpen(unix_vfs(), name, f->real, flags, out_flags);
    if (rc != SQLITE_OK) return rc;
    if (!temporary) {
        pthread_mutex_lock(&crashvfs_lock);
        f->overlay = overlay_for_path(name);
        if (!existed && (flags & SQLITE_OPEN_CREATE)) entries_note_created(name);
        pthread_mutex_unlock(&crashvfs_lock);
        if (!f->overlay) { f->real->pMethods->xClose(f->real); return SQLITE_NOMEM; }
    }
    f->is_main_database = (flags & SQLITE_OPEN_MAIN_DB) != 0;
    f->base.pMethods = &file_methods;
    return SQLITE_OK;
}

static int vfs_delete(sqlite3_vfs *vfs, const char *name, int sync_directory) {
    (void)vfs;
    pthread_mutex_lock(&crashvfs_lock);
    int rc = SQLITE_OK;
    if (plan_crashed()) {
        rc = SQLITE_IOERR_DELETE;
    } else {
        overlay_forget_path(name);
        int error = entries_delete(name);
        if (error == ENOENT) rc = SQLITE_IOERR_DELETE_NOENT;
        else if (error) rc = SQLITE_IOERR_DELETE;
        else if (sync_directory) entries_directory_synced(name);
    }
    pthread_mutex_unlock(&crashvfs_lock);
    return rc;
}

static int vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return unix_vfs()->xAccess(unix_vfs(), name, flags, out);
}

static int vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return unix_vfs()->xFullPathname(unix_vfs(), name, size, out);
}

static void *vfs_dl_open(sqlite3_vfs *vfs, const char *name) { (void)vfs; return unix_vfs()->xDlOpen(unix_vfs(), name); }
static void vfs_dl_error(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; unix_vfs()->xDlError(unix_vfs(), size, out); }
static void (*vfs_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return unix_vfs()->xDlSym(unix_vfs(), handle, symbol);
}
static void vfs_dl_close(sqlite3_vfs *vfs, void *handle) { (void)vfs; unix_vfs()->xDlClose(unix_vfs(), handle); }
static int vfs_randomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return unix_vfs()->xRandomness(unix_vfs(), size, out); }
static int vfs_sleep(sqlite3_vfs *vfs, int microseconds) { (void)vfs; return unix_vfs()->xSleep(unix_vfs(), microseconds); }
static int vfs_current_time(sqlite3_vfs *vfs, double *out) { (void)vfs; return unix_vfs()->xCurrentTime(unix_vfs(), out); }
static int vfs_last_error(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return unix_vfs()->xGetLastError(unix_vfs(), size, out); }
static int vfs_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return unix_vfs()->xCurrentTimeInt64(unix_vfs(), out);
}

// MARK: Seeing SQLite's directory fsyncs

/// The unix VFS opens a directory only to fsync it (after syncing a newly created journal or WAL, or
/// deleting one with the dirSync flag), through its replaceable "openDirectory" system call: hooking it
/// shows the layer every directory sync SQLite makes, without modelling when SQLite chooses to.
typedef int (*open_directory_call)(const char *path_in_directory, int *fd);
static open_directory_call original_open_directory;

static int hooked_open_directory(const char *path_in_directory, int *fd) {
    int rc = original_open_directory(path_in_directory, fd);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&crashvfs_lock);
        entries_directory_synced(path_in_directory);
        pthread_mutex_unlock(&crashvfs_lock);
    }
    return rc;
}

// MARK: Registration and the public API

static int registration_result = SQLITE_ERROR;

static void register_once(void) {
    sqlite3_vfs *real_vfs = sqlite3_vfs_find("unix");
    if (!real_vfs || real_vfs->iVersion < 3) return;
    original_open_directory = (open_directory_call)real_vfs->xGetSystemCall(real_vfs, "openDirectory");
    if (!original_open_directory) return;
    crash_vfs = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(crash_file) + real_vfs->szOsFile,
        .mxPathname = real_vfs->mxPathname,
        .zName = CRASHVFS_NAME,
        .pAppData = real_vfs,
        .xOpen = vfs_open, .xDelete = vfs_delete, .xAccess = vfs_access, .xFullPathname = vfs_full_pathname,
        .xDlOpen = vfs_dl_open, .xDlError = vfs_dl_error, .xDlSym = vfs_dl_sym, .xDlClose = vfs_dl_close,
        .xRandomness = vfs_randomness, .xSleep = vfs_sleep, .xCurrentTime = vfs_current_time,
        .xGetLastError = vfs_last_error, .xCurrentTimeInt64 = vfs_current_time_int64,
    };
    // Set once, before any connection uses the layer. The hook only observes and passes through, so
    // connections of other tests that use the real_vfs VFS meanwhile are unaffected.
    int rc = real_vfs->xSetSystemCall(real_vfs, "openDirectory", (sqlite3_syscall_ptr)hooked_open_directory);
    if (rc == SQLITE_OK) rc = sqlite3_vfs_register(&crash_vfs, 0);
    registration_result = rc;
}

int crashvfs_register(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_once);
    return registration_result;
}
