// pango through cairo: text shaping, wrapping and ellipsis, fonts found through fontconfig.
// Only the painter adapter imports this module.
#include <pango/pangocairo.h>
