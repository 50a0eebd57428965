// libsamplerate: band-limited sample-rate conversion. Only the Resampling adapter imports this module.
#include <samplerate.h>
