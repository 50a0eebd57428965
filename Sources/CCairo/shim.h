// cairo: 2D drawing into image surfaces, and PNG in and out. Only the painter adapter imports this module.
#include <cairo.h>
