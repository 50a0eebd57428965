// The functions of CEspeak.h, each a call into libespeak-ng.so.1 through a pointer resolved by
// stillroom_espeak_load(). EspeakSynthesizer loads first; a call before that would jump through a null
// pointer.
#include "CEspeak.h"

#include <LazyLibrary.h>

STILLROOM_DLOPEN_NOTE(stillroom_espeak_note,
    "[{\"feature\":\"speech\",\"description\":\"Speaks the controls' labels and reads transcripts aloud\","
    "\"priority\":\"recommended\",\"soname\":[\"libespeak-ng.so.1\"]}]");

enum { INITIALIZE, SET_SYNTH_CALLBACK, SET_VOICE_BY_NAME, SET_PARAMETER, SYNTH, SYMBOL_COUNT };

static const char *const symbols[SYMBOL_COUNT] = {
    [INITIALIZE] = "espeak_Initialize",
    [SET_SYNTH_CALLBACK] = "espeak_SetSynthCallback",
    [SET_VOICE_BY_NAME] = "espeak_SetVoiceByName",
    [SET_PARAMETER] = "espeak_SetParameter",
    [SYNTH] = "espeak_Synth",
};

static void *slots[SYMBOL_COUNT];
static struct stillroom_lazy_library espeak = {
    .soname = "libespeak-ng.so.1", .symbols = symbols, .slots = slots, .count = SYMBOL_COUNT,
};

const char *stillroom_espeak_load(void) { return stillroom_lazy_library_load(&espeak); }

int stillroom_espeak_initialize(espeak_AUDIO_OUTPUT output, int buffer_length, const char *path, int options) {
    return ((int (*)(espeak_AUDIO_OUTPUT, int, const char *, int))slots[INITIALIZE])(output, buffer_length, path, options);
}

void stillroom_espeak_set_synth_callback(t_espeak_callback *callback) {
    ((void (*)(t_espeak_callback *))slots[SET_SYNTH_CALLBACK])(callback);
}

espeak_ERROR stillroom_espeak_set_voice_by_name(const char *name) {
    return ((espeak_ERROR (*)(const char *))slots[SET_VOICE_BY_NAME])(name);
}

espeak_ERROR stillroom_espeak_set_parameter(espeak_PARAMETER parameter, int value, int relative) {
    return ((espeak_ERROR (*)(espeak_PARAMETER, int, int))slots[SET_PARAMETER])(parameter, value, relative);
}

espeak_ERROR stillroom_espeak_synth(const void *text, size_t size, unsigned int position,
                                    espeak_POSITION_TYPE position_type, unsigned int end_position,
                                    unsigned int flags, unsigned int *unique_identifier, void *user_data) {
    return ((espeak_ERROR (*)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int,
                              unsigned int *, void *))slots[SYNTH])(text, size, position, position_type, end_position,
                                                                   flags, unique_identifier, user_data);
}
