// The terminal's settings, saved before raw mode and put back at exit, on a crash, or when asked.
// Kept in C because a signal handler may only touch plain static memory and call async-signal-safe
// functions (tcsetattr is one).
#include "CInputShims.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_settings;
static volatile sig_atomic_t saved_fd = -1;
static int handlers_installed = 0;

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT };
#define FATAL_SIGNAL_COUNT (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction previous_actions[FATAL_SIGNAL_COUNT];

void stillroom_terminal_restore(void) {
    int fd = saved_fd;
    if (fd < 0) return;
    // TCSAFLUSH would drop typed-ahead keys the shell may want; TCSANOW is enough to restore echo.
    (void)tcsetattr(fd, TCSANOW, &saved_settings);
    saved_fd = -1;
}

void stillroom_terminal_restore_fd(int fd) {
    if (fd >= 0 && saved_fd == fd) stillroom_terminal_restore();
}

static void restore_at_exit(void) { stillroom_terminal_restore(); }

static void restore_on_fatal_signal(int signal_number) {
    int saved_errno = errno;
    stillroom_terminal_restore();
    for (size_t index = 0; index < FATAL_SIGNAL_COUNT; index++) {
        if (fatal_signals[index] == signal_number) {
            // Hand the signal to whoever had it before (the Swift runtime's backtracer, or the default
            // action): it is blocked while we run, so it is delivered to them as we return.
            (void)sigaction(signal_number, &previous_actions[index], NULL);
            (void)raise(signal_number);
            break;
        }
    }
    errno = saved_errno;
}

int stillroom_terminal_enter_raw(int fd) {
    struct termios settings;
    if (tcgetattr(fd, &settings) != 0) return -1;
    if (saved_fd < 0) {
        saved_settings = settings;
        saved_fd = fd;
    }
    if (!handlers_installed) {
        handlers_installed = 1;
        (void)atexit(restore_at_exit);
        for (size_t index = 0; index < FATAL_SIGNAL_COUNT; index++) {
            struct sigaction action;
            memset(&action, 0, sizeof(action));
            action.sa_handler = restore_on_fatal_signal;
            sigemptyset(&action.sa_mask);
            action.sa_flags = SA_ONSTACK;
            (void)sigaction(fatal_signals[index], &action, &previous_actions[index]);
        }
    }
    settings.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
    settings.c_iflag &= ~(tcflag_t)(IXON | ICRNL | INLCR | IGNCR);
    settings.c_cc[VMIN] = 1;
    settings.c_cc[VTIME] = 0;
    settings.c_cc[VSUSP] = _POSIX_VDISABLE;
    if (tcsetattr(fd, TCSANOW, &settings) != 0) {
        int saved_errno = errno;
        stillroom_terminal_restore();
        errno = saved_errno;
        return -1;
    }
    return 0;
}
