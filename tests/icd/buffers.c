/* OpenCL buffers on an rvhal device: every host-pointer flag, the error
 * codes of bad creations, reads, writes, copies and fills, their _rect
 * forms against a host model, map/unmap (zero-copy and CL_MEM_USE_HOST_PTR),
 * sub-buffers, host-access flags, reference counts and destructor callbacks;
 * a buffer of 128 MiB and more (the full profile's CL_DEVICE_MAX_MEM_ALLOC_SIZE),
 * and the sizes $RVHAL_RAM_MIB gives. */
#include <stdint.h>

#include "cl_test.h"

static uint32_t pattern(size_t i, uint32_t seed) { return (uint32_t)(i * 2654435761u) ^ seed; }

static void bad_creations(cl_test_env_t *env) {
  cl_int err;
  char host[64];
  cl_ulong max_alloc = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL);
  CHECK(clCreateBuffer(env->context, 0, 0, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK(clCreateBuffer(env->context, 0, (size_t)max_alloc + 1, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_BUFFER_SIZE);
  CHECK_MSG(strstr(cl_test_last_msg, "CL_INVALID_BUFFER_SIZE") != NULL, "message: %s", cl_test_last_msg);
  CHECK(clCreateBuffer(env->context, CL_MEM_USE_HOST_PTR, 64, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(env->context, CL_MEM_READ_WRITE, 64, host, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_HOST_PTR);
  CHECK(clCreateBuffer(env->context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateBuffer(env->context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateBuffer(env->context, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateBuffer(NULL, 0, 64, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_CONTEXT);
}

static void read_write_copy_fill(cl_test_env_t *env, cl_command_queue q) {
  enum { N = 4096 };
  uint32_t *a = malloc(N * 4), *b = malloc(N * 4), *model = malloc(N * 4);
  for (size_t i = 0; i < N; i++) a[i] = pattern(i, 1);
  cl_int err;
  cl_mem src = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, N * 4, a, &err);
  CHECK_CL(err);
  cl_mem dst = clCreateBuffer(env->context, CL_MEM_ALLOC_HOST_PTR, N * 4, NULL, &err);
  CHECK_CL(err);
  /* COPY_HOST_PTR copied at creation: the host array may change now. */
  memset(a, 0, N * 4);
  CHECK_CL(clEnqueueReadBuffer(q, src, CL_TRUE, 0, N * 4, b, 0, NULL, NULL));
  int bad = 0;
  for (size_t i = 0; i < N; i++) bad += b[i] != pattern(i, 1);
  CHECK_MSG(bad == 0, "%d words differ after CL_MEM_COPY_HOST_PTR", bad);

  /* fill dst with a 16-byte pattern, copy part of src over it, write a word */
  uint32_t pat[4] = {0x11111111, 0x22222222, 0x33333333, 0x44444444};
  CHECK_CL(clEnqueueFillBuffer(q, dst, pat, sizeof pat, 0, N * 4, 0, NULL, NULL));
  for (size_t i = 0; i < N; i++) model[i] = pat[i % 4];
  CHECK_CL(clEnqueueCopyBuffer(q, src, dst, 256, 1024, 2048, 0, NULL, NULL));
  for (size_t i = 0; i < 512; i++) model[256 + i] = pattern(64 + i, 1);
  uint32_t word = 0xdeadbeef;
  CHECK_CL(clEnqueueWriteBuffer(q, dst, CL_FALSE, 8 * 4, 4, &word, 0, NULL, NULL));
  model[8] = word;
  uint16_t half = 0xabcd;
  CHECK_CL(clEnqueueFillBuffer(q, dst, &half, 2, (N - 8) * 4, 32, 0, NULL, NULL));
  for (size_t i = N - 8; i < N; i++) model[i] = 0xabcdabcd;
  CHECK_CL(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, N * 4, b, 0, NULL, NULL));
  bad = 0;
  for (size_t i = 0; i < N; i++) bad += b[i] != model[i];
  CHECK_MSG(bad == 0, "%d words differ after fill/copy/write", bad);

  /* the spec's error codes */
  CHECK_CL_ERR(clEnqueueReadBuffer(q, dst, CL_TRUE, N * 4 - 4, 8, b, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_MSG(strstr(cl_test_last_msg, "outside") != NULL, "message: %s", cl_test_last_msg);
  CHECK_CL_ERR(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL_ERR(clEnqueueCopyBuffer(q, dst, dst, 0, 64, 128, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_CL_ERR(clEnqueueFillBuffer(q, dst, pat, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL_ERR(clEnqueueFillBuffer(q, dst, pat, 4, 2, 8, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL_ERR(clEnqueueReadBuffer(q, (cl_mem)q, CL_TRUE, 0, 4, b, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  cl_event none = NULL;
  CHECK_CL_ERR(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, 4, b, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  CHECK_CL_ERR(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, 4, b, 1, &none, NULL), CL_INVALID_EVENT_WAIT_LIST);

  /* host access flags */
  cl_mem hidden = clCreateBuffer(env->context, CL_MEM_HOST_NO_ACCESS, 64, NULL, &err);
  CHECK_CL(err);
  CHECK_CL_ERR(clEnqueueReadBuffer(q, hidden, CL_TRUE, 0, 4, b, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_CL_ERR(clEnqueueWriteBuffer(q, hidden, CL_TRUE, 0, 4, b, 0, NULL, NULL), CL_INVALID_OPERATION);
  cl_mem ro = clCreateBuffer(env->context, CL_MEM_HOST_READ_ONLY, 64, NULL, &err);
  CHECK_CL(err);
  CHECK_CL_ERR(clEnqueueWriteBuffer(q, ro, CL_TRUE, 0, 4, b, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK_CL(clEnqueueReadBuffer(q, ro, CL_TRUE, 0, 4, b, 0, NULL, NULL));
  clReleaseMemObject(hidden);
  clReleaseMemObject(ro);
  clReleaseMemObject(src);
  clReleaseMemObject(dst);
  free(a), free(b), free(model);
}

/* Byte offset of (x, y, z) with the given pitches. */
static size_t off3(const size_t *o, size_t x, size_t y, size_t z, size_t row, size_t slice) {
  return (o[2] + z) * slice + (o[1] + y) * row + o[0] + x;
}

static void rects(cl_test_env_t *env, cl_command_queue q) {
  /* A 40x12x5-byte box in a buffer seen as rows of 64, slices of 64*16. */
  const size_t row = 64, slice = 64 * 16, size = slice * 8;
  const size_t region[3] = {40, 12, 5}, buf_origin[3] = {7, 3, 2}, host_origin[3] = {1, 2, 1};
  const size_t hrow = 48, hslice = 48 * 16;
  unsigned char *host = malloc(hslice * 8), *model = calloc(1, size), *back = malloc(size);
  for (size_t i = 0; i < hslice * 8; i++) host[i] = (unsigned char)pattern(i, 7);
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, size, NULL, &err);
  CHECK_CL(err);
  unsigned char zero = 0;
  CHECK_CL(clEnqueueFillBuffer(q, m, &zero, 1, 0, size, 0, NULL, NULL));
  CHECK_CL(clEnqueueWriteBufferRect(q, m, CL_FALSE, buf_origin, host_origin, region, row, slice, hrow, hslice, host, 0,
                                    NULL, NULL));
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      for (size_t x = 0; x < region[0]; x++)
        model[off3(buf_origin, x, y, z, row, slice)] = host[off3(host_origin, x, y, z, hrow, hslice)];
  /* copy the box elsewhere in the same buffer (no overlap) */
  const size_t dst_origin[3] = {10, 0, 7 - 0};
  const size_t small[3] = {40, 12, 1};
  CHECK_CL(clEnqueueCopyBufferRect(q, m, m, buf_origin, dst_origin, small, row, slice, row, slice, 0, NULL, NULL));
  for (size_t y = 0; y < small[1]; y++)
    for (size_t x = 0; x < small[0]; x++)
      model[off3(dst_origin, x, y, 0, row, slice)] = model[off3(buf_origin, x, y, 0, row, slice)];
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, back, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < size; i++) bad += back[i] != model[i];
  CHECK_MSG(bad == 0, "%zu bytes differ from the model after write/copy rect", bad);
  /* read the box back with tight host pitches (0: the region's) */
  unsigned char *box = malloc(region[0] * region[1] * region[2]);
  const size_t zero3[3] = {0, 0, 0};
  CHECK_CL(clEnqueueReadBufferRect(q, m, CL_TRUE, buf_origin, zero3, region, row, slice, 0, 0, box, 0, NULL, NULL));
  bad = 0;
  for (size_t z = 0; z < region[2]; z++)
    for (size_t y = 0; y < region[1]; y++)
      for (size_t x = 0; x < region[0]; x++)
        bad += box[(z * region[1] + y) * region[0] + x] != model[off3(buf_origin, x, y, z, row, slice)];
  CHECK_MSG(bad == 0, "%zu bytes differ in the read rect", bad);
  /* side by side in the same rows: the byte spans overlap, the regions do
   * not (the specification's overlap test), so the copy runs */
  const size_t left[3] = {0, 3, 2}, right[3] = {40, 3, 2}, cols[3] = {20, 12, 2};
  CHECK_CL(clEnqueueCopyBufferRect(q, m, m, left, right, cols, row, slice, row, slice, 0, NULL, NULL));
  for (size_t z = 0; z < cols[2]; z++)
    for (size_t y = 0; y < cols[1]; y++)
      for (size_t x = 0; x < cols[0]; x++)
        model[off3(right, x, y, z, row, slice)] = model[off3(left, x, y, z, row, slice)];
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, size, back, 0, NULL, NULL));
  bad = 0;
  for (size_t i = 0; i < size; i++) bad += back[i] != model[i];
  CHECK_MSG(bad == 0, "%zu bytes differ from the model after a side-by-side copy rect", bad);
  /* errors: the region past the end, bad pitch, overlapping copy */
  const size_t far[3] = {0, 0, 7};
  CHECK_CL_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, far, zero3, region, row, slice, 0, 0, box, 0, NULL, NULL),
               CL_INVALID_VALUE);
  CHECK_CL_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, zero3, zero3, region, 16, slice, 0, 0, box, 0, NULL, NULL),
               CL_INVALID_VALUE);
  const size_t near[3] = {8, 3, 2};
  CHECK_CL_ERR(clEnqueueCopyBufferRect(q, m, m, buf_origin, near, small, row, slice, row, slice, 0, NULL, NULL),
               CL_MEM_COPY_OVERLAP);
  /* x 0 -> 50, 20 bytes a row: the destination's rows run past the row's
   * end into the next row's first bytes, which the source reads */
  const size_t x0[3] = {0, 0, 0}, x50[3] = {50, 0, 0}, rows4[3] = {20, 4, 1};
  CHECK_CL_ERR(clEnqueueCopyBufferRect(q, m, m, x0, x50, rows4, row, slice, row, slice, 0, NULL, NULL),
               CL_MEM_COPY_OVERLAP);
  CHECK_CL_ERR(clEnqueueCopyBufferRect(q, m, m, x50, x0, rows4, row, slice, row, slice, 0, NULL, NULL),
               CL_MEM_COPY_OVERLAP);
  clReleaseMemObject(m);
  free(host), free(model), free(back), free(box);
}

static void maps(cl_test_env_t *env, cl_command_queue q) {
  enum { N = 1024 };
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, N * 4, NULL, &err);
  CHECK_CL(err);
  uint32_t *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, N * 4, 0, NULL, NULL, &err);
  CHECK_CL(err);
  cl_uint count = 0;
  clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL);
  CHECK_EQ_U64(count, 1);
  if (p)
    for (size_t i = 0; i < N; i++) p[i] = pattern(i, 3);
  CHECK_CL(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  CHECK_CL_ERR(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
  uint32_t *back = malloc(N * 4);
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, N * 4, back, 0, NULL, NULL));
  int bad = 0;
  for (size_t i = 0; i < N; i++) bad += back[i] != pattern(i, 3);
  CHECK_MSG(bad == 0, "%d words differ after a mapped write", bad);
  /* read map of a window sees the data */
  uint32_t *w = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ, 400, 64, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(w && w[0] == pattern(100, 3) && w[15] == pattern(115, 3));
  CHECK_CL(clEnqueueUnmapMemObject(q, m, w, 0, NULL, NULL));

  /* CL_MEM_USE_HOST_PTR: the map is the host pointer itself, up to date */
  uint32_t *host = malloc(N * 4);
  for (size_t i = 0; i < N; i++) host[i] = 0;
  cl_mem u = clCreateBuffer(env->context, CL_MEM_USE_HOST_PTR, N * 4, host, &err);
  CHECK_CL(err);
  void *hp = NULL;
  clGetMemObjectInfo(u, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
  CHECK(hp == host);
  CHECK_CL(clEnqueueCopyBuffer(q, m, u, 0, 0, N * 4, 0, NULL, NULL));
  uint32_t *up = clEnqueueMapBuffer(q, u, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 128, 256, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(up == host + 32);
  CHECK(host[32] == pattern(32, 3) && host[95] == pattern(95, 3));
  if (up) up[0] = 0x5a5a5a5a;
  CHECK_CL(clEnqueueUnmapMemObject(q, u, up, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, u, CL_TRUE, 128, 4, back, 0, NULL, NULL));
  CHECK_EQ_U64(back[0], 0x5a5a5a5a);
  /* map flags against host access */
  cl_mem wo = clCreateBuffer(env->context, CL_MEM_HOST_WRITE_ONLY, 64, NULL, &err);
  CHECK(clEnqueueMapBuffer(q, wo, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_OPERATION);
  CHECK(clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, NULL, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_VALUE);
  clReleaseMemObject(wo);
  clReleaseMemObject(u);
  clReleaseMemObject(m);
  free(host), free(back);
}

static int destructor_order[4], destructor_calls;
static void CL_CALLBACK on_destroy(cl_mem m, void *user) {
  (void)m;
  if (destructor_calls < 4) destructor_order[destructor_calls] = (int)(intptr_t)user;
  destructor_calls++;
}

static void sub_buffers(cl_test_env_t *env, cl_command_queue q) {
  cl_uint align_bits = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  size_t align = align_bits / 8;
  CHECK(align >= 4);
  size_t size = align * 8;
  cl_int err;
  cl_mem parent = clCreateBuffer(env->context, CL_MEM_READ_WRITE, size, NULL, &err);
  CHECK_CL(err);
  cl_buffer_region r = {align * 2, align * 3};
  cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(err);
  CHECK_EQ_U64(cl_test_refcount_mem(parent), 2); /* the sub-buffer holds its parent */
  cl_mem assoc = NULL;
  size_t offset = 0;
  clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
  clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, NULL);
  CHECK(assoc == parent);
  CHECK_EQ_U64(offset, align * 2);
  unsigned char zero = 0, ff = 0xff;
  CHECK_CL(clEnqueueFillBuffer(q, parent, &zero, 1, 0, size, 0, NULL, NULL));
  CHECK_CL(clEnqueueFillBuffer(q, sub, &ff, 1, 0, align * 3, 0, NULL, NULL));
  unsigned char *back = malloc(size);
  CHECK_CL(clEnqueueReadBuffer(q, parent, CL_TRUE, 0, size, back, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < size; i++) bad += back[i] != ((i >= align * 2 && i < align * 5) ? 0xff : 0);
  CHECK_MSG(bad == 0, "%zu bytes wrong: a sub-buffer fill must land at its origin only", bad);
  /* errors */
  cl_buffer_region mis = {align / 2, align};
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &mis, &err) == NULL);
  CHECK_CL_ERR(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  cl_buffer_region past = {align * 6, align * 3};
  CHECK(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &past, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_MEM_OBJECT);
  cl_mem ro_parent = clCreateBuffer(env->context, CL_MEM_READ_ONLY, size, NULL, &err);
  cl_buffer_region first = {0, align};
  CHECK(clCreateSubBuffer(ro_parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &first, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_VALUE);
  clReleaseMemObject(ro_parent);
  /* reference counts and destructor callbacks (reverse registration order) */
  CHECK_CL(clRetainMemObject(sub));
  CHECK_EQ_U64(cl_test_refcount_mem(sub), 2);
  CHECK_CL(clSetMemObjectDestructorCallback(sub, on_destroy, (void *)1));
  CHECK_CL(clSetMemObjectDestructorCallback(sub, on_destroy, (void *)2));
  CHECK_CL(clReleaseMemObject(sub));
  CHECK_EQ_U64(destructor_calls, 0);
  CHECK_CL(clReleaseMemObject(sub));
  CHECK_EQ_U64(destructor_calls, 2);
  CHECK(destructor_order[0] == 2 && destructor_order[1] == 1);
  CHECK_EQ_U64(cl_test_refcount_mem(parent), 1);
  CHECK_CL(clReleaseMemObject(parent));
  free(back);
}

/* The full profile's allocation minimum (OpenCL 1.2's, which 3.0's
 * max(min(1 GiB, global / 4), 32 MiB) never exceeds): max(128 MiB, global /
 * 4); a buffer above 128 MiB that is not a power of two, written and read
 * back whole, a fill at its end. With $RVHAL_RAM_MIB the device has that
 * RAM: global memory is most of it. */
static void big_buffer(cl_test_env_t *env, cl_command_queue q) {
  cl_ulong max_alloc = 0, global = 0;
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL));
  const cl_ulong mib = 1 << 20;
  CHECK_MSG(max_alloc >= 128 * mib && max_alloc >= global / 4 && max_alloc <= global,
            "CL_DEVICE_MAX_MEM_ALLOC_SIZE %llu, CL_DEVICE_GLOBAL_MEM_SIZE %llu", (unsigned long long)max_alloc,
            (unsigned long long)global);
  const char *ram = getenv("RVHAL_RAM_MIB");
  if (ram && *ram) {
    const cl_ulong r = strtoull(ram, NULL, 10) * mib;
    CHECK_MSG(global < r && global > r / 2, "RVHAL_RAM_MIB=%s: global memory %llu MiB", ram,
              (unsigned long long)(global / mib));
  }
  const size_t n = 136 * mib + 4096, words = n / 4;
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, CL_MEM_READ_WRITE, n, NULL, &err);
  CHECK_CL(err);
  uint32_t *h = malloc(n), *back = malloc(n);
  for (size_t i = 0; i < words; i++) h[i] = pattern(i, 0xb16b00b5u);
  CHECK_CL(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, n, h, 0, NULL, NULL));
  memset(back, 0, n);
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n, back, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < words; i++) bad += back[i] != h[i];
  CHECK_MSG(bad == 0, "a %zu-byte buffer: %zu words read back wrong", n, bad);
  const uint32_t fill = 0x5a5a1234u;
  CHECK_CL(clEnqueueFillBuffer(q, m, &fill, 4, n - 8192, 8192, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, m, CL_TRUE, n - 12288, 12288, back, 0, NULL, NULL));
  for (size_t i = 0; i < 3072; i++) bad += back[i] != (i < 1024 ? h[words - 3072 + i] : fill);
  CHECK_MSG(bad == 0, "a fill at the end of a %zu-byte buffer: %zu words wrong", n, bad);
  printf("  a %zu MiB buffer round trip (max alloc %llu MiB, global %llu MiB)\n", n / mib,
         (unsigned long long)(max_alloc / mib), (unsigned long long)(global / mib));
  free(h);
  free(back);
  CHECK_CL(clReleaseMemObject(m));
}

/* The same device listed twice is one (duplicates are ignored, as the
 * specification says; contexts of several devices: icd.multi_device). */
static void one_device_contexts(cl_test_env_t *env) {
  cl_int err = 0;
  cl_device_id same[2] = {env->device, env->device};
  cl_context c = clCreateContext(NULL, 2, same, NULL, NULL, &err);
  CHECK_CL(err);
  cl_uint nd = 0;
  if (c) CHECK_CL(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof nd, &nd, NULL));
  CHECK_EQ_U64(nd, 1);
  if (c) clReleaseContext(c);
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env) != 0) return 1;
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  CHECK_CL(err);
  bad_creations(&env);
  one_device_contexts(&env);
  read_write_copy_fill(&env, q);
  rects(&env, q);
  maps(&env, q);
  sub_buffers(&env, q);
  big_buffer(&env, q);
  CHECK_CL(clFinish(q));
  CHECK_CL(clReleaseCommandQueue(q));
  CHECK_CL(clReleaseContext(env.context));
  return check_result("icd.buffers");
}
