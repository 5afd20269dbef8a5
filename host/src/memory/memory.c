/* Device memory: allocation through the host allocator, and copies through
 * the backend's host view of guest RAM (a mirror on a non-coherent
 * backend: flushed after writes, invalidated before reads). Every access is checked to stay inside
 * one live allocation, so a bad address can never reach the firmware,
 * programs or other buffers. These calls hold the device's heap lock, not
 * its launch lock: a copy runs while a kernel runs (queues overlap them). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory/memory.h"
#include "observe/observe.h"

struct rvhal_memory {
  rvhal_allocator_t *heap;
  /* The heap's lock: copies need only this, so they run while a launch
   * holds the device's lock (order: the device's lock, then this). */
  pthread_mutex_t lock;
};

int rvhal_memory_create(const rvhal_device_t *d, rvhal_memory_t **out_memory) {
  const rvhal_layout_t *l = rvhal_device_layout(d);
  rvhal_memory_t *m = calloc(1, sizeof *m);
  if (!m) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  pthread_mutex_init(&m->lock, NULL);
  int rc = rvhal_allocator_create(l->heap_base, l->heap_size, &m->heap);
  if (rc) {
    rvhal_memory_destroy(m);
    return rc;
  }
  rvhal_allocator_set_colouring(m->heap, !(rvhal_device_options(d)->tlb_care_off & RVHAL_TLB_NO_COLOURING));
  *out_memory = m;
  return RVHAL_OK;
}

void rvhal_memory_destroy(rvhal_memory_t *m) {
  if (!m) return;
  rvhal_allocator_destroy(m->heap);
  pthread_mutex_destroy(&m->lock);
  free(m);
}

/* The first line of every call that touches global memory: holds the heap's
 * lock until it returns (NULL devices pass through to the call's check). */
static pthread_mutex_t *guard_acquire(const rvhal_device_t *d) {
  if (!d) return NULL;
  rvhal_memory_t *m = rvhal_device_modules(d)->memory;
  pthread_mutex_lock(&m->lock);
  return &m->lock;
}
static void guard_release(pthread_mutex_t **lock) {
  if (*lock) pthread_mutex_unlock(*lock);
}
#define MEMORY_GUARD(d) \
  pthread_mutex_t *memory_guard_ __attribute__((cleanup(guard_release), unused)) = guard_acquire(d)

static rvhal_allocator_t *heap(const rvhal_device_t *d) { return rvhal_device_modules(d)->memory->heap; }

/* [addr, addr+size) inside one allocation: its host pointer. */
static int check_range(rvhal_device_t *d, const char *op, const char *what, hal_addr_t addr, hal_size_t size,
                       uint8_t **out) {
  hal_addr_t base;
  hal_size_t len;
  if (rvhal_allocator_lookup(heap(d), addr, &base, &len) != RVHAL_OK) {
    const rvhal_layout_t *l = rvhal_device_layout(d);
    if (!rvhal_range_inside(addr, 1, l->heap_base, l->heap_size))
      return rvhal_error(RVHAL_OUT_OF_RANGE, "%s: %s address 0x%llx is outside device global memory [0x%llx, 0x%llx)",
                         op, what, (unsigned long long)addr, (unsigned long long)l->heap_base,
                         (unsigned long long)(l->heap_base + l->heap_size));
    return rvhal_error(RVHAL_OUT_OF_RANGE, "%s: %s address 0x%llx is not inside any allocation", op, what,
                       (unsigned long long)addr);
  }
  if (size > len - (addr - base))
    return rvhal_error(RVHAL_OUT_OF_RANGE,
                       "%s: %s range [0x%llx, +%llu) runs past the end of its allocation at 0x%llx (size %llu)", op,
                       what, (unsigned long long)addr, (unsigned long long)size, (unsigned long long)base,
                       (unsigned long long)len);
  *out = rvhal_dev_ptr(d, addr);
  return RVHAL_OK;
}

int rvhal_mem_alloc(rvhal_device_t *d, hal_size_t size, hal_size_t alignment, hal_addr_t *out_addr) {
  MEMORY_GUARD(d);
  rvhal_clear_error();
  if (!d || !out_addr) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_alloc: NULL device or out_addr");
  *out_addr = hal_nullptr;
  return rvhal_allocator_alloc(heap(d), size, alignment, out_addr);
}

int rvhal_mem_free(rvhal_device_t *d, hal_addr_t addr) {
  MEMORY_GUARD(d);
  rvhal_clear_error();
  if (!d) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_free: NULL device");
  if (addr == hal_nullptr) return RVHAL_OK; /* like free(NULL): clean-up paths need no guard */
  return rvhal_allocator_free(heap(d), addr); /* its messages say mem_free */
}

int rvhal_mem_write(rvhal_device_t *d, hal_addr_t dst, const void *src, hal_size_t size) {
  MEMORY_GUARD(d);
  RVHAL_OBSERVE_CALL(d, "mem_write", size);
  if (!d || (!src && size)) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_write: NULL device or source");
  if (!size) return RVHAL_OK;
  uint8_t *p;
  RVHAL_RETURN_IF_ERROR(check_range(d, "mem_write", "destination", dst, size, &p));
  memcpy(p, src, size);
  RVHAL_RETURN_IF_ERROR(rvhal_dev_flush(d, dst, size));
  rvhal_observe_transfer(d, size, 0);
  return RVHAL_OK;
}

int rvhal_mem_read(rvhal_device_t *d, void *dst, hal_addr_t src, hal_size_t size) {
  MEMORY_GUARD(d);
  RVHAL_OBSERVE_CALL(d, "mem_read", size);
  if (!d || (!dst && size)) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_read: NULL device or destination");
  if (!size) return RVHAL_OK;
  uint8_t *p;
  RVHAL_RETURN_IF_ERROR(check_range(d, "mem_read", "source", src, size, &p));
  RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate(d, src, size));
  memcpy(dst, p, size);
  rvhal_observe_transfer(d, 0, size);
  return RVHAL_OK;
}

int rvhal_mem_copy(rvhal_device_t *d, hal_addr_t dst, hal_addr_t src, hal_size_t size) {
  MEMORY_GUARD(d);
  RVHAL_OBSERVE_CALL(d, "mem_copy", size);
  rvhal_clear_error();
  if (!d) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_copy: NULL device");
  if (!size) return RVHAL_OK;
  uint8_t *pd, *ps;
  RVHAL_RETURN_IF_ERROR(check_range(d, "mem_copy", "destination", dst, size, &pd));
  RVHAL_RETURN_IF_ERROR(check_range(d, "mem_copy", "source", src, size, &ps));
  RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate(d, src, size));
  memmove(pd, ps, size);
  return rvhal_dev_flush(d, dst, size);
}

int rvhal_check_fill_pattern(const char *what, const void *pattern, uint64_t pattern_size) {
  if (!pattern) return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: NULL pattern", what);
  if (pattern_size == 0 || pattern_size > RVHAL_FILL_PATTERN_MAX)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: pattern of %llu bytes: the pattern size must be 1 to %d bytes",
                       what, (unsigned long long)pattern_size, RVHAL_FILL_PATTERN_MAX);
  return RVHAL_OK;
}

int rvhal_mem_fill(rvhal_device_t *d, hal_addr_t dst, const void *pattern, hal_size_t pattern_size, hal_size_t size) {
  MEMORY_GUARD(d);
  RVHAL_OBSERVE_CALL(d, "mem_fill", size);
  rvhal_clear_error();
  if (!d) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_fill: NULL device");
  RVHAL_RETURN_IF_ERROR(rvhal_check_fill_pattern("mem_fill", pattern, pattern_size));
  if (size % pattern_size)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_fill: size %llu is not a multiple of the pattern size %llu",
                       (unsigned long long)size, (unsigned long long)pattern_size);
  if (!size) return RVHAL_OK;
  uint8_t *p;
  RVHAL_RETURN_IF_ERROR(check_range(d, "mem_fill", "destination", dst, size, &p));
  rvhal_observe_transfer(d, size, 0);
  if (pattern_size == 1) {
    memset(p, *(const uint8_t *)pattern, size);
    return rvhal_dev_flush(d, dst, size);
  }
  /* Write the pattern once, then double the filled prefix. */
  memcpy(p, pattern, pattern_size);
  hal_size_t filled = pattern_size;
  while (filled < size) {
    hal_size_t n = filled < size - filled ? filled : size - filled;
    memcpy(p + filled, p, n);
    filled += n;
  }
  return rvhal_dev_flush(d, dst, size);
}

int rvhal_mem_map(rvhal_device_t *d, hal_addr_t addr, hal_size_t size, void **out_ptr) {
  MEMORY_GUARD(d);
  rvhal_clear_error();
  if (!d || !out_ptr) return rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_map: NULL device or out_ptr");
  uint8_t *p;
  RVHAL_RETURN_IF_ERROR(check_range(d, "mem_map", "", addr, size ? size : 1, &p));
  if (!rvhal_dev_coherent(d))
    return rvhal_error(RVHAL_UNSUPPORTED, "mem_map: the device's backend cannot map its memory (RVHAL_BACKEND=gdb: "
                       "use mem_read and mem_write)");
  *out_ptr = p;
  return RVHAL_OK;
}

int rvhal_mem_check(rvhal_device_t *d, const char *op, const char *what, hal_addr_t addr, hal_size_t size) {
  MEMORY_GUARD(d);
  uint8_t *p;
  return check_range(d, op, what, addr, size, &p);
}

int rvhal_memory_lookup(const rvhal_device_t *d, hal_addr_t addr, hal_size_t *out_size) {
  MEMORY_GUARD(d);
  return rvhal_allocator_lookup(heap(d), addr, NULL, out_size);
}

static int read_back(void *d, hal_addr_t addr, hal_size_t size) { return rvhal_dev_invalidate(d, addr, size); }

void rvhal_memory_read_back(const rvhal_device_t *d) {
  if (rvhal_dev_coherent(d)) return;
  MEMORY_GUARD(d);
  if (rvhal_allocator_for_each(heap(d), read_back, (void *)d)) rvhal_clear_error();
}
