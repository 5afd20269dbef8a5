/* Device global memory, the face of memory/: the module's state (the heap
 * allocator and its lock) and the checks other modules make against live
 * allocations. The mem_* calls are the public API (rvhal/device.h). */
#ifndef RVHAL_HOST_MEMORY_H
#define RVHAL_HOST_MEMORY_H

#include "device/core.h"
#include "memory/allocator.h"

typedef struct rvhal_memory rvhal_memory_t;

/* The heap over the device's global memory (layout.h). */
int rvhal_memory_create(const rvhal_device_t *d, rvhal_memory_t **out_memory);
void rvhal_memory_destroy(rvhal_memory_t *m);

/* A fill's pattern: not NULL, 1..RVHAL_FILL_PATTERN_MAX bytes; `what`
 * names the call in the error. */
int rvhal_check_fill_pattern(const char *what, const void *pattern, uint64_t pattern_size);
/* [addr, addr+size) inside one allocation, or the error mem_<op> gives
 * ("mem_copy: source address ... is not inside any allocation"). */
int rvhal_mem_check(rvhal_device_t *d, const char *op, const char *what, hal_addr_t addr, hal_size_t size);
/* The size of the live allocation that holds addr; RVHAL_NOT_FOUND if none. */
int rvhal_memory_lookup(const rvhal_device_t *d, hal_addr_t addr, hal_size_t *out_size);
/* Before a restart on a non-coherent backend (the device is reset from the
 * host's mirror): what the kernels wrote to live allocations is read back,
 * from a device still there (else the host's last view stays). */
void rvhal_memory_read_back(const rvhal_device_t *d);

#endif /* RVHAL_HOST_MEMORY_H */
