// Input helpers Swift cannot express: evdev ioctls (their request numbers are C macros) and a terminal
// restore that is safe to run from a signal handler. Only EvdevInput and TerminalInput import this.
#ifndef STILLROOM_CINPUTSHIMS_H
#define STILLROOM_CINPUTSHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <linux/input.h>

// MARK: evdev (linux/input.h). Each returns the ioctl's result: -1 with errno on failure.

/// EVIOCGNAME: the device's name into buf (NUL-terminated, truncated to len).
static inline int stillroom_evdev_name(int fd, char *buf, size_t len) {
    int n = ioctl(fd, EVIOCGNAME(len), buf);
    if (n >= 0 && len > 0) buf[(size_t)n < len ? (size_t)n : len - 1] = '\0';
    return n;
}

/// EVIOCGRAB: 1 takes the device for this descriptor alone; 0 lets it go.
static inline int stillroom_evdev_grab(int fd, int on) { return ioctl(fd, EVIOCGRAB, (void *)(intptr_t)on); }

/// EVIOCSCLOCKID: stamp events with this clock (CLOCK_MONOTONIC, to match the loop's timers).
static inline int stillroom_evdev_set_clock(int fd, int clockid) { return ioctl(fd, EVIOCSCLOCKID, &clockid); }

/// EVIOCGBIT(type): which codes of `type` the device can send (type 0: which types), as a bit array.
static inline int stillroom_evdev_bits(int fd, unsigned type, uint8_t *bits, size_t len) {
    return ioctl(fd, EVIOCGBIT(type, len), bits);
}

/// EVIOCGKEY: the keys held now, as a bit array.
static inline int stillroom_evdev_keys(int fd, uint8_t *bits, size_t len) { return ioctl(fd, EVIOCGKEY(len), bits); }

/// EVIOCGSW: the switches set now, as a bit array.
static inline int stillroom_evdev_switches(int fd, uint8_t *bits, size_t len) { return ioctl(fd, EVIOCGSW(len), bits); }

/// EVIOCGABS(axis): an absolute axis's value and limits.
static inline int stillroom_evdev_abs(int fd, unsigned axis, int32_t *value, int32_t *minimum, int32_t *maximum) {
    struct input_absinfo info;
    int result = ioctl(fd, EVIOCGABS(axis), &info);
    if (result >= 0) {
        *value = info.value;
        *minimum = info.minimum;
        *maximum = info.maximum;
    }
    return result;
}

/// sizeof(struct input_event): 24 on 64-bit Linux (a struct timeval, type, code, value).
static inline size_t stillroom_evdev_event_size(void) { return sizeof(struct input_event); }


// MARK: terminal

/// Puts the terminal on `fd` into the mode the simulator reads keys in: no line editing, no echo, no
/// flow control, CR kept as CR; Ctrl-C still sends SIGINT (which the daemon handles), Ctrl-Z is off.
/// Saves the previous settings first and arranges for them to come back at exit (atexit) and on a
/// crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT: restored, then the previous
/// handler runs, so the Swift runtime's backtrace still appears). Returns 0, or -1 with errno.
int stillroom_terminal_enter_raw(int fd);

/// Puts back the settings saved by stillroom_terminal_enter_raw. Safe to call from a signal handler,
/// more than once, and when nothing was saved.
void stillroom_terminal_restore(void);

/// The same, only when the saved settings are `fd`'s: a terminal input that stops puts back its own
/// terminal and never another one's (two in one process, or tests running side by side).
void stillroom_terminal_restore_fd(int fd);

#endif
