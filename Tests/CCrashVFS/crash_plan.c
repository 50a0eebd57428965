// The crash plan: counts the syncs and writes the VFS reports, crashes at the planned one, and answers
// the tests (the public API of include/CCrashVFS.h).

#include <string.h>
#include "internal.h"

pthread_mutex_t crashvfs_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
    long long syncs, writes;
    long long database_syncs; // of main database files: checkpoints (and rollback-mode commits)
    int directory_changes_undone;
    long long crash_at_sync, crash_at_write; // 0 = none
    crashvfs_loss loss;
    unsigned long long random_state;
    int crashed;
} state;

/// The power goes: unsynced writes meet their fate, unsynced directory changes are undone.
static void crash_locked(crashvfs_loss loss, unsigned long long seed) {
    if (state.crashed) return;
    unsigned long long random_state = seed;
    for (overlay *o = overlay_all(); o; o = o->next) {
        if (loss == crashvfs_loss_all) overlay_discard(o);
        else overlay_apply_torn(o, loss, &random_state);
    }
    state.directory_changes_undone = entries_undo_unsynced();
    state.crashed = 1;
}

/// Counts an event and crashes when it is the planned one. Returns whether the disk is gone.
static int count_and_check(long long *counter, long long planned) {
    if (state.crashed) return 1;
    ++*counter;
    if (planned > 0 && *counter == planned) crash_locked(state.loss, state.random_state);
    return state.crashed;
}

int plan_count_sync(void) { return count_and_check(&state.syncs, state.crash_at_sync); }

int plan_count_write(void) { return count_and_check(&state.writes, state.crash_at_write); }

void plan_note_database_sync(void) { state.database_syncs++; }

int plan_crashed(void) { return state.crashed; }

void crashvfs_reset(void) {
    pthread_mutex_lock(&crashvfs_lock);
    overlay_reset_all();
    entries_reset();
    memset(&state, 0, sizeof state);
    pthread_mutex_unlock(&crashvfs_lock);
}

void crashvfs_plan_crash_at_sync(long long sync_number, crashvfs_loss loss, unsigned long long seed) {
    pthread_mutex_lock(&crashvfs_lock);
    state.crash_at_sync = sync_number;
    state.loss = loss;
    state.random_state = seed;
    pthread_mutex_unlock(&crashvfs_lock);
}

void crashvfs_plan_crash_at_write(long long write_number, crashvfs_loss loss, unsigned long long seed) {
    pthread_mutex_lock(&crashvfs_lock);
    state.crash_at_write = write_number;
    state.loss = loss;
    state.random_state = seed;
    pthread_mutex_unlock(&crashvfs_lock);
}

void crashvfs_crash_now(crashvfs_loss loss, unsigned long long seed) {
    pthread_mutex_lock(&crashvfs_lock);
    crash_locked(loss, seed);
    pthread_mutex_unlock(&crashvfs_lock);
}

int crashvfs_has_crashed(void) {
    pthread_mutex_lock(&crashvfs_lock);
    int crashed = state.crashed;
    pthread_mutex_unlock(&crashvfs_lock);
    return crashed;
}

long long crashvfs_sync_count(void) {
    pthread_mutex_lock(&crashvfs_lock);
    long long count = state.syncs;
    pthread_mutex_unlock(&crashvfs_lock);
    return count;
}

long long crashvfs_write_count(void) {
    pthread_mutex_lock(&crashvfs_lock);
    long long count = state.writes;
    pthread_mutex_unlock(&crashvfs_lock);
    return count;
}

long long crashvfs_database_sync_count(void) {
    pthread_mutex_lock(&crashvfs_lock);
    long long count = state.database_syncs;
    pthread_mutex_unlock(&crashvfs_lock);
    return count;
}

int crashvfs_directory_changes_undone(void) {
    pthread_mutex_lock(&crashvfs_lock);
    int count = state.directory_changes_undone;
    pthread_mutex_unlock(&crashvfs_lock);
    return count;
}

long long crashvfs_pending_operation_count(void) {
    pthread_mutex_lock(&crashvfs_lock);
    long long count = overlay_pending_count();
    pthread_mutex_unlock(&crashvfs_lock);
    return count;
}

void crashvfs_directory_synced(const char *path_in_directory) {
    pthread_mutex_lock(&crashvfs_lock);
    entries_directory_synced(path_in_directory);
    pthread_mutex_unlock(&crashvfs_lock);
}

void crashvfs_write_back_all(void) {
    pthread_mutex_lock(&crashvfs_lock);
    for (overlay *o = overlay_all(); o; o = o->next) overlay_write_back(o);
    pthread_mutex_unlock(&crashvfs_lock);
}
