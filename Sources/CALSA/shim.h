// ALSA's PCM, control and mixer APIs. Only the ALSAAudio adapter imports this module.
#include <stdarg.h>
#include <alsa/asoundlib.h>

// alsa-lib prints its own errors to stderr; the adapter reports every failure itself, with context,
// so the library's lines would only be noise in the journal. (A variadic callback cannot be written in
// Swift, hence this shim.)
static void stillroom_alsa_discard_error(const char *file, int line, const char *function, int err,
                                         const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void stillroom_alsa_silence_library_errors(void) {
    snd_lib_error_set_handler(stillroom_alsa_discard_error);
}
