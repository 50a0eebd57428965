// Linux constants that are C macros Swift cannot import, exposed as functions.
#ifndef STILLROOM_CLINUXSHIMS_H
#define STILLROOM_CLINUXSHIMS_H

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>

/// TFD_TIMER_CANCEL_ON_SET: a realtime timerfd read fails with ECANCELED when the clock is set.
static inline int stillroom_tfd_timer_cancel_on_set(void) { return TFD_TIMER_CANCEL_ON_SET; }

#endif
