// cairo: 2D drawing into image surfaces, and PNG in and out. Only the painter adapter imports this module.
// The headers only: the functions are CDrawing's, which load libcairo when the screen is first drawn.
#include <cairo.h>
