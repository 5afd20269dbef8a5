/* concatenate_dma: dst = src1 followed by src2, moved with the DMA API as
 * clik's device_concatenate_dma does, through local memory. Each work-item
 * owns block_size elements of each input. Work-item 0 of a group starts two
 * transfers, its group's slices of both inputs into the local tiles, and
 * waits for the last (which waits for the earlier one too); after the
 * barrier every work-item starts two transfers from the tiles to dst and
 * waits. To show that the barrier makes work-item 0's transfers visible to
 * the whole group, item l moves the blocks of item (local size - 1 - l). */
#include "kernel_if.h"

__kernel void concatenate_dma(__global uint *src1, __global uint *src2, __global uint *dst, uint block_size,
                              __local uint *tile1, __local uint *tile2, exec_state_t *ctx) {
  size_t lid = get_local_id(0, ctx), lsize = get_local_size(0, ctx);
  size_t group_base = get_group_id(0, ctx) * lsize * block_size; /* the group's first element */
  size_t size = get_global_size(0, ctx) * block_size;             /* elements per input */

  if (lid == 0) {
    uintptr_t xfer1 = start_dma(tile1, &src1[group_base], lsize * block_size * sizeof(uint), ctx);
    uintptr_t xfer2 = start_dma(tile2, &src2[group_base], lsize * block_size * sizeof(uint), ctx);
    (void)xfer1;
    wait_dma(xfer2, ctx);
  }
  barrier(ctx);

  size_t m = lsize - 1 - lid;
  size_t offset = group_base + m * block_size;
  uintptr_t xfer1 = start_dma(&dst[offset], &tile1[m * block_size], block_size * sizeof(uint), ctx);
  uintptr_t xfer2 = start_dma(&dst[size + offset], &tile2[m * block_size], block_size * sizeof(uint), ctx);
  (void)xfer1;
  wait_dma(xfer2, ctx);
}

typedef struct {
  __global uint *src1;
  __global uint *src2;
  __global uint *dst;
  uint block_size;
  uintptr_t tile1_size; /* local buffers: packed as their size */
  uintptr_t tile2_size;
} concatenate_dma_args;

static void concatenate_dma_item(const concatenate_dma_args *a, exec_state_t *e) {
  concatenate_dma(a->src1, a->src2, a->dst, a->block_size, rvhal_local_arg(e, 0), rvhal_local_arg(e, 1), e);
}

RVHAL_KERNEL(concatenate_dma_entry, concatenate_dma_args, concatenate_dma_item, RVHAL_GLOBAL(src1), RVHAL_GLOBAL(src2), RVHAL_GLOBAL(dst), RVHAL_VALUE(block_size), RVHAL_LOCAL(tile1_size), RVHAL_LOCAL(tile2_size))
