// pango through cairo: text shaping, wrapping and ellipsis, fonts found through fontconfig.
// Only the painter adapter imports this module. The headers only: the functions are CDrawing's, which
// load libpangocairo when the screen is first drawn.
#include <pango/pangocairo.h>
