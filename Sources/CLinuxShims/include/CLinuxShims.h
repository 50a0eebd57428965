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

/// TFD_TIMER_CANCEL_ON_SET: a realtime timerfd read fails with ECANCELED when the clock is set.
static inline int stillroom_tfd_timer_cancel_on_set(void) { return TFD_TIMER_CANCEL_ON_SET; }

/// Whether the kernel's wall clock is synchronised (adjtimex read-only query: not TIME_ERROR).
static inline int stillroom_clock_synchronized(void) {
    struct timex state = {0};
    return adjtimex(&state) != TIME_ERROR;
}

#endif
