// Shared between the layer's parts. Every function here expects the caller to hold crashvfs_lock.

#ifndef CRASHVFS_INTERNAL_H
#define CRASHVFS_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include "CCrashVFS.h"

extern pthread_mutex_t crashvfs_lock;

// MARK: overlay.c — unsynced writes of one file.

/// One unsynced operation: a write of `length` bytes at `offset`, or (data == NULL) a truncate to `offset`.
typedef struct pending_op {
    sqlite3_int64 offset;
    int length;
    unsigned char *data;
    struct pending_op *next;
} pending_op;

/// The overlay of one file, shared by every handle open on its path.
typedef struct overlay {
    char *path;
    int handles;
    pending_op *first;
    pending_op *last;
    struct overlay *next;
} overlay;

overlay *overlay_for_path(const char *path);       // finds or creates
void overlay_release(overlay *o);                    // drops a handle; frees the overlay when unused and clean
int overlay_add_write(overlay *o, const void *data, int length, sqlite3_int64 offset);
int overlay_add_truncate(overlay *o, sqlite3_int64 size);
/// Reads `amount` bytes at `offset` as the process sees them: `real` (the disk) with the overlay on top.
int overlay_read(overlay *o, sqlite3_file *real, void *buffer, int amount, sqlite3_int64 offset);
int overlay_size(overlay *o, sqlite3_file *real, sqlite3_int64 *size);
/// Applies every pending operation to `real` in order and forgets them (the first half of xSync).
int overlay_flush(overlay *o, sqlite3_file *real);
void overlay_discard(overlay *o);
void overlay_reset_all(void);                        // discards everything; frees overlays no handle uses
/// Writes a seeded selection of the pending operations straight to the file at o->path, then forgets them.
void overlay_write_back(overlay *o);                 // every pending write reaches the file (a kill: the kernel has them)
void overlay_apply_torn(overlay *o, crashvfs_loss loss, unsigned long long *random_state);
overlay *overlay_all(void);
long long overlay_pending_count(void);
void overlay_forget_path(const char *path);          // the file was deleted: its unsynced writes go with it

// MARK: directory_entries.c — creations and deletions not yet made durable by a directory fsync.

void entries_note_created(const char *path);
/// Deletes `path` as the disk would see it: unlinked if its creation never became durable, otherwise
/// moved to a stash so a crash can bring it back. Returns 0 or an errno.
int entries_delete(const char *path);
void entries_directory_synced(const char *path_in_directory);
int entries_undo_unsynced(void);                     // at the crash; returns how many changes it undid
void entries_reset(void);

// MARK: crash_plan.c — the counters and the crash.

/// Count an xSync / an xWrite or xTruncate, crashing if it is the planned one; return whether the disk is gone.
int plan_count_sync(void);
int plan_count_write(void);
void plan_note_database_sync(void);
int plan_crashed(void);

/// A 64-bit xorshift step: reproducible choices from a seed.
unsigned long long crashvfs_next_random(unsigned long long *state);

#endif
