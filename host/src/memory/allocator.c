/* Device global-memory allocator (see allocator.h). The block list lives in
 * host memory; device addresses are only numbers here, never dereferenced. */
#include "memory/allocator.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "base/internal.h"

/* Every block start and size stays a multiple of GRANULE, so alignments up to
 * GRANULE never need padding and a split never leaves a sliver. */
#define GRANULE 16
#define DEFAULT_ALIGNMENT 64

/* Colouring (rvhal_allocator_set_colouring). QEMU's software TLB is
 * direct-mapped: a page's entry is its page number modulo the TLB's size
 * (a power of two, at least 64 entries, 256 to start). Equal buffers placed
 * back to back start at page numbers equal modulo every power of two up to
 * their size, so a[i], b[i] and c[i] of one work-item evict each other on
 * every access. So an allocation of COLOUR_MIN or more starts at a chosen
 * page colour: page number modulo COLOURS = COLOUR_STEP times the number of
 * coloured allocations before it. COLOUR_STEP is odd, so 64 successive
 * large allocations all differ modulo 64, and so modulo any larger TLB.
 * Smaller allocations need none: back to back, they are fewer than COLOURS
 * pages apart. The padding stays free for later small allocations.
 * docs/performance.md, "What each speed measure buys", has the measurements. */
#define COLOUR_PAGE 4096u
#define COLOURS 64u
#define COLOUR_STEP 17u
#define COLOUR_MIN ((hal_size_t)COLOURS * COLOUR_PAGE)

typedef struct block {
  struct block *prev, *next;
  hal_addr_t start;     /* when used, the address handed out: padding is split off */
  hal_size_t size;      /* multiple of GRANULE */
  hal_size_t requested; /* when used: what lookups and stats report */
  bool used;
} block_t;

struct rvhal_allocator {
  hal_addr_t base;
  hal_size_t size;
  block_t *head; /* address-ordered, covers [base, base+size) without gaps */
  bool colouring;
  uint32_t colours_given; /* coloured allocations so far */
};

static block_t *new_block(hal_addr_t start, hal_size_t size) {
  block_t *b = calloc(1, sizeof *b);
  if (b) {
    b->start = start;
    b->size = size;
  }
  return b;
}

/* Insert n after prev (NULL: at the head). */
static void link_after(rvhal_allocator_t *a, block_t *prev, block_t *n) {
  n->prev = prev;
  n->next = prev ? prev->next : a->head;
  if (n->next) n->next->prev = n;
  if (prev)
    prev->next = n;
  else
    a->head = n;
}

static void unlink_and_free(rvhal_allocator_t *a, block_t *n) {
  if (n->prev)
    n->prev->next = n->next;
  else
    a->head = n->next;
  if (n->next) n->next->prev = n->prev;
  free(n);
}

/* The used block whose requested bytes contain addr, or NULL. */
static const block_t *find_used(const rvhal_allocator_t *a, hal_addr_t addr) {
  for (const block_t *b = a->head; b && b->start <= addr; b = b->next)
    if (b->used && addr - b->start < b->requested) return b;
  return NULL;
}

int rvhal_allocator_create(hal_addr_t base, hal_size_t size, rvhal_allocator_t **out_allocator) {
  if (!out_allocator) return rvhal_error(RVHAL_INVALID_ARGUMENT, "allocator: out_allocator is NULL");
  *out_allocator = NULL;
  if (size == 0 || base % GRANULE || size % GRANULE)
    return rvhal_error(RVHAL_INVALID_ARGUMENT,
                       "allocator: base 0x%" PRIx64 " and size %" PRIu64 " must be multiples of %d, size > 0", base,
                       size, GRANULE);
  if (size > UINT64_MAX - base)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "allocator: range 0x%" PRIx64 " + %" PRIu64 " wraps past 2^64", base,
                       size);
  rvhal_allocator_t *a = calloc(1, sizeof *a);
  block_t *all = new_block(base, size);
  if (!a || !all) {
    free(a);
    free(all);
    return rvhal_error(RVHAL_HOST_IO, "allocator: out of host memory");
  }
  a->base = base;
  a->size = size;
  a->head = all;
  *out_allocator = a;
  return RVHAL_OK;
}

void rvhal_allocator_destroy(rvhal_allocator_t *a) {
  if (!a) return;
  for (block_t *b = a->head, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  free(a);
}

/* Turn free block b into [b->start+pad, +need), splitting off the front
 * padding and the tail as free blocks. */
static int carve(rvhal_allocator_t *a, block_t *b, hal_size_t pad, hal_size_t need, hal_size_t requested,
                 hal_addr_t *out_addr) {
  hal_size_t tail = b->size - pad - need;
  /* Both nodes are obtained before touching the list, so a host malloc
   * failure leaves the allocator unchanged. */
  block_t *front = pad ? new_block(b->start, pad) : NULL;
  block_t *back = tail ? new_block(b->start + pad + need, tail) : NULL;
  if ((pad && !front) || (tail && !back)) {
    free(front);
    free(back);
    return rvhal_error(RVHAL_HOST_IO, "mem_alloc: out of host memory for the block list");
  }
  if (front) link_after(a, b->prev, front);
  if (back) link_after(a, b, back);
  b->start += pad;
  b->size = need;
  b->used = true;
  b->requested = requested;
  *out_addr = b->start;
  return RVHAL_OK;
}

int rvhal_allocator_alloc(rvhal_allocator_t *a, hal_size_t size, hal_size_t alignment, hal_addr_t *out_addr) {
  if (!a || !out_addr) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_alloc: allocator or out_addr is NULL");
  if (size == 0) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_alloc: size is 0");
  if (alignment == 0) alignment = DEFAULT_ALIGNMENT;
  if (!rvhal_is_pow2(alignment))
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_alloc: alignment %" PRIu64 " is not a power of two", alignment);
  hal_size_t align = alignment < GRANULE ? GRANULE : alignment;
  /* size <= a->size (itself a multiple of GRANULE) keeps the rounding from wrapping. */
  if (size <= a->size) {
    hal_size_t need = rvhal_align_up(size, GRANULE);
    if (a->colouring && size >= COLOUR_MIN && align <= COLOUR_PAGE) {
      const hal_addr_t window = (hal_addr_t)COLOURS * COLOUR_PAGE;
      const hal_addr_t want = (hal_addr_t)(a->colours_given * COLOUR_STEP % COLOURS) * COLOUR_PAGE;
      for (block_t *b = a->head; b; b = b->next) {
        if (b->used) continue;
        hal_size_t pad = (want - (b->start & (window - 1))) & (window - 1);
        if (pad <= b->size && b->size - pad >= need) {
          int rc = carve(a, b, pad, need, size, out_addr);
          if (rc == RVHAL_OK) a->colours_given++;
          return rc;
        }
      }
      /* No room at that colour: plain first fit below, never a failure. */
    }
    for (block_t *b = a->head; b; b = b->next) {
      if (b->used) continue;
      /* Compare distances, not end addresses: near the top of the address
       * space the aligned start (or its end) may not fit in 64 bits. */
      hal_size_t pad = (align - (b->start & (align - 1))) & (align - 1);
      if (pad <= b->size && b->size - pad >= need) return carve(a, b, pad, need, size, out_addr);
    }
  }
  rvhal_allocator_stats_t st;
  rvhal_allocator_stats(a, &st);
  return rvhal_error(RVHAL_NO_MEMORY,
                     "mem_alloc: cannot allocate %" PRIu64 " bytes (alignment %" PRIu64 "): %" PRIu64
                     " bytes free, largest free block %" PRIu64 " bytes",
                     size, alignment, st.free, st.largest_free);
}

void rvhal_allocator_set_colouring(rvhal_allocator_t *a, int on) {
  if (a) a->colouring = on != 0;
}

int rvhal_allocator_free(rvhal_allocator_t *a, hal_addr_t addr) {
  if (!a) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_free: allocator is NULL");
  block_t *b = a->head;
  while (b && b->start < addr) b = b->next;
  if (!b || b->start != addr || !b->used) {
    const block_t *in = find_used(a, addr);
    if (in)
      return rvhal_error(RVHAL_NOT_FOUND,
                         "mem_free: 0x%" PRIx64 " is inside the allocation at 0x%" PRIx64 " (size %" PRIu64
                         "), not its start",
                         addr, in->start, in->requested);
    return rvhal_error(RVHAL_NOT_FOUND, "mem_free: 0x%" PRIx64 " is not the start of an allocation", addr);
  }
  b->used = false;
  b->requested = 0;
  if (b->next && !b->next->used) {
    b->size += b->next->size;
    unlink_and_free(a, b->next);
  }
  if (b->prev && !b->prev->used) {
    b->prev->size += b->size;
    unlink_and_free(a, b);
  }
  return RVHAL_OK;
}

int rvhal_allocator_lookup(const rvhal_allocator_t *a, hal_addr_t addr, hal_addr_t *out_base, hal_size_t *out_size) {
  if (!a) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_lookup: allocator is NULL");
  const block_t *b = find_used(a, addr);
  if (!b) return rvhal_error(RVHAL_NOT_FOUND, "0x%" PRIx64 " is not inside any allocation", addr);
  if (out_base) *out_base = b->start;
  if (out_size) *out_size = b->requested;
  return RVHAL_OK;
}

void rvhal_allocator_stats(const rvhal_allocator_t *a, rvhal_allocator_stats_t *out_stats) {
  rvhal_allocator_stats_t st = {.total = a->size};
  for (const block_t *b = a->head; b; b = b->next) {
    if (b->used) {
      st.used += b->requested;
      st.allocations++;
    } else {
      st.free += b->size;
      if (b->size > st.largest_free) st.largest_free = b->size;
    }
  }
  *out_stats = st;
}

int rvhal_allocator_for_each(const rvhal_allocator_t *a, int (*fn)(void *user, hal_addr_t addr, hal_size_t size),
                             void *user) {
  for (const block_t *b = a->head; b; b = b->next)
    if (b->used) RVHAL_RETURN_IF_ERROR(fn(user, b->start, b->requested));
  return RVHAL_OK;
}
