/* The RAM an OpenCL context's device is given (docs/opencl.md, "Devices"):
 * 1 GiB, for buffers of 128 MiB and more as the full profile's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE asks, unless $RVHAL_RAM_MIB says (then
 * rvhal_device_create reads it) or the board cannot have it (then its
 * default). The RAM is host memory touched only where the device writes.
 * `rvhal info` shows the global memory this gives beside the C API's
 * default (host/tools/cmd_info.c), the figure clinfo shows. */
#ifndef RVHAL_OPENCL_DEVICE_RAM_H
#define RVHAL_OPENCL_DEVICE_RAM_H

#include <stdlib.h>

#include "rvhal/device.h"

#define RVCL_DEFAULT_RAM (1024ull << 20)

/* Sets o->ram_size (0: the board's default or $RVHAL_RAM_MIB) and writes
 * the info of device `index` with options *o into *out_info; RVHAL_OK or
 * the error of the last attempt. */
static inline int rvcl_device_ram(uint32_t index, rvhal_device_options_t *o, rvhal_device_info_t *out_info) {
  const char *e = getenv("RVHAL_RAM_MIB");
  if (!(e && *e)) {
    o->ram_size = RVCL_DEFAULT_RAM;
    if (rvhal_platform_device_info_for(index, o, out_info) == RVHAL_OK) return RVHAL_OK;
  }
  o->ram_size = 0;
  return rvhal_platform_device_info_for(index, o, out_info);
}

#endif
