// libespeak-ng, loaded on first use (CLazyLibrary: speech serves neither PLAY nor the first frame, and
// libespeak-ng brings 23 libraries of its own, PulseAudio's among them). The daemon is not linked with it:
// every call goes through these functions, which call libespeak-ng.so.1's own, and
// stillroom_espeak_load() must have succeeded first. Only the EspeakSpeech adapter imports this module.
#ifndef STILLROOM_CESPEAK_H
#define STILLROOM_CESPEAK_H

#include <espeak-ng/speak_lib.h>

/// Loads libespeak-ng.so.1 (once per process): NULL when it is ready, otherwise the loader's reason.
const char *stillroom_espeak_load(void);

int stillroom_espeak_initialize(espeak_AUDIO_OUTPUT output, int buffer_length, const char *path, int options);
void stillroom_espeak_set_synth_callback(t_espeak_callback *callback);
espeak_ERROR stillroom_espeak_set_voice_by_name(const char *name);
espeak_ERROR stillroom_espeak_set_parameter(espeak_PARAMETER parameter, int value, int relative);
espeak_ERROR stillroom_espeak_synth(const void *text, size_t size, unsigned int position,
                                    espeak_POSITION_TYPE position_type, unsigned int end_position,
                                    unsigned int flags, unsigned int *unique_identifier, void *user_data);

#endif
