// Directory entries as the disk holds them. Creating or deleting a file changes the directory in memory
// at once, but only an fsync of the directory makes the change durable; a crash before that undoes it.
// The real directory is the live view, so each change not yet durable is remembered here:
// - a creation: at a crash the file is removed (with whatever data it had);
// - a deletion of a durable file: the file is renamed to a stash instead of unlinked, and a crash
//   renames it back, holding what had been synced into it.

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

typedef struct entry_change {
    char *path;
    /// NULL for a creation; for a deletion, where the durable file waits.
    char *stash;
    struct entry_change *next;
} entry_change;

static entry_change *changes;
static unsigned long stash_counter;

static entry_change *find(const char *path, int deletion) {
    for (entry_change *c = changes; c; c = c->next)
        if (strcmp(c->path, path) == 0 && (c->stash != NULL) == deletion) return c;
    return NULL;
}

static void add(const char *path, char *stash) {
    entry_change *c = calloc(1, sizeof *c);
    if (!c) { free(stash); return; }
    c->path = strdup(path);
    c->stash = stash;
    c->next = changes;
    changes = c;
}

static void remove_change(entry_change *target) {
    for (entry_change **link = &changes; *link; link = &(*link)->next) {
        if (*link == target) {
            *link = target->next;
            free(target->path);
            free(target->stash);
            free(target);
            return;
        }
    }
}

void entries_note_created(const char *path) {
    if (!find(path, 0)) add(path, NULL);
}

int entries_delete(const char *path) {
    entry_change *created = find(path, 0);
    if (created) {
        // Created and deleted between two directory syncs: the disk never saw it.
        remove_change(created);
        return unlink(path) == 0 ? 0 : errno;
    }
    char *stash = malloc(strlen(path) + 48);
    if (!stash) return ENOMEM;
    sprintf(stash, "%s.crashvfs-deleted-%lu", path, ++stash_counter);
    if (rename(path, stash) != 0) { int error = errno; free(stash); return error; }
    add(path, stash);
    return 0;
}

/// Whether `path` is an entry of the directory that holds `path_in_directory`.
static int same_directory(const char *path, const char *path_in_directory) {
    const char *a = strrchr(path, '/'), *b = strrchr(path_in_directory, '/');
    size_t la = a ? (size_t)(a - path) : 0, lb = b ? (size_t)(b - path_in_directory) : 0;
    return la == lb && strncmp(path, path_in_directory, la) == 0;
}

void entries_directory_synced(const char *path_in_directory) {
    entry_change *c = changes;
    while (c) {
        entry_change *next = c->next;
        if (same_directory(c->path, path_in_directory)) {
            if (c->stash) unlink(c->stash); // The deletion is durable now.
            remove_change(c);
        }
        c = next;
    }
}

int entries_undo_unsynced(void) {
    int undone = 0;
    // Creations first, so that a durable file deleted and then created again comes back in its place.
    for (entry_change *c = changes; c; c = c->next)
        if (!c->stash) { unlink(c->path); overlay_forget_path(c->path); undone++; }
    for (entry_change *c = changes; c; c = c->next)
        if (c->stash) { rename(c->stash, c->path); undone++; }
    entries_reset();
    return undone;
}

void entries_reset(void) {
    while (changes) {
        entry_change *next = changes->next;
        free(changes->path);
        free(changes->stash);
        free(changes);
        changes = next;
    }
}
