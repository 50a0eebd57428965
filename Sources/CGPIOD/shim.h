// libgpiod (v1 API on Debian 12). Only the GPIO input adapter imports this module.
#include <gpiod.h>
