// libdrm: KMS modesetting and dumb buffers. Only the DRM display adapter imports this module.
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
