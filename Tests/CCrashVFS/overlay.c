// The volatile write cache of each file: writes and truncates kept in issue order until the file is
// synced. A list, not a page map, so that truncates and overlapping writes replay exactly as issued.

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

static overlay *overlays;

overlay *overlay_all(void) { return overlays; }

overlay *overlay_for_path(const char *path) {
    for (overlay *o = overlays; o; o = o->next) {
        if (strcmp(o->path, path) == 0) { o->handles++; return o; }
    }
    overlay *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->path = strdup(path);
    if (!o->path) { free(o); return NULL; }
    o->handles = 1;
    o->next = overlays;
    overlays = o;
    return o;
}

static void free_ops(overlay *o) {
    pending_op *op = o->first;
    while (op) {
        pending_op *next = op->next;
        free(op->data);
        free(op);
        op = next;
    }
    o->first = o->last = NULL;
}

void overlay_release(overlay *o) {
    o->handles--;
    // A closed file keeps its unsynced writes (the page cache outlives the descriptor): keep the overlay.
    if (o->handles > 0 || o->first) return;
    for (overlay **link = &overlays; *link; link = &(*link)->next) {
        if (*link == o) { *link = o->next; break; }
    }
    free(o->path);
    free(o);
}

static int append(overlay *o, const void *data, int length, sqlite3_int64 offset) {
    pending_op *op = calloc(1, sizeof *op);
    if (!op) return SQLITE_NOMEM;
    if (data) {
        op->data = malloc(length > 0 ? (size_t)length : 1);
        if (!op->data) { free(op); return SQLITE_NOMEM; }
        memcpy(op->data, data, (size_t)length);
    }
    op->offset = offset;
    op->length = length;
    if (o->last) o->last->next = op; else o->first = op;
    o->last = op;
    return SQLITE_OK;
}

int overlay_add_write(overlay *o, const void *data, int length, sqlite3_int64 offset) {
    return append(o, data, length, offset);
}

int overlay_add_truncate(overlay *o, sqlite3_int64 size) { return append(o, NULL, 0, size); }

int overlay_size(overlay *o, sqlite3_file *real, sqlite3_int64 *size) {
    int rc = real->pMethods->xFileSize(real, size);
    if (rc != SQLITE_OK) return rc;
    for (pending_op *op = o->first; op; op = op->next) {
        if (!op->data) *size = op->offset;
        else if (op->offset + op->length > *size) *size = op->offset + op->length;
    }
    return SQLITE_OK;
}

int overlay_read(overlay *o, sqlite3_file *real, void *buffer, int amount, sqlite3_int64 offset) {
    unsigned char *out = buffer;
    memset(out, 0, (size_t)amount);
    sqlite3_int64 size;
    int rc = real->pMethods->xFileSize(real, &size);
    if (rc != SQLITE_OK) return rc;
    if (offset < size) {
        rc = real->pMethods->xRead(real, out, amount, offset);
        if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
    }
    sqlite3_int64 end = offset + amount;
    for (pending_op *op = o->first; op; op = op->next) {
        if (!op->data) {
            // Bytes past a truncate read as zeros until something writes them again.
            size = op->offset;
            if (size < end) {
                sqlite3_int64 from = size > offset ? size : offset;
                memset(out + (from - offset), 0, (size_t)(end - from));
            }
            continue;
        }
        sqlite3_int64 op_end = op->offset + op->length;
        if (op_end > size) size = op_end;
        sqlite3_int64 from = op->offset > offset ? op->offset : offset;
        sqlite3_int64 to = op_end < end ? op_end : end;
        if (from < to) memcpy(out + (from - offset), op->data + (from - op->offset), (size_t)(to - from));
    }
    if (end > size) {
        sqlite3_int64 from = size > offset ? size : offset;
        memset(out + (from - offset), 0, (size_t)(end - from));
        return SQLITE_IOERR_SHORT_READ;
    }
    return SQLITE_OK;
}

int overlay_flush(overlay *o, sqlite3_file *real) {
    for (pending_op *op = o->first; op; op = op->next) {
        int rc = op->data ? real->pMethods->xWrite(real, op->data, op->length, op->offset)
                          : real->pMethods->xTruncate(real, op->offset);
        if (rc != SQLITE_OK) return rc; // Left pending: the next sync tries again.
    }
    free_ops(o);
    return SQLITE_OK;
}

void overlay_discard(overlay *o) { free_ops(o); }

void overlay_reset_all(void) {
    overlay **link = &overlays;
    while (*link) {
        overlay *o = *link;
        free_ops(o);
        if (o->handles > 0) { link = &o->next; continue; } // Still open: keep it, now clean.
        *link = o->next;
        free(o->path);
        free(o);
    }
}

long long overlay_pending_count(void) {
    long long count = 0;
    for (overlay *o = overlays; o; o = o->next)
        for (pending_op *op = o->first; op; op = op->next) count++;
    return count;
}

void overlay_forget_path(const char *path) {
    for (overlay *o = overlays; o; o = o->next)
        if (strcmp(o->path, path) == 0) free_ops(o);
}

// MARK: Torn write-back

/// Disks write back whole sectors; a write is torn at these boundaries, never inside one.
enum { sector = 512 };

/// How many write-back units an operation has: one per sector it touches, one for a truncate.
static long long units_of(const pending_op *op) {
    if (!op->data || op->length == 0) return 1;
    sqlite3_int64 first = op->offset / sector, last = (op->offset + op->length - 1) / sector;
    return last - first + 1;
}

/// Writes unit `index` of `op` to `fd`.
static void apply_unit(int fd, const pending_op *op, long long index) {
    if (!op->data) { if (ftruncate(fd, op->offset) != 0) { /* The crash image is best effort. */ } return; }
    if (op->length == 0) return;
    sqlite3_int64 start = (op->offset / sector + index) * sector;
    sqlite3_int64 from = start > op->offset ? start : op->offset;
    sqlite3_int64 to = start + sector < op->offset + op->length ? start + sector : op->offset + op->length;
    if (pwrite(fd, op->data + (from - op->offset), (size_t)(to - from), from) < 0) { /* Best effort, as above. */ }
}

void overlay_apply_torn(overlay *o, crashvfs_loss loss, unsigned long long *random_state) {
    if (!o->first) return;
    long long total = 0;
    for (pending_op *op = o->first; op; op = op->next) total += units_of(op);
    // Prefix: the first `keep` units in issue order reached the disk. Scattered: each unit by a coin toss.
    long long keep = (long long)(crashvfs_next_random(random_state) % (unsigned long long)(total + 1));
    int fd = open(o->path, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        long long unit = 0;
        for (pending_op *op = o->first; op; op = op->next) {
            for (long long i = 0; i < units_of(op); i++, unit++) {
                int reached = loss == crashvfs_loss_torn_prefix ? unit < keep
                                                                : (int)(crashvfs_next_random(random_state) & 1);
                if (reached) apply_unit(fd, op, i);
            }
        }
        close(fd);
    }
    free_ops(o);
}

void overlay_write_back(overlay *o) {
    if (!o->first) return;
    int fd = open(o->path, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        for (pending_op *op = o->first; op; op = op->next)
            for (long long i = 0; i < units_of(op); i++) apply_unit(fd, op, i);
        close(fd);
    }
    free_ops(o);
}

unsigned long long crashvfs_next_random(unsigned long long *state) {
    unsigned long long x = *state ? *state : 0x9E3779B97F4A7C15ull;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x;
}
