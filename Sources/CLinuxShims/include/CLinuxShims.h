// Linux constants that are C macros Swift cannot import, exposed as functions.
#ifndef STILLROOM_CLINUXSHIMS_H
#define STILLROOM_CLINUXSHIMS_H


#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/un.h>
#include <sys/vfs.h>

/// TFD_TIMER_CANCEL_ON_SET: a realtime timerfd read fails with ECANCELED when the clock is set.
static inline int stillroom_tfd_timer_cancel_on_set(void) { return TFD_TIMER_CANCEL_ON_SET; }

/// Whether the kernel's wall clock is synchronised (adjtimex read-only query: not TIME_ERROR): 1 or 0, and
/// -1 when the query itself is refused (a seccomp filter, as systemd's ProtectClock= sets, denies adjtimex).
static inline int stillroom_clock_synchronized(void) {
    struct timex state = {0};
    int status = adjtimex(&state);
    if (status == -1) return -1;
    return status != TIME_ERROR;
}

/// The type of the file system `path` is on: statfs(2)'s f_type, a number from linux/magic.h; 0 (with errno
/// set) when statfs fails. Swift's Glibc module has no statfs.
static inline unsigned long stillroom_file_system_type(const char *path) {
    struct statfs info;
    return statfs(path, &info) == 0 ? (unsigned long)info.f_type : 0;
}

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC. accept4 and struct ucred need _GNU_SOURCE, which
/// must not leak into this header (it changes glibc's struct layouts against Swift's Glibc module), so
/// they are defined in shims.c.
int stillroom_accept_nonblocking(int listener);

/// The peer's pid, uid and gid of a Unix socket (SO_PEERCRED).
int stillroom_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid);

#endif
