// libespeak-ng: speech synthesis on the box. Only the EspeakSpeech adapter imports this module.
#include <espeak-ng/speak_lib.h>
