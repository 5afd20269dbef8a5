/* The floor's parameters (floor.c), written by rvhal-bench peers
 * (bench_peers.c) into guest memory through QEMU's generic loader, one
 * 64-bit word each, before the harts start. */
#ifndef RVHAL_FLOOR_PARAMS_H
#define RVHAL_FLOOR_PARAMS_H

#include <stdint.h>

#define FLOOR_PARAMS_ADDR 0x80100000u /* above the floor's image, below rvhal's heap */
#define FLOOR_MAGIC 0x726f6f6c66ull   /* "floor" */

typedef struct floor_params {
  uint64_t magic;      /* FLOOR_MAGIC */
  uint64_t kernel;     /* PEER_* (peer_kernels.h) */
  uint64_t harts;      /* harts that take part, 1..FLOOR_MAX_HARTS */
  uint64_t rounds;     /* runs of the loop, the first ones warm-up; each between "S" and "E" */
  uint64_t in0, in1, out; /* buffer addresses: where rvhal put the same allocations */
  uint64_t tlb_log2;   /* grow each hart's TLB to 2^tlb_log2 entries first, as rvhal does (0: no) */
  uint64_t touch_base; /* global memory the TLB growth reads from */
} floor_params_t;

#define FLOOR_MAX_HARTS 8

#endif /* RVHAL_FLOOR_PARAMS_H */
