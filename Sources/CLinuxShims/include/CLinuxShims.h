// Linux constants that are C macros Swift cannot import, exposed as functions.
#ifndef STILLROOM_CLINUXSHIMS_H
#define STILLROOM_CLINUXSHIMS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/un.h>

/// TFD_TIMER_CANCEL_ON_SET: a realtime timerfd read fails with ECANCELED when the clock is set.
static inline int stillroom_tfd_timer_cancel_on_set(void) { return TFD_TIMER_CANCEL_ON_SET; }

/// Whether the kernel's wall clock is synchronised (adjtimex read-only query: not TIME_ERROR).
static inline int stillroom_clock_synchronized(void) {
    struct timex state = {0};
    return adjtimex(&state) != TIME_ERROR;
}

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC (a GNU extension Swift's Glibc module does not show).
static inline int stillroom_accept_nonblocking(int listener) {
    return accept4(listener, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// The peer's pid, uid and gid of a Unix socket (SO_PEERCRED, struct ucred is behind _GNU_SOURCE).
static inline int stillroom_peer_credentials(int fd, int *pid, unsigned *uid, unsigned *gid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

#endif
