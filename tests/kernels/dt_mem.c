/* Device tests (tests/device/memory.c): read device memory on the device. */
#include "kernel_if.h"

/* out[i] = FNV-1a (seeded with i) of in[i*chunk, min(n, (i+1)*chunk)). */
typedef struct {
  __global const uchar *in;
  __global uint *out;
  uint64_t n;
  uint64_t chunk;
} mem_checksum_args;

static void mem_checksum_item(const mem_checksum_args *a, exec_state_t *e) {
  uint64_t i = get_global_id(0, e);
  uint64_t lo = i * a->chunk, hi = lo + a->chunk;
  if (hi > a->n) hi = a->n;
  uint h = 2166136261u ^ (uint)i;
  for (uint64_t b = lo; b < hi; b++) h = (h ^ a->in[b]) * 16777619u;
  a->out[i] = h;
}

RVHAL_KERNEL(mem_checksum, mem_checksum_args, mem_checksum_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out), RVHAL_VALUE(n), RVHAL_VALUE(chunk))
