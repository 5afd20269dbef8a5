/* Buffer reads, writes, copies and fills, and their _rect forms. The plain
 * forms are rvhal queue commands; a _rect form is one host callback on the
 * queue that copies its rows in order with the device's memory calls. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"
#include "mem_coherence.h"

static cl_int check_queue_mem(const char *fn, cl_command_queue q, cl_mem m, const char *which) {
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p is not a queue", (void *)q);
  if (!RVCL_VALID(m, RVCL_MAGIC_MEM)) return rvcl_fail(q->context, fn, CL_INVALID_MEM_OBJECT, "%s %p is not a buffer", which, (void *)m);
  if (m->image) return rvcl_fail(q->context, fn, CL_INVALID_MEM_OBJECT, "%s %p is an image, not a buffer", which, (void *)m);
  if (m->context != q->context)
    return rvcl_fail(q->context, fn, CL_INVALID_CONTEXT, "%s belongs to another context than the queue", which);
  return CL_SUCCESS;
}

cl_int rvcl_mem_host_access(const char *fn, cl_mem m, cl_mem_flags denied, const char *what) {
  if (m->flags & denied)
    return rvcl_fail(m->context, fn, CL_INVALID_OPERATION, "the %s was made with flags 0x%llx: the host may not %s it",
                     m->image ? "image" : "buffer", (unsigned long long)m->flags, what);
  return CL_SUCCESS;
}
#define check_host_access rvcl_mem_host_access

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
                                                    size_t size, void *ptr, cl_uint n, const cl_event *list,
                                                    cl_event *out) {
  static const char *fn = "clEnqueueReadBuffer";
  cl_int err = check_queue_mem(fn, q, m, "buffer");
  if (err == CL_SUCCESS) err = rvcl_mem_range(fn, m, offset, size);
  if (err == CL_SUCCESS && (!ptr || size == 0))
    err = rvcl_fail(q->context, fn, CL_INVALID_VALUE, "ptr=%p size=%zu", ptr, size);
  if (err == CL_SUCCESS) err = check_host_access(fn, m, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, "read");
  hal_addr_t addr = 0;
  if (err == CL_SUCCESS) err = rvcl_mem_place(fn, q, m, 0, &addr);
  if (err != CL_SUCCESS) return err;
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) return werr;
  rvhal_event_t *ev = NULL;
  int st = rvhal_enqueue_read(q->q, &deps, ptr, addr + offset, size, (out || blocking) ? &ev : NULL);
  return rvcl_enqueue_done(q, fn, CL_COMMAND_READ_BUFFER, st, ev, blocking, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
                                                     size_t size, const void *ptr, cl_uint n, const cl_event *list,
                                                     cl_event *out) {
  static const char *fn = "clEnqueueWriteBuffer";
  cl_int err = check_queue_mem(fn, q, m, "buffer");
  if (err == CL_SUCCESS) err = rvcl_mem_range(fn, m, offset, size);
  if (err == CL_SUCCESS && (!ptr || size == 0))
    err = rvcl_fail(q->context, fn, CL_INVALID_VALUE, "ptr=%p size=%zu", ptr, size);
  if (err == CL_SUCCESS) err = check_host_access(fn, m, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, "write");
  hal_addr_t addr = 0;
  if (err == CL_SUCCESS) err = rvcl_mem_place(fn, q, m, 1, &addr);
  if (err != CL_SUCCESS) return err;
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) return werr;
  rvhal_event_t *ev = NULL;
  int st = rvhal_enqueue_write(q->q, &deps, addr + offset, ptr, size, (out || blocking) ? &ev : NULL);
  return rvcl_enqueue_done(q, fn, CL_COMMAND_WRITE_BUFFER, st, ev, blocking, out);
}

/* The same memory: a buffer and its sub-buffers share their root's. */
static cl_mem root(cl_mem m) { return m->parent ? m->parent : m; }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                                    size_t dst_offset, size_t size, cl_uint n, const cl_event *list,
                                                    cl_event *out) {
  static const char *fn = "clEnqueueCopyBuffer";
  cl_int err = check_queue_mem(fn, q, src, "src_buffer");
  if (err == CL_SUCCESS) err = check_queue_mem(fn, q, dst, "dst_buffer");
  if (err == CL_SUCCESS) err = rvcl_mem_range(fn, src, src_offset, size);
  if (err == CL_SUCCESS) err = rvcl_mem_range(fn, dst, dst_offset, size);
  if (err == CL_SUCCESS && size == 0) err = rvcl_fail(q->context, fn, CL_INVALID_VALUE, "size is 0");
  if (err != CL_SUCCESS) return err;
  if (root(src) == root(dst)) {
    size_t s = src->origin + src_offset, d = dst->origin + dst_offset;
    if (s < d + size && d < s + size)
      return rvcl_fail(q->context, fn, CL_MEM_COPY_OVERLAP, "source [%zu, +%zu) and destination [%zu, +%zu) overlap",
                       s, size, d, size);
  }
  hal_addr_t sa = 0, da = 0;
  if ((err = rvcl_mem_place(fn, q, src, 0, &sa)) != CL_SUCCESS) return err;
  if ((err = rvcl_mem_place(fn, q, dst, 1, &da)) != CL_SUCCESS) return err;
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) return werr;
  rvhal_event_t *ev = NULL;
  int st = rvhal_enqueue_copy(q->q, &deps, da + dst_offset, sa + src_offset, size, out ? &ev : NULL);
  return rvcl_enqueue_done(q, fn, CL_COMMAND_COPY_BUFFER, st, ev, CL_FALSE, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern,
                                                    size_t pattern_size, size_t offset, size_t size, cl_uint n,
                                                    const cl_event *list, cl_event *out) {
  static const char *fn = "clEnqueueFillBuffer";
  cl_int err = check_queue_mem(fn, q, m, "buffer");
  if (err == CL_SUCCESS) err = rvcl_mem_range(fn, m, offset, size);
  if (err != CL_SUCCESS) return err;
  if (!pattern || pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) ||
      offset % pattern_size || size % pattern_size)
    return rvcl_fail(q->context, fn, CL_INVALID_VALUE,
                     "pattern=%p pattern_size=%zu offset=%zu size=%zu (the pattern size is 1, 2, 4, ... or 128 and "
                     "divides offset and size)",
                     pattern, pattern_size, offset, size);
  hal_addr_t addr = 0;
  if ((err = rvcl_mem_place(fn, q, m, 1, &addr)) != CL_SUCCESS) return err;
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) return werr;
  rvhal_event_t *ev = NULL;
  int st = size ? rvhal_enqueue_fill(q->q, &deps, addr + offset, pattern, pattern_size, size, out ? &ev : NULL)
                : rvhal_enqueue_marker(q->q, &deps, out ? &ev : NULL);
  return rvcl_enqueue_done(q, fn, CL_COMMAND_FILL_BUFFER, st, ev, CL_FALSE, out);
}

/* ---- _rect ------------------------------------------------------------------ */

typedef struct rect_geom {
  size_t origin[3], row_pitch, slice_pitch;
} rect_geom_t;

typedef enum { RECT_READ, RECT_WRITE, RECT_COPY } rect_kind_t;

typedef struct rect_job {
  rect_kind_t kind;
  rvhal_device_t *rv;
  hal_addr_t buf, buf2;         /* buffer (read/write) or source and destination (copy) */
  char *host;                   /* read/write */
  rect_geom_t a, b;             /* buffer and host (read/write), source and destination (copy) */
  size_t region[3];
  void *owned;                  /* freed when done */
} rect_job_t;

static size_t at(const rect_geom_t *g, size_t y, size_t z) {
  return (g->origin[2] + z) * g->slice_pitch + (g->origin[1] + y) * g->row_pitch + g->origin[0];
}

static void run_rect(void *user, int status) {
  rect_job_t *j = user;
  for (size_t z = 0; status == RVHAL_OK && z < j->region[2]; z++)
    for (size_t y = 0; y < j->region[1]; y++) {
      size_t oa = at(&j->a, y, z), ob = at(&j->b, y, z);
      /* Every row was range-checked at enqueue. */
      if (j->kind == RECT_READ)
        rvhal_mem_read(j->rv, j->host + ob, j->buf + oa, j->region[0]);
      else if (j->kind == RECT_WRITE)
        rvhal_mem_write(j->rv, j->buf + oa, j->host + ob, j->region[0]);
      else
        rvhal_mem_copy(j->rv, j->buf2 + ob, j->buf + oa, j->region[0]);
    }
  free(j->owned);
  free(j);
}

/* Fills in default pitches and checks them (the spec's rules). */
static cl_int rect_pitches(const char *fn, cl_context c, const char *who, const size_t *region, size_t *row,
                           size_t *slice) {
  if (*row == 0) *row = region[0];
  if (*slice == 0) *slice = region[1] * *row;
  if (*row < region[0] || *slice < region[1] * *row || *slice % *row)
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "%s row pitch %zu / slice pitch %zu do not fit region {%zu, %zu, %zu}", who,
                     *row, *slice, region[0], region[1], region[2]);
  return CL_SUCCESS;
}

/* One past the last byte the region touches. */
static size_t rect_end(const rect_geom_t *g, const size_t *region) { return at(g, region[1] - 1, region[2] - 1) + region[0]; }

static cl_int enqueue_rect(const char *fn, cl_command_type type, cl_command_queue q, rect_job_t *j, cl_bool blocking,
                           cl_uint n, const cl_event *list, cl_event *out) {
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) {
    free(j->owned);
    free(j);
    return werr;
  }
  int st;
  j->rv = rvcl_device_rv(q->device, &st);
  rvhal_event_t *ev = NULL;
  st = rvhal_enqueue_callback(q->q, &deps, run_rect, j, (out || blocking) ? &ev : NULL);
  if (st != RVHAL_OK) free(j->owned), free(j);
  return rvcl_enqueue_done(q, fn, type, st, ev, blocking, out);
}

static cl_int rect_host_op(const char *fn, cl_command_type type, rect_kind_t kind, cl_command_queue q, cl_mem m,
                           cl_bool blocking, const size_t *buf_origin, const size_t *host_origin, const size_t *region,
                           size_t buf_row, size_t buf_slice, size_t host_row, size_t host_slice, void *ptr, cl_uint n,
                           const cl_event *list, cl_event *out) {
  cl_int err = check_queue_mem(fn, q, m, "buffer");
  if (err != CL_SUCCESS) return err;
  cl_context c = q->context;
  if (!buf_origin || !host_origin || !region || !ptr)
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "buffer_origin, host_origin, region and ptr must be given");
  if (!region[0] || !region[1] || !region[2])
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "region {%zu, %zu, %zu} has a 0", region[0], region[1], region[2]);
  if ((err = rect_pitches(fn, c, "buffer", region, &buf_row, &buf_slice)) != CL_SUCCESS) return err;
  if ((err = rect_pitches(fn, c, "host", region, &host_row, &host_slice)) != CL_SUCCESS) return err;
  err = check_host_access(fn, m,
                          kind == RECT_READ ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                                            : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                          kind == RECT_READ ? "read" : "write");
  if (err != CL_SUCCESS) return err;
  hal_addr_t addr = 0;
  if ((err = rvcl_mem_place(fn, q, m, kind != RECT_READ, &addr)) != CL_SUCCESS) return err;
  rect_job_t *j = calloc(1, sizeof *j);
  if (!j) return CL_OUT_OF_HOST_MEMORY;
  j->kind = kind;
  j->buf = addr;
  j->host = ptr;
  memcpy(j->a.origin, buf_origin, sizeof j->a.origin);
  j->a.row_pitch = buf_row;
  j->a.slice_pitch = buf_slice;
  memcpy(j->b.origin, host_origin, sizeof j->b.origin);
  j->b.row_pitch = host_row;
  j->b.slice_pitch = host_slice;
  memcpy(j->region, region, sizeof j->region);
  size_t end = rect_end(&j->a, region);
  if (end > m->size) {
    free(j);
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "the region reaches byte %zu of the %zu-byte buffer", end, m->size);
  }
  return enqueue_rect(fn, type, q, j, blocking, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                        const size_t *buf_origin, const size_t *host_origin,
                                                        const size_t *region, size_t buf_row, size_t buf_slice,
                                                        size_t host_row, size_t host_slice, void *ptr, cl_uint n,
                                                        const cl_event *list, cl_event *out) {
  return rect_host_op("clEnqueueReadBufferRect", CL_COMMAND_READ_BUFFER_RECT, RECT_READ, q, m, blocking, buf_origin,
                      host_origin, region, buf_row, buf_slice, host_row, host_slice, ptr, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                         const size_t *buf_origin, const size_t *host_origin,
                                                         const size_t *region, size_t buf_row, size_t buf_slice,
                                                         size_t host_row, size_t host_slice, const void *ptr, cl_uint n,
                                                         const cl_event *list, cl_event *out) {
  return rect_host_op("clEnqueueWriteBufferRect", CL_COMMAND_WRITE_BUFFER_RECT, RECT_WRITE, q, m, blocking, buf_origin,
                      host_origin, region, buf_row, buf_slice, host_row, host_slice, (void *)ptr, n, list, out);
}

/* Whether two rectangular regions of one buffer, with the same row and
 * slice pitches, whose first bytes are at byte offsets a and b and whose
 * byte spans overlap, share a byte: not when one's rows fit in the gaps
 * between the other's rows (x within a row), nor when one's slices fit in
 * the gaps between the other's slices. The test of the OpenCL
 * specification's appendix "Checking for memory copy overlap", which the
 * CTS applies too: still conservative in between. */
static int rect_regions_overlap(size_t a, size_t b, const size_t region[3], size_t row, size_t slice) {
  const size_t slice_bytes = (region[1] - 1) * row + region[0];
  const size_t ax = a % row, bx = b % row;
  if ((bx >= ax + region[0] && bx + region[0] <= ax + row) || (ax >= bx + region[0] && ax + region[0] <= bx + row))
    return 0;
  const size_t ay = a % slice, by = b % slice;
  if ((by >= ay + slice_bytes && by + slice_bytes <= ay + slice) ||
      (ay >= by + slice_bytes && ay + slice_bytes <= by + slice))
    return 0;
  return 1;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
                                                        const size_t *src_origin, const size_t *dst_origin,
                                                        const size_t *region, size_t src_row, size_t src_slice,
                                                        size_t dst_row, size_t dst_slice, cl_uint n,
                                                        const cl_event *list, cl_event *out) {
  static const char *fn = "clEnqueueCopyBufferRect";
  cl_int err = check_queue_mem(fn, q, src, "src_buffer");
  if (err == CL_SUCCESS) err = check_queue_mem(fn, q, dst, "dst_buffer");
  if (err != CL_SUCCESS) return err;
  cl_context c = q->context;
  if (!src_origin || !dst_origin || !region)
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "src_origin, dst_origin and region must be given");
  if (!region[0] || !region[1] || !region[2])
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "region {%zu, %zu, %zu} has a 0", region[0], region[1], region[2]);
  if ((err = rect_pitches(fn, c, "source", region, &src_row, &src_slice)) != CL_SUCCESS) return err;
  if ((err = rect_pitches(fn, c, "destination", region, &dst_row, &dst_slice)) != CL_SUCCESS) return err;
  if (src == dst && (src_row != dst_row || src_slice != dst_slice))
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "copying inside one buffer needs equal pitches");
  hal_addr_t sa = 0, da = 0;
  if ((err = rvcl_mem_place(fn, q, src, 0, &sa)) != CL_SUCCESS) return err;
  if ((err = rvcl_mem_place(fn, q, dst, 1, &da)) != CL_SUCCESS) return err;
  rect_job_t *j = calloc(1, sizeof *j);
  if (!j) return CL_OUT_OF_HOST_MEMORY;
  j->kind = RECT_COPY;
  j->buf = sa;
  j->buf2 = da;
  memcpy(j->a.origin, src_origin, sizeof j->a.origin);
  j->a.row_pitch = src_row;
  j->a.slice_pitch = src_slice;
  memcpy(j->b.origin, dst_origin, sizeof j->b.origin);
  j->b.row_pitch = dst_row;
  j->b.slice_pitch = dst_slice;
  memcpy(j->region, region, sizeof j->region);
  size_t se = rect_end(&j->a, region), de = rect_end(&j->b, region);
  if (se > src->size || de > dst->size) {
    free(j);
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "the region reaches byte %zu of the %zu-byte source or %zu of the %zu-byte destination",
                     se, src->size, de, dst->size);
  }
  if (root(src) == root(dst)) {
    /* Overlap of the two spans (first to last byte), in the root's bytes;
     * with equal pitches, the specification's finer test ("Checking for
     * memory copy overlap"): spans that interleave without touching are
     * no overlap. */
    size_t s0 = src->origin + at(&j->a, 0, 0), s1 = src->origin + se, d0 = dst->origin + at(&j->b, 0, 0),
           d1 = dst->origin + de;
    int same_pitches = src_row == dst_row && src_slice == dst_slice;
    if (s0 < d1 && d0 < s1 && (!same_pitches || rect_regions_overlap(s0, d0, region, src_row, src_slice))) {
      free(j);
      return rvcl_fail(c, fn, CL_MEM_COPY_OVERLAP, "source bytes [%zu, %zu) and destination bytes [%zu, %zu) overlap",
                       s0, s1, d0, d1);
    }
  }
  return enqueue_rect(fn, CL_COMMAND_COPY_BUFFER_RECT, q, j, CL_FALSE, n, list, out);
}

cl_int rvcl_enqueue_box(const char *fn, cl_command_type type, rvcl_box_kind_t kind, cl_command_queue q, cl_mem a,
                        const rvcl_box_t *ga, cl_mem b, void *ptr, const rvcl_box_t *gb, const size_t region[3],
                        void *owned, cl_bool blocking, cl_uint n, const cl_event *list, cl_event *out) {
  hal_addr_t aa = 0, ba = 0;
  cl_int err = rvcl_mem_place(fn, q, a, kind == RVCL_BOX_WRITE, &aa);
  if (err == CL_SUCCESS && b) err = rvcl_mem_place(fn, q, b, 1, &ba);
  rect_job_t *j = err == CL_SUCCESS ? calloc(1, sizeof *j) : NULL;
  if (!j) {
    free(owned);
    return err != CL_SUCCESS ? err : CL_OUT_OF_HOST_MEMORY;
  }
  j->kind = kind == RVCL_BOX_READ ? RECT_READ : kind == RVCL_BOX_WRITE ? RECT_WRITE : RECT_COPY;
  j->buf = aa;
  j->buf2 = ba;
  j->host = ptr;
  j->owned = owned;
  memcpy(j->a.origin, ga->origin, sizeof j->a.origin);
  j->a.row_pitch = ga->row_pitch;
  j->a.slice_pitch = ga->slice_pitch;
  memcpy(j->b.origin, gb->origin, sizeof j->b.origin);
  j->b.row_pitch = gb->row_pitch;
  j->b.slice_pitch = gb->slice_pitch;
  memcpy(j->region, region, sizeof j->region);
  return enqueue_rect(fn, type, q, j, blocking, n, list, out);
}
