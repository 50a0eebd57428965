// ALSA's PCM, control and mixer APIs. Only the ALSAAudio adapter imports this module.
#include <alsa/asoundlib.h>
