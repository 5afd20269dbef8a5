/* The device global-memory allocator: manages [base, base+size) of device
 * addresses on the host (the device never allocates). First fit over an
 * address-ordered block list; freed neighbours coalesce. Every address it
 * returns is aligned to at least 16. Not thread-safe: the device serialises
 * calls. Host malloc failure gives RVHAL_HOST_IO and changes nothing. */
#ifndef RVHAL_HOST_ALLOCATOR_H
#define RVHAL_HOST_ALLOCATOR_H

#include "rvhal/hal_types.h"

typedef struct rvhal_allocator rvhal_allocator_t;

typedef struct rvhal_allocator_stats {
  hal_size_t total;         /* bytes managed */
  hal_size_t used;          /* bytes in live allocations (as requested) */
  hal_size_t free;          /* bytes not allocated (incl. alignment gaps; the up
                               to 15 bytes rounding each allocation to 16 count
                               as neither used nor free) */
  hal_size_t largest_free;  /* largest free block */
  uint64_t allocations;     /* live allocations */
} rvhal_allocator_stats_t;

/* base and size must be multiples of 16; size > 0; base + size must not
 * pass 2^64 (else RVHAL_INVALID_ARGUMENT). base should not be 0: address 0
 * means hal_nullptr. */
int rvhal_allocator_create(hal_addr_t base, hal_size_t size, rvhal_allocator_t **out_allocator);
void rvhal_allocator_destroy(rvhal_allocator_t *a);

/* size > 0; alignment a power of two (0 means 64). Fails with
 * RVHAL_NO_MEMORY naming the request, free bytes and the largest free block. */
int rvhal_allocator_alloc(rvhal_allocator_t *a, hal_size_t size, hal_size_t alignment, hal_addr_t *out_addr);
/* Colouring on: allocations of 256 KiB or more start at varying page
 * offsets so that buffers used together do not share entries of QEMU's
 * direct-mapped TLB (allocator.c says how). Off when created. */
void rvhal_allocator_set_colouring(rvhal_allocator_t *a, int on);
/* addr must be the start of a live allocation: else RVHAL_NOT_FOUND. */
int rvhal_allocator_free(rvhal_allocator_t *a, hal_addr_t addr);
/* The live allocation containing addr: RVHAL_NOT_FOUND if none. out_base
 * and out_size may be NULL. */
int rvhal_allocator_lookup(const rvhal_allocator_t *a, hal_addr_t addr, hal_addr_t *out_base, hal_size_t *out_size);
void rvhal_allocator_stats(const rvhal_allocator_t *a, rvhal_allocator_stats_t *out_stats);
/* fn on every live allocation in address order; stops at its first error. */
int rvhal_allocator_for_each(const rvhal_allocator_t *a, int (*fn)(void *user, hal_addr_t addr, hal_size_t size),
                             void *user);

#endif /* RVHAL_HOST_ALLOCATOR_H */
