/* Images and samplers (host/opencl/image.c, sampler.c, the built-ins'
 * image.cl): the device's image queries; every listed format written,
 * copied by a kernel with read_image* / write_image* and read back byte for
 * byte; every sampler (normalized or not, each address mode, nearest and
 * linear) against a host reference of the spec's formulas and against
 * values worked out by hand; 1D, 3D and array images; 1D buffer images
 * (the buffer's bytes, through kernels and host commands); read_write
 * images (a work-item reads, writes and reads back its own pixel); copies,
 * fills and maps of regions (a CL_MEM_USE_HOST_PTR image's at host_ptr);
 * the error codes of bad input. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clCreateImage2D, tested too */
#include <math.h>

#include "cl_test.h"

static cl_program build(cl_test_env_t *env, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_CL(err);
  cl_int b = clBuildProgram(p, 1, &env->device, "", NULL, NULL);
  if (b != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed: %s\n", log);
  }
  CHECK_CL(b);
  return p;
}

static cl_mem image2d(cl_test_env_t *env, cl_channel_order o, cl_channel_type t, size_t w, size_t h, cl_int *err) {
  cl_image_format f = {o, t};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h};
  return clCreateImage(env->context, CL_MEM_READ_WRITE, &f, &d, NULL, err);
}

/* ---- queries ------------------------------------------------------------ */

static void queries(cl_test_env_t *env) {
  cl_bool support = CL_FALSE;
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL));
  CHECK(support == CL_TRUE);
  size_t w2 = 0, h2 = 0, w3 = 0, arr = 0;
  cl_uint reads = 0, writes = 0, samplers = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof w2, &w2, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof h2, &h2, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof w3, &w3, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof arr, &arr, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof reads, &reads, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof writes, &writes, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_SAMPLERS, sizeof samplers, &samplers, NULL);
  /* OpenCL 1.2 full profile minimums */
  CHECK_MSG(w2 >= 8192 && h2 >= 8192 && w3 >= 2048 && arr >= 2048, "2D %zu x %zu, 3D %zu, layers %zu", w2, h2, w3, arr);
  CHECK_MSG(reads >= 128 && writes >= 8 && samplers >= 16, "%u reads, %u writes, %u samplers", reads, writes, samplers);
  /* one past the limit is refused with the size error */
  cl_int err;
  cl_mem big = image2d(env, CL_R, CL_UNORM_INT8, w2 + 1, 1, &err);
  CHECK(big == NULL && err == CL_INVALID_IMAGE_SIZE);

  char features[2048] = "";
  cl_name_version nv[32];
  size_t got = 0;
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_OPENCL_C_FEATURES, sizeof nv, nv, &got));
  for (size_t i = 0; i < got / sizeof nv[0]; i++) strcat(strcat(features, nv[i].name), " ");
  CHECK_MSG(strstr(features, "__opencl_c_images ") && strstr(features, "__opencl_c_3d_image_writes ") &&
                strstr(features, "__opencl_c_read_write_images "),
            "features: %s", features);
  cl_uint rw_args = 0;
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof rw_args, &rw_args, NULL));
  CHECK_MSG(rw_args >= 64, "%u read_write image arguments", rw_args); /* OpenCL 3.0's minimum with the feature */

  /* the required formats are listed, and the same for 1D buffer images */
  static const cl_image_format need[] = {
      {CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_SIGNED_INT8}, {CL_RGBA, CL_SIGNED_INT16},
      {CL_RGBA, CL_SIGNED_INT32}, {CL_RGBA, CL_UNSIGNED_INT8}, {CL_RGBA, CL_UNSIGNED_INT16},
      {CL_RGBA, CL_UNSIGNED_INT32}, {CL_RGBA, CL_HALF_FLOAT}, {CL_RGBA, CL_FLOAT}, {CL_BGRA, CL_UNORM_INT8},
      {CL_R, CL_UNORM_INT8}, {CL_R, CL_UNSIGNED_INT32}, {CL_R, CL_SIGNED_INT32}, {CL_R, CL_FLOAT}, {CL_R, CL_HALF_FLOAT},
      {CL_RG, CL_UNORM_INT8}, {CL_RG, CL_UNSIGNED_INT8}, {CL_RG, CL_UNSIGNED_INT16}, {CL_RG, CL_FLOAT}};
  cl_image_format fmts[64];
  cl_uint n = 0;
  CHECK_CL(clGetSupportedImageFormats(env->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 64, fmts, &n));
  for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
    int found = 0;
    for (cl_uint j = 0; j < n && j < 64; j++)
      found |= fmts[j].image_channel_order == need[i].image_channel_order &&
               fmts[j].image_channel_data_type == need[i].image_channel_data_type;
    CHECK_MSG(found, "format {0x%x, 0x%x} is not listed", need[i].image_channel_order, need[i].image_channel_data_type);
  }
  cl_uint nb = 0;
  CHECK_CL(clGetSupportedImageFormats(env->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE1D_BUFFER, 0, NULL, &nb));
  CHECK_MSG(nb == n && n > 0, "%u formats for 1D buffer images, %u for 2D", nb, n);
  cl_uint nrw = 0;
  CHECK_CL(clGetSupportedImageFormats(env->context, CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE,
                                      CL_MEM_OBJECT_IMAGE2D, 0, NULL, &nrw));
  CHECK_MSG(nrw == n, "%u formats a kernel may read and write, %u to read", nrw, n);
  CHECK_CL_ERR(clGetSupportedImageFormats(env->context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, NULL, &nb),
               CL_INVALID_VALUE);
}

/* ---- every format: write, kernel copy, read back ------------------------ */

static size_t channel_bytes(cl_channel_type t) {
  switch (t) {
  case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT: return 2;
  }
  return 4;
}
static size_t channels(cl_channel_order o) { return o == CL_R ? 1 : o == CL_RG ? 2 : 4; }

/* Pixel bytes whose read and write back are exact: no NaN floats or halves. */
static void fill_pixels(uint8_t *p, size_t bytes, cl_channel_type t, uint32_t seed) {
  for (size_t i = 0; i < bytes; i++) p[i] = (uint8_t)((i * 2654435761u + seed) >> 13);
  if (t == CL_HALF_FLOAT)
    for (size_t i = 1; i < bytes; i += 2) p[i] &= 0xBB; /* exponent never all ones */
  if (t == CL_FLOAT)
    for (size_t i = 3; i < bytes; i += 4) p[i] &= 0xBF;
}

static const char copy_src[] =
    "kernel void copy_f(read_only image2d_t s, write_only image2d_t d) {\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1)); write_imagef(d, c, read_imagef(s, c)); }\n"
    "kernel void copy_i(read_only image2d_t s, write_only image2d_t d) {\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1)); write_imagei(d, c, read_imagei(s, c)); }\n"
    "kernel void copy_ui(read_only image2d_t s, write_only image2d_t d) {\n"
    "  int2 c = (int2)(get_global_id(0), get_global_id(1)); write_imageui(d, c, read_imageui(s, c)); }\n"
    "kernel void info(read_only image2d_t s, global int *o) {\n"
    "  o[0] = get_image_width(s); o[1] = get_image_height(s); o[2] = get_image_channel_order(s);\n"
    "  o[3] = get_image_channel_data_type(s); int2 d = get_image_dim(s); o[4] = d.x; o[5] = d.y; }\n";

static void every_format(cl_test_env_t *env, cl_command_queue q) {
  cl_program p = build(env, copy_src);
  cl_kernel kf = clCreateKernel(p, "copy_f", NULL), ki = clCreateKernel(p, "copy_i", NULL),
            ku = clCreateKernel(p, "copy_ui", NULL), kinfo = clCreateKernel(p, "info", NULL);
  cl_image_format fmts[64];
  cl_uint n = 0;
  CHECK_CL(clGetSupportedImageFormats(env->context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 64, fmts, &n));
  CHECK(n >= 20 && n <= 64);
  const size_t w = 5, h = 3;
  cl_int err;
  cl_mem out = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 6 * sizeof(cl_int), NULL, &err);
  for (cl_uint f = 0; f < n && f < 64; f++) {
    cl_channel_type t = fmts[f].image_channel_data_type;
    size_t px = channels(fmts[f].image_channel_order) * channel_bytes(t), bytes = w * h * px;
    uint8_t in[5 * 3 * 16], back[5 * 3 * 16];
    fill_pixels(in, bytes, t, f);
    memset(back, 0xEE, sizeof back);
    cl_mem s = image2d(env, fmts[f].image_channel_order, t, w, h, &err);
    CHECK_CL(err);
    cl_mem d = image2d(env, fmts[f].image_channel_order, t, w, h, &err);
    CHECK_CL(err);
    size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
    CHECK_CL(clEnqueueWriteImage(q, s, CL_TRUE, origin, region, 0, 0, in, 0, NULL, NULL));
    int is_float = t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_HALF_FLOAT || t == CL_FLOAT;
    int is_signed = t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32;
    cl_kernel k = is_float ? kf : is_signed ? ki : ku;
    CHECK_CL(clSetKernelArg(k, 0, sizeof s, &s));
    CHECK_CL(clSetKernelArg(k, 1, sizeof d, &d));
    size_t g[2] = {w, h};
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadImage(q, d, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    CHECK_MSG(!memcmp(in, back, bytes), "format {0x%x, 0x%x}: the kernel's copy differs",
              fmts[f].image_channel_order, t);
    size_t es = 0;
    CHECK_CL(clGetImageInfo(s, CL_IMAGE_ELEMENT_SIZE, sizeof es, &es, NULL));
    CHECK(es == px);
    if (f == 0) {
      cl_int o[6] = {0};
      CHECK_CL(clSetKernelArg(kinfo, 0, sizeof s, &s));
      CHECK_CL(clSetKernelArg(kinfo, 1, sizeof out, &out));
      size_t one = 1;
      CHECK_CL(clEnqueueNDRangeKernel(q, kinfo, 1, NULL, &one, NULL, 0, NULL, NULL));
      CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
      CHECK(o[0] == 5 && o[1] == 3 && o[2] == (cl_int)fmts[f].image_channel_order && o[3] == (cl_int)t && o[4] == 5 &&
            o[5] == 3);
    }
    clReleaseMemObject(s);
    clReleaseMemObject(d);
  }
  /* clGetKernelArgInfo: images' access qualifiers and types */
  cl_kernel k2 = clCreateKernel(p, "copy_f", &err);
  CHECK_CL(err);
  cl_kernel_arg_access_qualifier aq0 = 0, aq1 = 0;
  char tn[64] = "";
  CHECK_CL(clGetKernelArgInfo(k2, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof aq0, &aq0, NULL));
  CHECK_CL(clGetKernelArgInfo(k2, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof aq1, &aq1, NULL));
  CHECK_CL(clGetKernelArgInfo(k2, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tn, tn, NULL));
  CHECK(aq0 == CL_KERNEL_ARG_ACCESS_READ_ONLY && aq1 == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
  CHECK_MSG(!strcmp(tn, "image2d_t"), "type name %s", tn);
  clReleaseKernel(k2);
  clReleaseMemObject(out);
  clReleaseKernel(kf), clReleaseKernel(ki), clReleaseKernel(ku), clReleaseKernel(kinfo);
  clReleaseProgram(p);
}

/* ---- channel mapping: what read_imagef returns for stored bytes -------- */

static void channel_values(cl_test_env_t *env, cl_command_queue q) {
  static const char src[] =
      "kernel void get(read_only image2d_t s, global float4 *o) { o[0] = read_imagef(s, (int2)(1, 0)); }\n"
      "kernel void geti(read_only image2d_t s, global uint4 *o) { o[0] = read_imageui(s, (int2)(1, 0)); }\n";
  cl_program p = build(env, src);
  cl_kernel k = clCreateKernel(p, "get", NULL), ku = clCreateKernel(p, "geti", NULL);
  cl_int err;
  cl_mem out = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 16, NULL, &err);
  size_t origin[3] = {0, 0, 0}, region[3] = {2, 1, 1}, one = 1;
  /* BGRA UNORM_INT8: bytes b, g, r, a */
  {
    uint8_t px[8] = {0, 0, 0, 0, 51, 102, 255, 0};
    cl_mem im = image2d(env, CL_BGRA, CL_UNORM_INT8, 2, 1, &err);
    CHECK_CL(clEnqueueWriteImage(q, im, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
    clSetKernelArg(k, 0, sizeof im, &im), clSetKernelArg(k, 1, sizeof out, &out);
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    float f[4];
    CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 16, f, 0, NULL, NULL));
    CHECK_MSG(f[0] == 1.0f && fabsf(f[1] - 0.4f) < 1e-6f && fabsf(f[2] - 0.2f) < 1e-6f && f[3] == 0.0f,
              "BGRA read as (%g, %g, %g, %g)", f[0], f[1], f[2], f[3]);
    clReleaseMemObject(im);
  }
  /* R HALF_FLOAT: 0x3E00 = 1.5; missing channels 0, alpha 1 */
  {
    uint16_t px[2] = {0, 0x3E00};
    cl_mem im = image2d(env, CL_R, CL_HALF_FLOAT, 2, 1, &err);
    CHECK_CL(clEnqueueWriteImage(q, im, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
    clSetKernelArg(k, 0, sizeof im, &im), clSetKernelArg(k, 1, sizeof out, &out);
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    float f[4];
    CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 16, f, 0, NULL, NULL));
    CHECK_MSG(f[0] == 1.5f && f[1] == 0.0f && f[2] == 0.0f && f[3] == 1.0f, "R half read as (%g, %g, %g, %g)", f[0],
              f[1], f[2], f[3]);
    clReleaseMemObject(im);
  }
  /* RG UNSIGNED_INT16 */
  {
    uint16_t px[4] = {0, 0, 65535, 7};
    cl_mem im = image2d(env, CL_RG, CL_UNSIGNED_INT16, 2, 1, &err);
    CHECK_CL(clEnqueueWriteImage(q, im, CL_TRUE, origin, region, 0, 0, px, 0, NULL, NULL));
    clSetKernelArg(ku, 0, sizeof im, &im), clSetKernelArg(ku, 1, sizeof out, &out);
    CHECK_CL(clEnqueueNDRangeKernel(q, ku, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_uint u[4];
    CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 16, u, 0, NULL, NULL));
    CHECK_MSG(u[0] == 65535 && u[1] == 7 && u[2] == 0 && u[3] == 1, "RG ushort read as (%u, %u, %u, %u)", u[0], u[1],
              u[2], u[3]);
    clReleaseMemObject(im);
  }
  clReleaseMemObject(out);
  clReleaseKernel(k), clReleaseKernel(ku);
  clReleaseProgram(p);
}

/* ---- samplers ------------------------------------------------------------ */

#define W 4
#define H 3
static float texel(int x, int y, int c) { return (float)(x * 10 + y * 100 + c); } /* channel c of (x, y) */

/* The spec's formulas (OpenCL 3.0 environment, "Image Addressing and
 * Filtering"), written out for the host. */
static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static float mirror_s(float s) { return fabsf(s - 2.0f * rintf(0.5f * s)); }

static int near_ref(float s, int n, int norm, cl_addressing_mode am, int *border) {
  if (am == CL_ADDRESS_REPEAT) {
    int i = (int)floorf((s - floorf(s)) * n);
    return i > n - 1 ? i - n : i;
  }
  if (am == CL_ADDRESS_MIRRORED_REPEAT) {
    int i = (int)floorf(mirror_s(s) * n);
    return i < n - 1 ? i : n - 1;
  }
  int i = (int)floorf(norm ? s * n : s);
  if (am == CL_ADDRESS_CLAMP && (i < 0 || i >= n)) *border = 1;
  return clampi(i, 0, n - 1);
}

static void lin_ref(float s, int n, int norm, cl_addressing_mode am, int *i0, int *i1, float *a, int *b0, int *b1) {
  float u = am == CL_ADDRESS_REPEAT ? (s - floorf(s)) * n : am == CL_ADDRESS_MIRRORED_REPEAT ? mirror_s(s) * n
                                                                                           : norm ? s * n : s;
  *i0 = (int)floorf(u - 0.5f);
  *i1 = *i0 + 1;
  *a = (u - 0.5f) - floorf(u - 0.5f);
  if (am == CL_ADDRESS_REPEAT) {
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
  } else if (am == CL_ADDRESS_MIRRORED_REPEAT) {
    *i0 = *i0 < 0 ? 0 : *i0;
    *i1 = *i1 > n - 1 ? n - 1 : *i1;
  } else {
    if (am == CL_ADDRESS_CLAMP) *b0 = *i0 < 0 || *i0 >= n, *b1 = *i1 < 0 || *i1 >= n;
    *i0 = clampi(*i0, 0, n - 1);
    *i1 = clampi(*i1, 0, n - 1);
  }
}

/* Border colour of RGBA: all 0. */
static float fetch(int x, int y, int border, int c) { return border ? 0.0f : texel(x, y, c); }

static void sample_ref(float sx, float sy, int norm, cl_addressing_mode am, cl_filter_mode fm, float out[4]) {
  if (fm == CL_FILTER_NEAREST) {
    int border = 0;
    int x = near_ref(sx, W, norm, am, &border), y = near_ref(sy, H, norm, am, &border);
    for (int c = 0; c < 4; c++) out[c] = fetch(x, y, border, c);
    return;
  }
  int x0, x1, y0, y1, bx0 = 0, bx1 = 0, by0 = 0, by1 = 0;
  float a, b;
  lin_ref(sx, W, norm, am, &x0, &x1, &a, &bx0, &bx1);
  lin_ref(sy, H, norm, am, &y0, &y1, &b, &by0, &by1);
  for (int c = 0; c < 4; c++)
    out[c] = (1 - a) * (1 - b) * fetch(x0, y0, bx0 || by0, c) + a * (1 - b) * fetch(x1, y0, bx1 || by0, c) +
             (1 - a) * b * fetch(x0, y1, bx0 || by1, c) + a * b * fetch(x1, y1, bx1 || by1, c);
}

static const char sample_src[] =
    "kernel void sample(read_only image2d_t im, sampler_t s, global const float2 *c, global float4 *o) {\n"
    "  size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "kernel void sample_int(read_only image2d_t im, sampler_t s, global const int2 *c, global float4 *o) {\n"
    "  size_t i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "constant sampler_t fixed = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;\n"
    "kernel void sample_fixed(read_only image2d_t im, global const float2 *c, global float4 *o) {\n"
    "  size_t i = get_global_id(0); o[i] = read_imagef(im, fixed, c[i]); }\n"
    "kernel void fill_wo(write_only image2d_t im) { write_imagef(im, (int2)(0, 0), (float4)(1.0f)); }\n";

#define NC 12

static void samplers(cl_test_env_t *env, cl_command_queue q) {
  cl_int err;
  /* sampler objects */
  cl_sampler s = clCreateSampler(env->context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
  CHECK_CL(err);
  cl_addressing_mode am = 0;
  cl_filter_mode fm = 0;
  cl_bool nm = 0;
  cl_uint refs = 0;
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof nm, &nm, NULL));
  CHECK_CL(clRetainSampler(s));
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK(am == CL_ADDRESS_REPEAT && fm == CL_FILTER_LINEAR && nm == CL_TRUE && refs == 2);
  clReleaseSampler(s), clReleaseSampler(s);
  CHECK(clCreateSampler(env->context, CL_TRUE, 0x1234, CL_FILTER_LINEAR, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(env->context, CL_TRUE, CL_ADDRESS_CLAMP, 0x99, &err) == NULL && err == CL_INVALID_VALUE);
  CHECK(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR, &err) == NULL && err == CL_INVALID_CONTEXT);
  cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  s = clCreateSamplerWithProperties(env->context, props, &err);
  CHECK_CL(err);
  CHECK_CL(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(am == CL_ADDRESS_CLAMP); /* the default */
  clReleaseSampler(s);
  cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  CHECK(clCreateSamplerWithProperties(env->context, twice, &err) == NULL && err == CL_INVALID_VALUE);

  /* an RGBA FLOAT image of known texels */
  float px[W * H * 4];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      for (int c = 0; c < 4; c++) px[(y * W + x) * 4 + c] = texel(x, y, c);
  cl_image_format f = {CL_RGBA, CL_FLOAT};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H};
  cl_mem im = clCreateImage(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
  CHECK_CL(err);
  cl_program p = build(env, sample_src);
  cl_kernel k = clCreateKernel(p, "sample", &err), ki = clCreateKernel(p, "sample_int", &err),
            kf = clCreateKernel(p, "sample_fixed", &err);
  cl_mem cb = clCreateBuffer(env->context, CL_MEM_READ_ONLY, NC * 2 * sizeof(float), NULL, &err);
  cl_mem ob = clCreateBuffer(env->context, CL_MEM_WRITE_ONLY, NC * 4 * sizeof(float), NULL, &err);
  /* normalized and unnormalized coordinates inside and outside the image */
  static const float cn[NC * 2] = {0.5f, 0.5f, 0.1f, 0.9f, 0.99f, 0.01f, 0.3f, 0.6f, -0.1f, 0.5f, 1.1f, 0.5f,
                                   0.5f, -0.4f, 1.3f, 1.7f, -1.2f, 2.5f, 0.62f, 0.2f, 0.126f, 0.834f, 2.9f, -0.6f};
  static const float cu[NC * 2] = {0.5f, 0.5f, 1.2f, 2.7f, 3.9f, 0.1f, 2.5f, 1.5f, -0.5f, 1.0f, 4.2f, 1.0f,
                                   2.0f, -0.6f, 5.0f, 3.5f, 1.75f, 1.25f, 0.0f, 0.0f, 3.0f, 2.0f, 2.2f, 0.8f};
  static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                             CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  size_t g = NC;
  for (int norm = 0; norm < 2; norm++)
    for (int mi = 0; mi < 5; mi++)
      for (int lin = 0; lin < 2; lin++) {
        cl_addressing_mode mode = modes[mi];
        if (!norm && (mode == CL_ADDRESS_REPEAT || mode == CL_ADDRESS_MIRRORED_REPEAT)) continue;
        cl_filter_mode filt = lin ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
        cl_sampler smp = clCreateSampler(env->context, norm ? CL_TRUE : CL_FALSE, mode, filt, &err);
        CHECK_CL(err);
        const float *c = norm ? cn : cu;
        CHECK_CL(clEnqueueWriteBuffer(q, cb, CL_TRUE, 0, sizeof cn, c, 0, NULL, NULL));
        CHECK_CL(clSetKernelArg(k, 0, sizeof im, &im));
        CHECK_CL(clSetKernelArg(k, 1, sizeof smp, &smp));
        CHECK_CL(clSetKernelArg(k, 2, sizeof cb, &cb));
        CHECK_CL(clSetKernelArg(k, 3, sizeof ob, &ob));
        CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
        float o[NC * 4];
        CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
        for (int i = 0; i < NC; i++) {
          /* ADDRESS_NONE leaves coordinates outside the image undefined; linear
           * filtering too where a neighbour is outside */
          float sx = c[2 * i], sy = c[2 * i + 1];
          float ux = norm ? sx * W : sx, uy = norm ? sy * H : sy;
          if (mode == CL_ADDRESS_NONE && (ux < (lin ? 0.5f : 0.0f) || uy < (lin ? 0.5f : 0.0f) ||
                                          ux >= (lin ? W - 0.5f : W) || uy >= (lin ? H - 0.5f : H)))
            continue;
          float want[4];
          sample_ref(sx, sy, norm, mode, filt, want);
          for (int ch = 0; ch < 4; ch++)
            CHECK_MSG(fabsf(o[i * 4 + ch] - want[ch]) <= 1e-3f * (1.0f + fabsf(want[ch])),
                      "norm %d mode 0x%x %s at (%g, %g) channel %d: %g, expected %g", norm, mode,
                      lin ? "linear" : "nearest", sx, sy, ch, o[i * 4 + ch], want[ch]);
        }
        /* worked out by hand (red channel = 10 x + 100 y) */
        if (norm && mode == CL_ADDRESS_REPEAT && !lin) CHECK(o[7 * 4] == 10.0f * 1 + 100.0f * 2); /* (1.3, 1.7) */
        if (norm && mode == CL_ADDRESS_CLAMP && !lin) CHECK(o[4 * 4] == 0.0f && o[4 * 4 + 3] == 0.0f); /* border */
        if (norm && mode == CL_ADDRESS_MIRRORED_REPEAT && !lin) CHECK(o[5 * 4] == 10.0f * 3 + 100.0f * 1); /* 1.1 */
        if (!norm && mode == CL_ADDRESS_CLAMP_TO_EDGE && lin) CHECK(fabsf(o[8 * 4] - (12.5f + 75.0f)) < 1e-3f);
        clReleaseSampler(smp);
      }
  /* integer coordinates with a sampler: unnormalized, nearest, CLAMP's border */
  {
    cl_sampler smp = clCreateSampler(env->context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    cl_int ic[NC * 2] = {0, 0, 3, 2, -1, 0, 4, 1, 2, 1, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK_CL(clEnqueueWriteBuffer(q, cb, CL_TRUE, 0, sizeof ic, ic, 0, NULL, NULL));
    clSetKernelArg(ki, 0, sizeof im, &im), clSetKernelArg(ki, 1, sizeof smp, &smp);
    clSetKernelArg(ki, 2, sizeof cb, &cb), clSetKernelArg(ki, 3, sizeof ob, &ob);
    CHECK_CL(clEnqueueNDRangeKernel(q, ki, 1, NULL, &g, NULL, 0, NULL, NULL));
    float o[NC * 4];
    CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    CHECK(o[0] == 0.0f && o[4] == 230.0f && o[8] == 0.0f && o[11] == 0.0f && o[12] == 0.0f && o[16] == 120.0f &&
          o[20] == 0.0f);
    clReleaseSampler(smp);
  }
  /* a program's sampler_t constant */
  {
    CHECK_CL(clEnqueueWriteBuffer(q, cb, CL_TRUE, 0, sizeof cn, cn, 0, NULL, NULL));
    clSetKernelArg(kf, 0, sizeof im, &im), clSetKernelArg(kf, 1, sizeof cb, &cb), clSetKernelArg(kf, 2, sizeof ob, &ob);
    CHECK_CL(clEnqueueNDRangeKernel(q, kf, 1, NULL, &g, NULL, 0, NULL, NULL));
    float o[NC * 4];
    CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    for (int i = 0; i < NC; i++) {
      float want[4];
      sample_ref(cn[2 * i], cn[2 * i + 1], 1, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, want);
      CHECK_MSG(o[i * 4] == want[0], "constant sampler at %d: %g, expected %g", i, o[i * 4], want[0]);
    }
  }
  /* argument errors */
  cl_sampler smp = clCreateSampler(env->context, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  CHECK_CL_ERR(clSetKernelArg(k, 1, 4, &smp), CL_INVALID_ARG_SIZE);
  cl_sampler bogus = (cl_sampler)cb;
  CHECK_CL_ERR(clSetKernelArg(k, 1, sizeof bogus, &bogus), CL_INVALID_SAMPLER);
  CHECK_CL_ERR(clSetKernelArg(k, 0, sizeof cb, &cb), CL_INVALID_MEM_OBJECT); /* a buffer for an image */
  CHECK_CL_ERR(clSetKernelArg(k, 2, sizeof im, &im), CL_INVALID_MEM_OBJECT); /* an image for a buffer */
  /* a write_only argument refuses a CL_MEM_READ_ONLY image (im is one) */
  cl_kernel kw = clCreateKernel(p, "fill_wo", &err);
  CHECK_CL(err);
  CHECK_CL_ERR(clSetKernelArg(kw, 0, sizeof im, &im), CL_INVALID_ARG_VALUE);
  clReleaseKernel(kw);
  clReleaseSampler(smp);
  clReleaseMemObject(cb), clReleaseMemObject(ob), clReleaseMemObject(im);
  clReleaseKernel(k), clReleaseKernel(ki), clReleaseKernel(kf);
  clReleaseProgram(p);
}

/* ---- 1D, 3D and arrays ---------------------------------------------------- */

static const char dims_src[] =
    "kernel void w1(write_only image1d_t d) { int x = get_global_id(0); write_imageui(d, x, (uint4)(x + 1, 0, 0, 0)); }\n"
    "kernel void w1a(write_only image1d_array_t d) {\n"
    "  int x = get_global_id(0), l = get_global_id(1); write_imageui(d, (int2)(x, l), (uint4)(100 * l + x, 0, 0, 0)); }\n"
    "kernel void w3(write_only image3d_t d) {\n"
    "  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);\n"
    "  write_imagef(d, c, (float4)(c.x + 10 * c.y + 100 * c.z, 0, 0, 1)); }\n"
    "kernel void r3(read_only image3d_t s, sampler_t smp, global float *o) {\n"
    "  o[0] = read_imagef(s, smp, (float4)(1.0f, 1.0f, 1.0f, 0.0f)).x;\n"
    "  o[1] = get_image_depth(s); o[2] = get_image_dim(s).z; }\n"
    "kernel void r2a(read_only image2d_array_t s, sampler_t smp, sampler_t border, global uint *o) {\n"
    "  o[0] = read_imageui(s, smp, (float4)(1.5f, 0.5f, 1.2f, 0.0f)).x; o[1] = get_image_array_size(s);\n"
    "  o[2] = read_imageui(s, (int4)(0, 1, 2, 0)).x;\n"
    "  o[3] = read_imageui(s, smp, (int4)(1, 0, 7, 0)).x; o[4] = read_imagei(s, smp, (int4)(5, 1, -4, 0)).x;\n"
    "  o[5] = read_imageui(s, border, (int4)(2, 1, 9, 0)).x; o[6] = read_imageui(s, border, (int4)(3, 1, 1, 0)).x; }\n"
    "kernel void r1a(read_only image1d_array_t s, sampler_t smp, sampler_t border, global uint *o) {\n"
    "  o[0] = read_imageui(s, smp, (int2)(9, 5)).x; o[1] = read_imagei(s, smp, (int2)(-1, 1)).x;\n"
    "  o[2] = read_imageui(s, border, (int2)(2, 7)).x; o[3] = read_imageui(s, border, (int2)(2, -3)).x; }\n";

/* Kernel `name` of p, one work-item, on (im, s0, s1): the n uints it writes. */
static void read_probe(cl_test_env_t *env, cl_command_queue q, cl_program p, const char *name, cl_mem im,
                       cl_sampler s0, cl_sampler s1, cl_uint *out, size_t n) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_CL(err);
  cl_mem ob = clCreateBuffer(env->context, CL_MEM_READ_WRITE, n * sizeof(cl_uint), NULL, &err);
  CHECK_CL(err);
  clSetKernelArg(k, 0, sizeof im, &im), clSetKernelArg(k, 1, sizeof s0, &s0);
  clSetKernelArg(k, 2, sizeof s1, &s1), clSetKernelArg(k, 3, sizeof ob, &ob);
  size_t one = 1;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, n * sizeof(cl_uint), out, 0, NULL, NULL));
  clReleaseMemObject(ob), clReleaseKernel(k);
}

static void dims(cl_test_env_t *env, cl_command_queue q) {
  cl_program p = build(env, dims_src);
  cl_int err;
  cl_image_format fu = {CL_R, CL_UNSIGNED_INT32}, ff = {CL_R, CL_FLOAT};
  size_t o0[3] = {0, 0, 0};
  /* 1D */
  {
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 7};
    cl_mem im = clCreateImage(env->context, CL_MEM_WRITE_ONLY, &fu, &d, NULL, &err);
    CHECK_CL(err);
    cl_kernel k = clCreateKernel(p, "w1", &err);
    clSetKernelArg(k, 0, sizeof im, &im);
    size_t g = 7, r[3] = {7, 1, 1};
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
    cl_uint v[7];
    CHECK_CL(clEnqueueReadImage(q, im, CL_TRUE, o0, r, 0, 0, v, 0, NULL, NULL));
    for (int i = 0; i < 7; i++) CHECK(v[i] == (cl_uint)i + 1);
    size_t bad[3] = {7, 2, 1};
    CHECK_CL_ERR(clEnqueueReadImage(q, im, CL_TRUE, o0, bad, 0, 0, v, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseKernel(k), clReleaseMemObject(im);
  }
  /* integer coordinates with a sampler: an array's layer is clamped
   * whatever the address mode (CLAMP's border is for the other axes) */
  cl_sampler edge = clCreateSampler(env->context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
  CHECK_CL(err);
  cl_sampler border = clCreateSampler(env->context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  CHECK_CL(err);
  /* 1D array: read back with a host slice pitch (its layers' distance) */
  {
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 5, .image_array_size = 3};
    cl_mem im = clCreateImage(env->context, CL_MEM_READ_WRITE, &fu, &d, NULL, &err);
    CHECK_CL(err);
    cl_kernel k = clCreateKernel(p, "w1a", &err);
    clSetKernelArg(k, 0, sizeof im, &im);
    size_t g[2] = {5, 3}, r[3] = {4, 2, 1}, org[3] = {1, 1, 0};
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, g, NULL, 0, NULL, NULL));
    cl_uint v[2 * 6];
    CHECK_CL(clEnqueueReadImage(q, im, CL_TRUE, org, r, 0, 6 * sizeof(cl_uint), v, 0, NULL, NULL));
    for (int l = 0; l < 2; l++)
      for (int x = 0; x < 4; x++) CHECK(v[l * 6 + x] == (cl_uint)(100 * (l + 1) + x + 1));
    size_t sp = 0;
    CHECK_CL(clGetImageInfo(im, CL_IMAGE_SLICE_PITCH, sizeof sp, &sp, NULL));
    CHECK(sp == 5 * sizeof(cl_uint));
    cl_uint o[4] = {0};
    read_probe(env, q, p, "r1a", im, edge, border, o, 4);
    /* (9, 5) -> x 4, layer 2; (-1, 1) -> x 0, layer 1; CLAMP: (2, 7) -> layer 2, (2, -3) -> layer 0 */
    CHECK_MSG(o[0] == 204 && o[1] == 100 && o[2] == 202 && o[3] == 2, "1D array, integer coordinates: %u %u %u %u", o[0],
              o[1], o[2], o[3]);
    clReleaseKernel(k), clReleaseMemObject(im);
  }
  /* 3D: written by a kernel, read with trilinear filtering at the centre of 8 texels */
  {
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 3, .image_height = 3, .image_depth = 2};
    cl_mem im = clCreateImage(env->context, CL_MEM_READ_WRITE, &ff, &d, NULL, &err);
    CHECK_CL(err);
    cl_kernel kw = clCreateKernel(p, "w3", &err), kr = clCreateKernel(p, "r3", &err);
    clSetKernelArg(kw, 0, sizeof im, &im);
    size_t g[3] = {3, 3, 2};
    CHECK_CL(clEnqueueNDRangeKernel(q, kw, 3, NULL, g, NULL, 0, NULL, NULL));
    cl_sampler smp = clCreateSampler(env->context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR, &err);
    cl_mem ob = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 3 * sizeof(float), NULL, &err);
    clSetKernelArg(kr, 0, sizeof im, &im), clSetKernelArg(kr, 1, sizeof smp, &smp), clSetKernelArg(kr, 2, sizeof ob, &ob);
    size_t one = 1;
    CHECK_CL(clEnqueueNDRangeKernel(q, kr, 1, NULL, &one, NULL, 0, NULL, NULL));
    float o[3];
    CHECK_CL(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
    /* (1, 1, 1) unnormalized: halfway between texels 0 and 1 on each axis */
    CHECK_MSG(fabsf(o[0] - (0.5f + 5.0f + 50.0f)) < 1e-3f && o[1] == 2.0f && o[2] == 2.0f, "3D: %g %g %g", o[0], o[1],
              o[2]);
    float all[18];
    size_t r[3] = {3, 3, 2};
    CHECK_CL(clEnqueueReadImage(q, im, CL_TRUE, o0, r, 0, 0, all, 0, NULL, NULL));
    CHECK(all[17] == 2 + 20 + 100.0f);
    clReleaseSampler(smp), clReleaseMemObject(ob), clReleaseKernel(kw), clReleaseKernel(kr), clReleaseMemObject(im);
  }
  /* 2D array: the layer coordinate is rounded, never filtered */
  {
    cl_uint px[3 * 2 * 3];
    for (int i = 0; i < 18; i++) px[i] = (cl_uint)i;
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 3, .image_height = 2,
                       .image_array_size = 3};
    cl_mem im = clCreateImage(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fu, &d, px, &err);
    CHECK_CL(err);
    cl_uint o[7] = {0};
    read_probe(env, q, p, "r2a", im, edge, border, o, 7);
    CHECK_MSG(o[0] == 6 + 1 && o[1] == 3 && o[2] == 12 + 3, "2D array: %u %u %u", o[0], o[1], o[2]);
    /* (1, 0, 7) -> layer 2; (5, 1, -4) -> x 2, layer 0; CLAMP: (2, 1, 9) -> layer 2, (3, 1, 1) the border, 0 */
    CHECK_MSG(o[3] == 12 + 1 && o[4] == 3 + 2 && o[5] == 12 + 3 + 2 && o[6] == 0,
              "2D array, integer coordinates: %u %u %u %u", o[3], o[4], o[5], o[6]);
    clReleaseMemObject(im);
  }
  clReleaseSampler(edge), clReleaseSampler(border);
  clReleaseProgram(p);
}

/* ---- copies, fills, maps --------------------------------------------------- */

static void transfers(cl_test_env_t *env, cl_command_queue q) {
  cl_int err;
  const size_t w = 6, h = 4;
  uint8_t px[6 * 4 * 4];
  for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 7 + 1);
  cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h};
  cl_mem a = clCreateImage(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
  CHECK_CL(err);
  cl_mem b = clCreateImage(env->context, CL_MEM_READ_WRITE, &f, &d, NULL, &err);
  CHECK_CL(err);
  size_t o0[3] = {0, 0, 0}, all[3] = {w, h, 1};
  /* fill b, then copy a 3 x 2 region of a into it at (2, 1) */
  cl_uint4 colour = {{9, 8, 7, 300}};
  CHECK_CL(clEnqueueFillImage(q, b, &colour, o0, all, 0, NULL, NULL));
  size_t so[3] = {1, 2, 0}, dor[3] = {2, 1, 0}, reg[3] = {3, 2, 1};
  CHECK_CL(clEnqueueCopyImage(q, a, b, so, dor, reg, 0, NULL, NULL));
  uint8_t got[6 * 4 * 4];
  CHECK_CL(clEnqueueReadImage(q, b, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
  int ok = 1;
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w; x++)
      for (size_t c = 0; c < 4; c++) {
        int in = x >= 2 && x < 5 && y >= 1 && y < 3;
        uint8_t want = in ? px[((y + 1) * w + (x - 1)) * 4 + c] : (uint8_t)(c == 3 ? 255 : 9 - c);
        ok &= got[(y * w + x) * 4 + c] == want;
      }
  CHECK_MSG(ok, "fill + copy of a region");
  /* image -> buffer -> image, packed in the buffer from an offset */
  cl_mem buf = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 256, NULL, &err);
  CHECK_CL(clEnqueueCopyImageToBuffer(q, a, buf, so, reg, 16, 0, NULL, NULL));
  uint8_t bb[3 * 2 * 4];
  CHECK_CL(clEnqueueReadBuffer(q, buf, CL_TRUE, 16, sizeof bb, bb, 0, NULL, NULL));
  CHECK(!memcmp(bb, &px[(2 * w + 1) * 4], 12) && !memcmp(bb + 12, &px[(3 * w + 1) * 4], 12));
  CHECK_CL(clEnqueueCopyBufferToImage(q, buf, b, 16, o0, reg, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadImage(q, b, CL_TRUE, o0, reg, 0, 0, bb, 0, NULL, NULL));
  CHECK(!memcmp(bb, &px[(2 * w + 1) * 4], 12));
  /* write a region with a host row pitch, read it back with another */
  uint8_t rows[2 * 20];
  memset(rows, 0x5A, sizeof rows);
  size_t wo[3] = {4, 2, 0}, wr[3] = {2, 2, 1};
  CHECK_CL(clEnqueueWriteImage(q, a, CL_TRUE, wo, wr, 20, 0, rows, 0, NULL, NULL));
  /* map: the pitch the image has, its bytes, a write seen after unmap */
  size_t rp = 0, sp = 99;
  size_t mo[3] = {1, 1, 0}, mr[3] = {5, 3, 1};
  uint8_t *m = clEnqueueMapImage(q, a, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, mo, mr, &rp, &sp, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(m && rp == w * 4 && sp == 0);
  if (m) {
    CHECK(m[0] == px[(1 * w + 1) * 4] && m[rp + 3 * 4] == 0x5A); /* (4, 2) was written above */
    m[rp * 2] = 0xC3;                                            /* (1, 3) red */
    CHECK_CL(clEnqueueUnmapMemObject(q, a, m, 0, NULL, NULL));
  }
  uint8_t one[4];
  size_t p13[3] = {1, 3, 0}, r1[3] = {1, 1, 1};
  CHECK_CL(clEnqueueReadImage(q, a, CL_TRUE, p13, r1, 0, 0, one, 0, NULL, NULL));
  CHECK(one[0] == 0xC3);

  /* errors */
  size_t out_of[3] = {5, 0, 0};
  CHECK_CL_ERR(clEnqueueReadImage(q, a, CL_TRUE, out_of, reg, 0, 0, got, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t zero[3] = {0, 1, 1};
  CHECK_CL_ERR(clEnqueueWriteImage(q, a, CL_TRUE, o0, zero, 0, 0, got, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL_ERR(clEnqueueReadBuffer(q, a, CL_TRUE, 0, 4, got, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_CL_ERR(clEnqueueReadImage(q, buf, CL_TRUE, o0, reg, 0, 0, got, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK_CL_ERR(clEnqueueCopyImage(q, a, a, o0, o0, reg, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  cl_image_format other = {CL_RGBA, CL_SIGNED_INT8};
  cl_mem c = clCreateImage(env->context, CL_MEM_READ_WRITE, &other, &d, NULL, &err);
  CHECK_CL_ERR(clEnqueueCopyImage(q, a, c, o0, o0, reg, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
  CHECK_CL_ERR(clEnqueueCopyImageToBuffer(q, a, buf, o0, all, 200, 0, NULL, NULL), CL_INVALID_VALUE);
  clReleaseMemObject(c);
  clReleaseMemObject(buf), clReleaseMemObject(a), clReleaseMemObject(b);
}

/* A CL_MEM_USE_HOST_PTR image maps at host_ptr, in its layout (a padded
 * row pitch; a 3D image's slices and a 1D array's layers): the pointer the
 * CTS's mem_host_flags checks, the device's bytes read into it at map, the
 * host's written back at unmap, and a write-invalidate map that reads
 * nothing. */
static void host_ptr_maps(cl_test_env_t *env, cl_command_queue q) {
  cl_int err;
  const size_t w = 5, h = 3, dep = 2, hrow = 7 * 4, hslice = hrow * (h + 1); /* padded: 2 pixels, 1 row */
  uint32_t host[7 * 4 * 2];
  for (size_t i = 0; i < sizeof host / 4; i++) host[i] = 0xD0000000u | (uint32_t)i;
  cl_image_format f = {CL_R, CL_UNSIGNED_INT32};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = w, .image_height = h, .image_depth = dep,
                     .image_row_pitch = hrow, .image_slice_pitch = hslice};
  cl_mem im = clCreateImage(env->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &f, &d, host, &err);
  CHECK_CL(err);
  if (err != CL_SUCCESS) return;
  /* the device's copy changes (a write through the API), then a map reads it into host_ptr */
  uint32_t v[2] = {111, 222};
  size_t at[3] = {3, 2, 1}, two[3] = {2, 1, 1};
  CHECK_CL(clEnqueueWriteImage(q, im, CL_TRUE, at, two, 0, 0, v, 0, NULL, NULL));
  size_t rp = 0, sp = 0, o[3] = {1, 1, 1}, r[3] = {4, 2, 1};
  uint8_t *m = clEnqueueMapImage(q, im, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r, &rp, &sp, 0, NULL, NULL, &err);
  CHECK_CL(err);
  uint8_t *want = (uint8_t *)host + hslice + hrow + 4;
  CHECK_MSG(m == want, "mapped at %p, host_ptr's pixel (1, 1, 1) is %p", (void *)m, (void *)want);
  CHECK_MSG(rp == hrow && sp == hslice, "pitches %zu / %zu, host_ptr's %zu / %zu", rp, sp, hrow, hslice);
  if (m == want) {
    uint32_t *row2 = (uint32_t *)(m + rp); /* pixels (1..4, 2, 1) */
    CHECK_MSG(row2[2] == 111 && row2[3] == 222, "the device's pixels read into host_ptr: %u %u", row2[2], row2[3]);
    row2[0] = 777; /* (1, 2, 1) */
    CHECK_CL(clEnqueueUnmapMemObject(q, im, m, 0, NULL, NULL));
    uint32_t back = 0;
    size_t p121[3] = {1, 2, 1}, one[3] = {1, 1, 1};
    CHECK_CL(clEnqueueReadImage(q, im, CL_TRUE, p121, one, 0, 0, &back, 0, NULL, NULL));
    CHECK_MSG(back == 777, "the write through host_ptr reached the image: %u", back);
  }
  /* a write-invalidate map reads nothing into host_ptr */
  host[0] = 0xABCDu;
  size_t o0[3] = {0, 0, 0}, px[3] = {1, 1, 1};
  m = clEnqueueMapImage(q, im, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, o0, px, &rp, &sp, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK(m == (uint8_t *)host && host[0] == 0xABCDu);
  if (m) CHECK_CL(clEnqueueUnmapMemObject(q, im, m, 0, NULL, NULL));
  uint32_t first = 0;
  CHECK_CL(clEnqueueReadImage(q, im, CL_TRUE, o0, px, 0, 0, &first, 0, NULL, NULL));
  CHECK_MSG(first == 0xABCDu, "pixel (0, 0, 0) after a write-invalidate map: 0x%x", first);
  clReleaseMemObject(im);

  /* a 1D array: layer y is hslice bytes into host_ptr */
  uint32_t layers[3 * 6];
  for (size_t i = 0; i < 18; i++) layers[i] = (uint32_t)i;
  cl_image_desc da = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 4, .image_array_size = 3, .image_row_pitch = 6 * 4,
                      .image_slice_pitch = 6 * 4};
  cl_mem arr = clCreateImage(env->context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, &f, &da, layers, &err);
  CHECK_CL(err);
  size_t lo[3] = {1, 2, 0}, lr[3] = {2, 1, 1};
  m = clEnqueueMapImage(q, arr, CL_TRUE, CL_MAP_READ, lo, lr, &rp, &sp, 0, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_MSG(m == (uint8_t *)&layers[2 * 6 + 1] && sp == 6 * 4, "1D array mapped at %p (want %p), slice pitch %zu",
            (void *)m, (void *)&layers[13], sp);
  if (m) CHECK_CL(clEnqueueUnmapMemObject(q, arr, m, 0, NULL, NULL));
  clReleaseMemObject(arr);
}

/* ---- 1D buffer images ---------------------------------------------------- */

static const char *buffer_image_src =
    "kernel void bcopy(read_only image1d_buffer_t src, write_only image1d_buffer_t dst, global uint *info) {\n"
    "  int i = get_global_id(0);\n"
    "  write_imageui(dst, i, read_imageui(src, i) + (uint4)(100, 0, 0, 0));\n"
    "  if (i == 0) {\n"
    "    uint4 past = read_imageui(src, get_image_width(src));\n"
    "    info[0] = get_image_width(src); info[1] = get_image_channel_order(dst);\n"
    "    info[2] = get_image_channel_data_type(src); info[3] = past.x; info[4] = past.w;\n"
    "  }\n"
    "}\n"
    "kernel void unorm(read_only image1d_buffer_t src, global float4 *out) {\n"
    "  out[get_global_id(0)] = read_imagef(src, (int)get_global_id(0));\n"
    "}\n";

/* The pixels are the buffer's bytes: a kernel's reads see what the host
 * wrote to the buffer, its writes land in the buffer (at a sub-buffer's
 * origin, nowhere past the image), and the image commands reach them. */
static void buffer_images(cl_test_env_t *env, cl_command_queue q) {
  cl_int err;
  size_t maxpx = 0;
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof maxpx, &maxpx, NULL));
  CHECK_MSG(maxpx >= 65536, "CL_DEVICE_IMAGE_MAX_BUFFER_SIZE %zu", maxpx); /* the full profile's minimum */
  cl_uint align_bits = 0;
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
  const size_t w = 16, origin = align_bits / 8, words = origin / 4 + w + 8;
  uint32_t a[16], *b = malloc(words * 4);
  CHECK(b != NULL);
  if (!b) return;
  for (size_t i = 0; i < w; i++) a[i] = (uint32_t)(i * 3 + 1);
  for (size_t i = 0; i < words; i++) b[i] = 0xEEEEEEEEu;
  cl_mem abuf = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  CHECK_CL(err);
  cl_mem bbuf = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, words * 4, b, &err);
  CHECK_CL(err);
  cl_buffer_region region = {origin, w * 4 + 16};
  cl_mem bsub = clCreateSubBuffer(bbuf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_CL(err);
  cl_image_format r32 = {CL_R, CL_UNSIGNED_INT32};
  cl_image_desc da = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = w, .buffer = abuf};
  cl_image_desc dbd = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = w, .buffer = bsub};
  cl_mem src = clCreateImage(env->context, CL_MEM_READ_ONLY, &r32, &da, NULL, &err);
  CHECK_CL(err);
  cl_mem dst = clCreateImage(env->context, 0, &r32, &dbd, NULL, &err);
  CHECK_CL(err);
  if (!src || !dst) goto out;

  /* queries */
  cl_mem ib = NULL, assoc = NULL;
  size_t width = 0, msize = 0, off = 99, rowp = 0;
  cl_mem_object_type t = 0;
  cl_mem_flags fl = 0;
  clGetImageInfo(dst, CL_IMAGE_BUFFER, sizeof ib, &ib, NULL);
  clGetImageInfo(dst, CL_IMAGE_WIDTH, sizeof width, &width, NULL);
  clGetImageInfo(dst, CL_IMAGE_ROW_PITCH, sizeof rowp, &rowp, NULL);
  clGetMemObjectInfo(dst, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
  clGetMemObjectInfo(dst, CL_MEM_SIZE, sizeof msize, &msize, NULL);
  clGetMemObjectInfo(dst, CL_MEM_OFFSET, sizeof off, &off, NULL);
  clGetMemObjectInfo(dst, CL_MEM_TYPE, sizeof t, &t, NULL);
  clGetMemObjectInfo(dst, CL_MEM_FLAGS, sizeof fl, &fl, NULL);
  CHECK_MSG(ib == bsub && assoc == bsub && width == w && rowp == w * 4 && msize == w * 4 && off == 0 &&
                t == CL_MEM_OBJECT_IMAGE1D_BUFFER && (fl & CL_MEM_READ_WRITE),
            "buffer %p/%p (want %p), width %zu, row pitch %zu, size %zu, offset %zu, type 0x%x, flags 0x%llx",
            (void *)ib, (void *)assoc, (void *)bsub, width, rowp, msize, off, (unsigned)t, (unsigned long long)fl);
  /* the image keeps its buffer: the application's handle may go first */
  clReleaseMemObject(abuf);
  abuf = NULL;

  /* a kernel through both images */
  cl_program p = build(env, buffer_image_src);
  cl_kernel k = clCreateKernel(p, "bcopy", &err);
  CHECK_CL(err);
  cl_mem info = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 8 * 4, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof src, &src));
  CHECK_CL(clSetKernelArg(k, 1, sizeof dst, &dst));
  CHECK_CL(clSetKernelArg(k, 2, sizeof info, &info));
  size_t g = w + 4; /* the last 4 write past the image: dropped */
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  uint32_t inf[8] = {0};
  CHECK_CL(clEnqueueReadBuffer(q, info, CL_TRUE, 0, sizeof inf, inf, 0, NULL, NULL));
  CHECK_MSG(inf[0] == w && inf[1] == CL_R && inf[2] == CL_UNSIGNED_INT32 && inf[3] == 0 && inf[4] == 1,
            "width %u, order 0x%x, type 0x%x, past the end (%u, .., %u)", inf[0], inf[1], inf[2], inf[3], inf[4]);
  CHECK_CL(clEnqueueReadBuffer(q, bbuf, CL_TRUE, 0, words * 4, b, 0, NULL, NULL));
  int bad = 0;
  for (size_t i = 0; i < words; i++) {
    size_t x = i - origin / 4;
    uint32_t want = i >= origin / 4 && x < w ? (uint32_t)(x * 3 + 1 + 100) : 0xEEEEEEEEu;
    if (b[i] != want && bad++ < 4) CHECK_MSG(0, "buffer word %zu is 0x%x, want 0x%x", i, b[i], want);
  }
  CHECK(bad == 0);

  /* host commands on the images reach the buffers */
  uint32_t got[3] = {0}, put[2] = {7000, 7001}, color[4] = {55, 0, 0, 0};
  size_t o2[3] = {2, 0, 0}, r3[3] = {3, 1, 1}, o5[3] = {5, 0, 0}, r2[3] = {2, 1, 1}, o9[3] = {9, 0, 0};
  CHECK_CL(clEnqueueReadImage(q, src, CL_TRUE, o2, r3, 0, 0, got, 0, NULL, NULL));
  CHECK(got[0] == 7 && got[1] == 10 && got[2] == 13);
  CHECK_CL(clEnqueueWriteImage(q, dst, CL_TRUE, o5, r2, 0, 0, put, 0, NULL, NULL));
  CHECK_CL(clEnqueueFillImage(q, dst, color, o9, r2, 0, NULL, NULL));
  size_t mrow = 0;
  uint32_t *mp = clEnqueueMapImage(q, dst, CL_TRUE, CL_MAP_READ, o5, r2, &mrow, NULL, 0, NULL, NULL, &err);
  CHECK_CL(err);
  if (mp) {
    CHECK_MSG(mp[0] == 7000 && mp[1] == 7001 && mrow == w * 4, "mapped %u %u, row pitch %zu", mp[0], mp[1], mrow);
    CHECK_CL(clEnqueueUnmapMemObject(q, dst, mp, 0, NULL, NULL));
  }
  CHECK_CL(clEnqueueReadBuffer(q, bsub, CL_TRUE, 0, w * 4, b, 0, NULL, NULL));
  CHECK_MSG(b[5] == 7000 && b[6] == 7001 && b[9] == 55 && b[10] == 55 && b[8] == 8 * 3 + 101 && b[11] == 11 * 3 + 101,
            "sub-buffer words 5..11: %u %u %u %u %u %u %u", b[5], b[6], b[7], b[8], b[9], b[10], b[11]);
  clReleaseKernel(k);

  /* UNORM_INT8 pixels read as floats */
  uint8_t px[4 * 4] = {0, 255, 51, 102, 255, 0, 0, 255};
  cl_mem pbuf = clCreateBuffer(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof px, px, &err);
  CHECK_CL(err);
  cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc dp = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 2, .buffer = pbuf};
  cl_mem pim = clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &dp, NULL, &err);
  CHECK_CL(err);
  cl_mem fout = clCreateBuffer(env->context, CL_MEM_WRITE_ONLY, 2 * 16, NULL, &err);
  CHECK_CL(err);
  cl_kernel ku = clCreateKernel(p, "unorm", &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(ku, 0, sizeof pim, &pim));
  CHECK_CL(clSetKernelArg(ku, 1, sizeof fout, &fout));
  size_t two = 2;
  CHECK_CL(clEnqueueNDRangeKernel(q, ku, 1, NULL, &two, NULL, 0, NULL, NULL));
  float f[8] = {0};
  CHECK_CL(clEnqueueReadBuffer(q, fout, CL_TRUE, 0, sizeof f, f, 0, NULL, NULL));
  CHECK_MSG(f[0] == 0.0f && f[1] == 1.0f && fabsf(f[2] - 0.2f) < 1e-6f && fabsf(f[3] - 0.4f) < 1e-6f && f[4] == 1.0f &&
                f[7] == 1.0f,
            "read_imagef: %g %g %g %g / %g %g %g %g", f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);
  /* an image1d_buffer_t parameter takes nothing else */
  cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 2};
  cl_mem plain = clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &d1, NULL, &err);
  CHECK_CL(err);
  CHECK_CL_ERR(clSetKernelArg(ku, 0, sizeof plain, &plain), CL_INVALID_MEM_OBJECT);
  CHECK_CL_ERR(clSetKernelArg(ku, 0, sizeof pbuf, &pbuf), CL_INVALID_MEM_OBJECT);
  clReleaseKernel(ku);
  clReleaseProgram(p);

  /* bad creations */
  cl_image_desc big = dp;
  big.image_width = 5; /* 20 bytes of a 16-byte buffer */
  CHECK(!clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &big, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  CHECK_MSG(strstr(cl_test_last_msg, "the buffer has 16"), "message: %s", cl_test_last_msg);
  big.image_width = maxpx + 1;
  CHECK(!clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &big, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  CHECK(!clCreateImage(env->context, CL_MEM_WRITE_ONLY, &rgba8, &dp, NULL, &err) && err == CL_INVALID_VALUE);
  CHECK_MSG(strstr(cl_test_last_msg, "conflict"), "message: %s", cl_test_last_msg);
  CHECK(!clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &dp, px, &err) && err == CL_INVALID_HOST_PTR);
  cl_image_desc on_image = dp;
  on_image.buffer = plain;
  CHECK(!clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &on_image, NULL, &err) &&
        err == CL_INVALID_IMAGE_DESCRIPTOR);
  /* a row pitch (the CTS's kernel_image_methods passes its buffer's size):
   * whole pixels, from the row (8 bytes) to the buffer's 16; no slice pitch */
  cl_image_desc pitched = dp;
  size_t pitches[] = {8, 12, 16, 6, 10, 20};
  for (int i = 0; i < 6; i++) {
    pitched.image_row_pitch = pitches[i];
    cl_mem pm = clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &pitched, NULL, &err);
    if (i < 3) {
      size_t prp = 0;
      CHECK_MSG(err == CL_SUCCESS, "row pitch %zu: %d %s", pitches[i], (int)err, cl_test_last_msg);
      CHECK_CL(clGetImageInfo(pm, CL_IMAGE_ROW_PITCH, sizeof prp, &prp, NULL));
      CHECK_MSG(prp == 8, "row pitch %zu: CL_IMAGE_ROW_PITCH %zu", pitches[i], prp);
    } else {
      CHECK_MSG(!pm && err == CL_INVALID_IMAGE_DESCRIPTOR &&
                    strstr(cl_test_last_msg, "0 or 8 to 16 bytes in steps of 4"),
                "row pitch %zu: %d %s", pitches[i], (int)err, cl_test_last_msg);
    }
    if (pm) clReleaseMemObject(pm);
  }
  pitched.image_row_pitch = 8;
  pitched.image_slice_pitch = 8;
  CHECK(!clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &pitched, NULL, &err) &&
        err == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc d2 = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 2, .image_height = 1, .buffer = pbuf};
  CHECK_MSG(!clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &d2, NULL, &err) && err == CL_INVALID_OPERATION &&
                strstr(cl_test_last_msg, "cl_khr_image2d_from_buffer"),
            "2D image from a buffer: %d %s", (int)err, cl_test_last_msg);
  cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 2, .image_height = 1, .image_depth = 1,
                      .buffer = pbuf};
  CHECK_MSG(!clCreateImage(env->context, CL_MEM_READ_ONLY, &rgba8, &d3, NULL, &err) &&
                err == CL_INVALID_IMAGE_DESCRIPTOR,
            "3D image from a buffer: %d %s", (int)err, cl_test_last_msg);
  cl_buffer_region r0 = {0, 4};
  CHECK(!clCreateSubBuffer(pim, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err) && err == CL_INVALID_MEM_OBJECT);
  clReleaseMemObject(plain), clReleaseMemObject(pim), clReleaseMemObject(pbuf), clReleaseMemObject(fout);
  clReleaseMemObject(info);
out:
  if (src) clReleaseMemObject(src);
  if (dst) clReleaseMemObject(dst);
  if (abuf) clReleaseMemObject(abuf);
  clReleaseMemObject(bsub), clReleaseMemObject(bbuf);
  free(b);
}

/* ---- read_write images -------------------------------------------------- */

static const char rw_src[] =
    "kernel void bump(read_write image2d_t im, read_write image3d_t vol, read_write image1d_buffer_t line,\n"
    "                 global uint *seen) {\n"
    "  int x = get_global_id(0), y = get_global_id(1), i = y * get_image_width(im) + x;\n"
    "  uint4 v = read_imageui(im, (int2)(x, y));\n"
    "  write_imageui(im, (int2)(x, y), v + (uint4)(3, 30, 300, 3000));\n"
    "  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n"
    "  seen[i] = read_imageui(im, (int2)(x, y)).x;\n"
    "  float4 f = read_imagef(vol, (int4)(x, y, 1, 0));\n"
    "  write_imagef(vol, (int4)(x, y, 1, 0), f * 2.0f);\n"
    "  if (y == 0) write_imagei(line, x, read_imagei(line, x) - (int4)(x, 0, 0, 0));\n"
    "  if (i == 0) {\n"
    "    int2 d = get_image_dim(im);\n"
    "    seen[64] = d.x; seen[65] = d.y; seen[66] = get_image_depth(vol); seen[67] = get_image_width(line);\n"
    "    seen[68] = get_image_channel_data_type(im); seen[69] = get_image_channel_order(vol);\n"
    "  }\n"
    "}\n";

/* A read_write image (OpenCL C 2.0 / 3.0 __opencl_c_read_write_images): each
 * work-item reads its pixel, writes it back changed and, after an image
 * fence, reads its own write; the same in a 3D float image and a 1D
 * buffer image; the queries; and the flags a read_write argument refuses. */
static void read_write_images(cl_test_env_t *env, cl_command_queue q) {
  cl_int err;
  const size_t w = 8, h = 4, depth = 3;
  cl_program p = clCreateProgramWithSource(env->context, 1, (const char *[]){rw_src}, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(p, 1, &env->device, "-cl-std=CL3.0 -cl-kernel-arg-info", NULL, NULL));
  cl_kernel k = clCreateKernel(p, "bump", &err);
  CHECK_CL(err);
  if (err != CL_SUCCESS) {
    clReleaseProgram(p);
    return;
  }
  cl_kernel_arg_access_qualifier aq = 0;
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK_MSG(aq == CL_KERNEL_ARG_ACCESS_READ_WRITE, "argument 0's access qualifier 0x%x", (unsigned)aq);

  uint32_t px[8 * 4 * 4], want[8 * 4 * 4];
  for (size_t i = 0; i < w * h * 4; i++) px[i] = (uint32_t)(i * 7 + 1);
  cl_image_format u32 = {CL_RGBA, CL_UNSIGNED_INT32}, f32 = {CL_RGBA, CL_FLOAT}, s32 = {CL_R, CL_SIGNED_INT32};
  cl_image_desc d2 = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h};
  cl_mem im = clCreateImage(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &u32, &d2, px, &err);
  CHECK_CL(err);
  float vox[8 * 4 * 3 * 4];
  for (size_t i = 0; i < w * h * depth * 4; i++) vox[i] = (float)i + 0.5f;
  cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = w, .image_height = h, .image_depth = depth};
  cl_mem vol = clCreateImage(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f32, &d3, vox, &err);
  CHECK_CL(err);
  int32_t ln[8];
  for (size_t i = 0; i < w; i++) ln[i] = (int32_t)(100 + i * 11);
  cl_mem lbuf = clCreateBuffer(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ln, ln, &err);
  CHECK_CL(err);
  cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = w, .buffer = lbuf};
  cl_mem line = clCreateImage(env->context, CL_MEM_READ_WRITE, &s32, &d1, NULL, &err);
  CHECK_CL(err);
  cl_mem seen = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 70 * 4, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof im, &im));
  CHECK_CL(clSetKernelArg(k, 1, sizeof vol, &vol));
  CHECK_CL(clSetKernelArg(k, 2, sizeof line, &line));
  CHECK_CL(clSetKernelArg(k, 3, sizeof seen, &seen));
  const size_t g[2] = {w, h}, l[2] = {4, 2};
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, NULL, g, l, 0, NULL, NULL));

  uint32_t got[8 * 4 * 4], saw[70];
  float vgot[8 * 4 * 3 * 4];
  int32_t lgot[8];
  const size_t o[3] = {0, 0, 0}, r2[3] = {w, h, 1}, r3[3] = {w, h, depth};
  CHECK_CL(clEnqueueReadImage(q, im, CL_TRUE, o, r2, 0, 0, got, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadImage(q, vol, CL_TRUE, o, r3, 0, 0, vgot, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, lbuf, CL_TRUE, 0, sizeof lgot, lgot, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, seen, CL_TRUE, 0, sizeof saw, saw, 0, NULL, NULL));
  const uint32_t add[4] = {3, 30, 300, 3000};
  unsigned bad = 0;
  for (size_t i = 0; i < w * h * 4; i++) {
    want[i] = px[i] + add[i % 4];
    if (got[i] != want[i] && bad++ < 4) fprintf(stderr, "  rw 2D value %zu: %u, expected %u\n", i, got[i], want[i]);
  }
  for (size_t i = 0; i < w * h; i++)
    if (saw[i] != want[i * 4] && bad++ < 8)
      fprintf(stderr, "  rw pixel %zu read back %u after its write, expected %u\n", i, saw[i], want[i * 4]);
  for (size_t i = 0; i < w * h * depth * 4; i++) {
    const float e = i / (w * h * 4) == 1 ? vox[i] * 2.0f : vox[i]; /* only slice 1 changes */
    if (vgot[i] != e && bad++ < 12) fprintf(stderr, "  rw 3D value %zu: %g, expected %g\n", i, vgot[i], e);
  }
  for (size_t i = 0; i < w; i++)
    if (lgot[i] != (int32_t)(100 + i * 10) && bad++ < 16)
      fprintf(stderr, "  rw buffer image %zu: %d, expected %d\n", i, lgot[i], (int)(100 + i * 10));
  CHECK_MSG(bad == 0, "%u wrong values through read_write images", bad);
  CHECK_MSG(saw[64] == w && saw[65] == h && saw[66] == depth && saw[67] == w && saw[68] == CL_UNSIGNED_INT32 &&
                saw[69] == CL_RGBA,
            "read_write queries: dim %ux%u, depth %u, width %u, type 0x%x, order 0x%x", saw[64], saw[65], saw[66],
            saw[67], saw[68], saw[69]);

  /* a read_write argument takes neither a read-only nor a write-only image */
  for (int i = 0; i < 2; i++) {
    cl_mem_flags fl = i ? CL_MEM_WRITE_ONLY : CL_MEM_READ_ONLY;
    cl_mem one = clCreateImage(env->context, fl, &u32, &d2, NULL, &err);
    CHECK_CL(err);
    CHECK_CL_ERR(clSetKernelArg(k, 0, sizeof one, &one), CL_INVALID_ARG_VALUE);
    clReleaseMemObject(one);
  }
  clReleaseMemObject(seen);
  clReleaseMemObject(line);
  clReleaseMemObject(lbuf);
  clReleaseMemObject(vol);
  clReleaseMemObject(im);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void bad_creations(cl_test_env_t *env) {
  cl_int err;
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  uint8_t host[4 * 4 * 4 * 2];
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, NULL, &d, NULL, &err) &&
        err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, &f, NULL, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_format rgb = {CL_RGB, CL_UNORM_INT8};
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, &rgb, &d, NULL, &err) && err == CL_IMAGE_FORMAT_NOT_SUPPORTED);
  cl_image_format junk = {0x1234, CL_UNORM_INT8};
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, &junk, &d, NULL, &err) &&
        err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  cl_image_desc d0 = d;
  d0.image_width = 0;
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, &f, &d0, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  cl_image_desc dp = d;
  dp.image_row_pitch = 8; /* less than 4 pixels of 4 bytes */
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &dp, host, &err) &&
        err == CL_INVALID_IMAGE_DESCRIPTOR);
  dp.image_row_pitch = 32; /* a pitch without host_ptr */
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, &f, &dp, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, &f, &d, host, &err) && err == CL_INVALID_HOST_PTR);
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &f, &d, NULL, &err) &&
        err == CL_INVALID_HOST_PTR);
  cl_image_desc db = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 4};
  CHECK(!clCreateImage(env->context, CL_MEM_READ_WRITE, &f, &db, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK_MSG(strstr(cl_test_last_msg, "needs its buffer"), "message: %s", cl_test_last_msg);
  /* a padded host row pitch is honoured; the 1.1 entry point */
  for (size_t i = 0; i < sizeof host; i++) host[i] = (uint8_t)i;
  cl_mem m = clCreateImage2D(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, 4, 4, 32, host, &err);
  CHECK_CL(err);
  size_t rp = 0, mem_size = 0, wd = 0, ht = 0, dpth = 9;
  clGetImageInfo(m, CL_IMAGE_ROW_PITCH, sizeof rp, &rp, NULL);
  clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof wd, &wd, NULL);
  clGetImageInfo(m, CL_IMAGE_HEIGHT, sizeof ht, &ht, NULL);
  clGetImageInfo(m, CL_IMAGE_DEPTH, sizeof dpth, &dpth, NULL);
  clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof mem_size, &mem_size, NULL);
  cl_mem_object_type t = 0;
  clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL);
  CHECK(rp == 16 && wd == 4 && ht == 4 && dpth == 0 && mem_size == 64 && t == CL_MEM_OBJECT_IMAGE2D);
  cl_int e2 = CL_SUCCESS;
  cl_command_queue q = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &e2);
  uint8_t back[64];
  size_t o0[3] = {0, 0, 0}, r[3] = {4, 4, 1};
  CHECK_CL(clEnqueueReadImage(q, m, CL_TRUE, o0, r, 0, 0, back, 0, NULL, NULL));
  CHECK(back[16] == 32 && back[63] == 3 * 32 + 15);
  clReleaseCommandQueue(q);
  clReleaseMemObject(m);
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env)) return 1;
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  CHECK_CL(err);
  queries(&env);
  bad_creations(&env);
  every_format(&env, q);
  channel_values(&env, q);
  samplers(&env, q);
  dims(&env, q);
  transfers(&env, q);
  host_ptr_maps(&env, q);
  buffer_images(&env, q);
  read_write_images(&env, q);
  clReleaseCommandQueue(q);
  clReleaseContext(env.context);
  return check_result("icd.images");
}
