/* Images: 1D, 2D, 3D, 1D array and 2D array. An image is a memory object
 * whose allocation holds the descriptor the built-ins read
 * (abi/rvhal/rvhal_image.h) and then its pixels, packed: a row is
 * width * pixel bytes, a slice rows * row. Reads, writes, copies and fills
 * are boxes of those bytes (transfer.c's rvcl_enqueue_box), maps a byte
 * range (map.c); contexts of several devices keep the whole allocation
 * current as a buffer's (mem_coherence.c). A 1D buffer image is a view
 * of its buffer's bytes, as a sub-buffer is (so the buffer's copies and
 * maps serve it), with its descriptor in an allocation of its own. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"
#include "image_format.h"
#include "rvhal/rvhal_image.h"

_Static_assert(RVHAL_IMAGE_2D == CL_MEM_OBJECT_IMAGE2D && RVHAL_IMAGE_3D == CL_MEM_OBJECT_IMAGE3D &&
                   RVHAL_IMAGE_2D_ARRAY == CL_MEM_OBJECT_IMAGE2D_ARRAY && RVHAL_IMAGE_1D == CL_MEM_OBJECT_IMAGE1D &&
                   RVHAL_IMAGE_1D_ARRAY == CL_MEM_OBJECT_IMAGE1D_ARRAY &&
                   RVHAL_IMAGE_1D_BUFFER == CL_MEM_OBJECT_IMAGE1D_BUFFER,
               "the descriptor's image types are OpenCL's");

/* ---- geometry ------------------------------------------------------------------ */

/* Extent along the three axes of an image's boxes: x, then rows (or a 1D
 * array's layers), then slices (or a 2D array's layers). */
static void extent(const rvcl_image_t *im, size_t e[3]) {
  const cl_image_desc *d = &im->desc;
  e[0] = d->image_width;
  e[1] = e[2] = 1;
  switch (d->image_type) {
  case CL_MEM_OBJECT_IMAGE2D: e[1] = d->image_height; break;
  case CL_MEM_OBJECT_IMAGE3D: e[1] = d->image_height, e[2] = d->image_depth; break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: e[1] = d->image_array_size; break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: e[1] = d->image_height, e[2] = d->image_array_size; break;
  }
}

static int is_image(cl_mem m) { return RVCL_VALID(m, RVCL_MAGIC_MEM) && m->image; }

/* origin/region inside the image, and 0 / 1 where the image has no such axis. */
static cl_int check_region(const char *fn, cl_mem m, const size_t *origin, const size_t *region, const char *which) {
  cl_context c = m->context;
  if (!origin || !region) return rvcl_fail(c, fn, CL_INVALID_VALUE, "%s origin or region is NULL", which);
  size_t e[3];
  extent(m->image, e);
  cl_mem_object_type t = m->type;
  int dims = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? 1
             : t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 2 : 3;
  for (int k = 0; k < 3; k++) {
    if (region[k] == 0)
      return rvcl_fail(c, fn, CL_INVALID_VALUE, "%s region {%zu, %zu, %zu} has a 0", which, region[0], region[1],
                       region[2]);
    if (k >= dims && (origin[k] != 0 || region[k] != 1))
      return rvcl_fail(c, fn, CL_INVALID_VALUE,
                       "%s origin[%d] = %zu, region[%d] = %zu: the image has %d dimension(s), so they are 0 and 1",
                       which, k, origin[k], k, region[k], dims);
    if (origin[k] > e[k] || region[k] > e[k] - origin[k])
      return rvcl_fail(c, fn, CL_INVALID_VALUE,
                       "%s origin {%zu, %zu, %zu} + region {%zu, %zu, %zu} is outside the %zu x %zu x %zu image",
                       which, origin[0], origin[1], origin[2], region[0], region[1], region[2], e[0], e[1], e[2]);
  }
  return CL_SUCCESS;
}

/* The image's bytes from origin as a box: x in bytes past the descriptor. */
static rvcl_box_t image_box(const rvcl_image_t *im, const size_t origin[3]) {
  rvcl_box_t b = {{im->data_offset + origin[0] * im->elem_size, origin[1], origin[2]}, im->row_pitch,
                  im->slice_pitch};
  return b;
}

/* The region in bytes along x. */
static void byte_region(const rvcl_image_t *im, const size_t region[3], size_t out[3]) {
  out[0] = region[0] * im->elem_size;
  out[1] = region[1];
  out[2] = region[2];
}

/* ---- creation ------------------------------------------------------------------ */

static cl_int check_desc(const char *fn, cl_context c, const cl_image_format *fmt, const cl_image_desc *d) {
  if (!fmt) return rvcl_fail(c, fn, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
  if (!d) return rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  cl_mem_object_type t = d->image_type;
  if (t != CL_MEM_OBJECT_IMAGE1D && t != CL_MEM_OBJECT_IMAGE2D && t != CL_MEM_OBJECT_IMAGE3D &&
      t != CL_MEM_OBJECT_IMAGE1D_ARRAY && t != CL_MEM_OBJECT_IMAGE2D_ARRAY && t != CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR, "image_type 0x%x is not an image type", (unsigned)t);
  if (d->num_mip_levels || d->num_samples)
    return rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR, "num_mip_levels %u and num_samples %u must be 0",
                     d->num_mip_levels, d->num_samples);
  /* OpenCL 3.0 clCreateImage: a 2D image from a buffer without
   * cl_khr_image2d_from_buffer is an unsupported operation, not a bad
   * descriptor (the CTS's consistency_2d_image_from_buffer checks it). */
  if (t == CL_MEM_OBJECT_IMAGE2D && d->buffer)
    return rvcl_fail(c, fn, CL_INVALID_OPERATION,
                     "image_type CL_MEM_OBJECT_IMAGE2D with buffer %p: 2D images from buffers need "
                     "cl_khr_image2d_from_buffer, which this platform does not support "
                     "(CL_DEVICE_IMAGE_PITCH_ALIGNMENT is 0)",
                     (void *)d->buffer);
  if ((t == CL_MEM_OBJECT_IMAGE1D_BUFFER) != (d->buffer != NULL))
    return rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR, "image_type 0x%x with buffer %p: %s", (unsigned)t,
                     (void *)d->buffer,
                     d->buffer ? "only a 1D buffer image is made from a buffer" : "a 1D buffer image needs its buffer");
  if (!rvcl_image_format_supported(fmt)) {
    int known = fmt->image_channel_order >= CL_R && fmt->image_channel_order <= CL_ABGR &&
                fmt->image_channel_data_type >= CL_SNORM_INT8 && fmt->image_channel_data_type <= CL_UNORM_INT_101010_2;
    return rvcl_fail(c, fn, known ? CL_IMAGE_FORMAT_NOT_SUPPORTED : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                     "image format {order 0x%x, type 0x%x} is %s (clGetSupportedImageFormats lists those supported)",
                     (unsigned)fmt->image_channel_order, (unsigned)fmt->image_channel_data_type,
                     known ? "not supported" : "not an OpenCL format");
  }
  for (cl_uint i = 0; i < c->num_devices; i++) {
    cl_device_id dev = c->devices[i];
    size_t m2 = rvcl_image2d_max(dev), m3 = rvcl_image3d_max(dev), ma = rvcl_image_array_max(dev);
    size_t w = d->image_width, h = d->image_height, dp = d->image_depth, a = d->image_array_size;
    size_t wmax = t == CL_MEM_OBJECT_IMAGE3D ? m3 : t == CL_MEM_OBJECT_IMAGE1D_BUFFER ? rvcl_image_buffer_max(dev) : m2;
    int bad = w == 0 || w > wmax;
    if (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) bad |= h == 0 || h > m2;
    if (t == CL_MEM_OBJECT_IMAGE3D) bad |= h == 0 || h > m3 || dp == 0 || dp > m3;
    if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) bad |= a == 0 || a > ma;
    if (bad)
      return rvcl_fail(c, fn, CL_INVALID_IMAGE_SIZE,
                       "width %zu, height %zu, depth %zu, array size %zu: device %s takes 1 to %zu (2D), %zu (3D), "
                       "%zu layers, %zu pixels (1D buffer)",
                       w, h, dp, a, dev->info.name, m2, m3, ma, rvcl_image_buffer_max(dev));
  }
  return CL_SUCCESS;
}

/* The descriptor the built-ins read; data_addr: where a 1D buffer
 * image's pixels are on the device it is for (0: after the descriptor). */
static rvhal_image_desc_t device_desc(const rvcl_image_t *im, hal_addr_t data_addr) {
  const cl_image_desc *d = &im->desc;
  cl_mem_object_type t = d->image_type;
  size_t e[3];
  extent(im, e);
  rvhal_image_desc_t dd = {0};
  dd.width = (uint32_t)e[0];
  dd.height = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY
                  ? (uint32_t)d->image_height
                  : 1;
  dd.depth = t == CL_MEM_OBJECT_IMAGE3D ? (uint32_t)d->image_depth : 1;
  dd.array_size =
      t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? (uint32_t)d->image_array_size : 0;
  dd.row_pitch = (uint32_t)im->row_pitch;
  dd.slice_pitch = (uint32_t)im->slice_pitch;
  dd.channel_order = im->format.image_channel_order;
  dd.channel_type = im->format.image_channel_data_type;
  dd.elem_size = (uint32_t)im->elem_size;
  dd.num_channels = rvcl_image_format_channels(&im->format);
  dd.image_type = (uint32_t)t;
  dd.data_offset = (uint32_t)im->data_offset;
  dd.data_addr_lo = (uint32_t)data_addr;
  dd.data_addr_hi = (uint32_t)((uint64_t)data_addr >> 32);
  return dd;
}

/* A 1D buffer image: a view of the buffer's first width pixels (the
 * buffer's copies, maps and coherence serve it) and, on each device of the
 * context, a descriptor holding where the buffer is on that device (fixed
 * while the buffer lives). */
static cl_mem create_buffer_image(const char *fn, cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                  const cl_image_desc *desc, void *host_ptr, cl_int *err) {
  cl_mem b = desc->buffer;
  if (!RVCL_VALID(b, RVCL_MAGIC_MEM) || b->image || b->context != c) {
    *err = rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc->buffer %p is not a buffer of this context",
                     (void *)b);
    return NULL;
  }
  if (host_ptr) {
    *err = rvcl_fail(c, fn, CL_INVALID_HOST_PTR, "a 1D buffer image takes no host_ptr (its pixels are its buffer's)");
    return NULL;
  }
  if ((*err = rvcl_mem_view_flags(fn, b, &flags)) != CL_SUCCESS) return NULL;
  size_t elem = rvcl_image_format_size(fmt), bytes = desc->image_width * elem; /* width is bounded by check_desc */
  if (bytes > b->size) {
    *err = rvcl_fail(c, fn, CL_INVALID_IMAGE_SIZE, "%zu pixels of %zu bytes take %zu bytes; the buffer has %zu",
                     desc->image_width, elem, bytes, b->size);
    return NULL;
  }
  /* The spec asks for a row pitch of 0 without host_ptr, but the CTS
   * (kernel_image_methods, 1D buffer) passes its buffer's size, as a 2D
   * image from a buffer would: one row has nothing to pace, so a pitch of
   * whole pixels from the row up to the buffer's size is taken. */
  size_t rp = desc->image_row_pitch;
  if ((rp && (rp < bytes || rp % elem || rp > b->size)) || desc->image_slice_pitch) {
    *err = rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR,
                     "image_row_pitch %zu / image_slice_pitch %zu: a 1D buffer image of %zu bytes in a buffer of %zu "
                     "takes 0 for the slice pitch and 0 or %zu to %zu bytes in steps of %zu for the row pitch",
                     rp, desc->image_slice_pitch, bytes, b->size, bytes, b->size, elem);
    return NULL;
  }
  rvcl_image_t *im = calloc(1, sizeof *im);
  cl_mem m = im ? rvcl_mem_view(b, flags, 0, bytes) : NULL;
  cl_mem dm = m ? rvcl_mem_new(c, CL_MEM_READ_ONLY, sizeof(rvhal_image_desc_t)) : NULL;
  if (!dm) {
    if (m) rvcl_mem_release(m);
    free(im);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  *im = (rvcl_image_t){.format = *fmt, .desc = *desc, .elem_size = elem, .row_pitch = bytes, .slice_pitch = bytes,
                       .buffer = b, .desc_mem = dm};
  rvcl_mem_retain(b);
  m->type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
  m->image = im; /* from here, releasing m releases b and dm */
  int st;
  rvhal_device_t *rv = rvcl_device_rv(rvcl_context_device(c), &st);
  if (rv) st = rvcl_mem_alloc_with(dm, rv, NULL, 0);
  for (cl_uint i = 0; st == RVHAL_OK && i < c->num_devices; i++) {
    cl_mem root = m->parent;
    rvhal_device_t *di = rvcl_device_rv(c->devices[i], &st);
    if (!di) break;
    rvhal_image_desc_t dd = device_desc(im, (root->dev_addr ? root->dev_addr[i] : root->addr) + m->origin);
    st = rvhal_mem_write(di, dm->dev_addr ? dm->dev_addr[i] : dm->addr, &dd, sizeof dd);
  }
  if (st != RVHAL_OK) {
    *err = rvcl_fail_rvhal(c, fn, CL_MEM_OBJECT_ALLOCATION_FAILURE, st);
    rvcl_mem_release(m);
    return NULL;
  }
  *err = CL_SUCCESS;
  return m;
}

static cl_mem create_image(const char *fn, cl_context c, const cl_mem_properties *props, cl_mem_flags flags,
                           const cl_image_format *fmt, const cl_image_desc *desc, void *host_ptr, cl_int *err) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
    return NULL;
  }
  if (props && props[0]) {
    *err = rvcl_fail(c, fn, CL_INVALID_PROPERTY, "image property 0x%llx is not supported", (unsigned long long)props[0]);
    return NULL;
  }
  if ((*err = rvcl_mem_check_flags(fn, c, flags)) != CL_SUCCESS) return NULL;
  if ((*err = check_desc(fn, c, fmt, desc)) != CL_SUCCESS) return NULL;
  if (desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return create_buffer_image(fn, c, flags, fmt, desc, host_ptr, err);
  if (!(flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY))) flags |= CL_MEM_READ_WRITE;
  int wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if (wants_ptr != (host_ptr != NULL)) {
    *err = rvcl_fail(c, fn, CL_INVALID_HOST_PTR, "host_ptr=%p with flags 0x%llx", host_ptr, (unsigned long long)flags);
    return NULL;
  }
  rvcl_image_t *im = calloc(1, sizeof *im);
  if (!im) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  im->format = *fmt;
  im->desc = *desc;
  im->elem_size = rvcl_image_format_size(fmt);
  im->data_offset = RVHAL_IMAGE_DATA_OFFSET;
  cl_mem_object_type t = desc->image_type;
  size_t e[3];
  extent(im, e);
  im->row_pitch = e[0] * im->elem_size;
  /* a 1D array's layers are rows: its "slice" (a layer) is one row */
  im->slice_pitch = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? im->row_pitch : im->row_pitch * e[1];
  /* host_ptr's pitches: 0 for the packed ones; a 1D array's layers are slice_pitch apart there */
  size_t hrow = desc->image_row_pitch, hslice = desc->image_slice_pitch;
  int layered_1d = t == CL_MEM_OBJECT_IMAGE1D_ARRAY, has_slices = t == CL_MEM_OBJECT_IMAGE3D ||
                                                                 t == CL_MEM_OBJECT_IMAGE2D_ARRAY || layered_1d;
  if (!host_ptr && (hrow || hslice)) {
    free(im);
    *err = rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR, "image_row_pitch %zu / image_slice_pitch %zu without host_ptr",
                     hrow, hslice);
    return NULL;
  }
  if (!hrow) hrow = im->row_pitch;
  if (!hslice) hslice = layered_1d ? hrow : hrow * (t == CL_MEM_OBJECT_IMAGE1D ? 1 : desc->image_height);
  if (host_ptr && (hrow < im->row_pitch || hrow % im->elem_size ||
                   (has_slices && (hslice < (layered_1d ? hrow : hrow * desc->image_height) || hslice % hrow)))) {
    *err = rvcl_fail(c, fn, CL_INVALID_IMAGE_DESCRIPTOR,
                     "image_row_pitch %zu / image_slice_pitch %zu are too small for a %zu-pixel row of %zu-byte pixels "
                     "(or not multiples of the pixel and row)",
                     hrow, hslice, e[0], im->elem_size);
    free(im);
    return NULL;
  }
  im->host_row_pitch = hrow;
  im->host_slice_pitch = hslice;
  uint64_t pixels = (uint64_t)im->row_pitch * e[1] * e[2];
  uint64_t total = RVHAL_IMAGE_DATA_OFFSET + pixels;
  for (cl_uint i = 0; i < c->num_devices; i++)
    if (total > c->devices[i]->info.global_mem_size || total > UINT32_MAX) {
      free(im);
      *err = rvcl_fail(c, fn, CL_INVALID_IMAGE_SIZE, "the image takes %llu bytes; device %s's largest allocation is %llu",
                       (unsigned long long)total, c->devices[i]->info.name,
                       (unsigned long long)c->devices[i]->info.global_mem_size);
      return NULL;
    }
  int st;
  rvhal_device_t *rv = rvcl_device_rv(rvcl_context_device(c), &st);
  uint8_t *staging = rv ? calloc(1, (size_t)(wants_ptr || c->num_devices > 1 ? total : RVHAL_IMAGE_DATA_OFFSET)) : NULL;
  cl_mem m = staging ? rvcl_mem_new(c, flags, (size_t)total) : NULL;
  if (!m) {
    free(im);
    free(staging);
    *err = rv ? CL_OUT_OF_HOST_MEMORY : rvcl_fail_rvhal(c, fn, CL_OUT_OF_RESOURCES, st);
    return NULL;
  }
  m->type = t;
  m->image = im;
  if (flags & CL_MEM_USE_HOST_PTR) im->host_ptr = host_ptr;
  rvhal_image_desc_t dd = device_desc(im, 0);
  memcpy(staging, &dd, sizeof dd);
  if (wants_ptr) /* host rows (layers of a 1D array: slices) into the packed layout */
    for (size_t z = 0; z < e[2]; z++)
      for (size_t y = 0; y < e[1]; y++)
        memcpy(staging + RVHAL_IMAGE_DATA_OFFSET + z * im->slice_pitch + y * im->row_pitch,
               (const uint8_t *)host_ptr + (layered_1d ? y * hslice : z * hslice + y * hrow), im->row_pitch);
  st = rvcl_mem_alloc_with(m, rv, staging, wants_ptr ? (size_t)total : RVHAL_IMAGE_DATA_OFFSET);
  free(staging);
  if (st != RVHAL_OK) {
    *err = rvcl_fail_rvhal(c, fn, CL_MEM_OBJECT_ALLOCATION_FAILURE, st);
    rvcl_mem_release(m);
    return NULL;
  }
  *err = CL_SUCCESS;
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context c, cl_mem_flags flags, const cl_image_format *fmt,
                                              const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  return create_image("clCreateImage", c, NULL, flags, fmt, desc, host_ptr, err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context c, const cl_mem_properties *props,
                                                            cl_mem_flags flags, const cl_image_format *fmt,
                                                            const cl_image_desc *desc, void *host_ptr,
                                                            cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  cl_mem m = create_image("clCreateImageWithProperties", c, props, flags, fmt, desc, host_ptr, err);
  if (m && props) m->num_props = 1; /* the terminating 0 */
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt, size_t w,
                                                size_t h, size_t row_pitch, void *host_ptr, cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h,
                     .image_row_pitch = row_pitch};
  return create_image("clCreateImage2D", c, NULL, flags, fmt, &d, host_ptr, err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context c, cl_mem_flags flags, const cl_image_format *fmt, size_t w,
                                                size_t h, size_t depth, size_t row_pitch, size_t slice_pitch,
                                                void *host_ptr, cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = w, .image_height = h, .image_depth = depth,
                     .image_row_pitch = row_pitch, .image_slice_pitch = slice_pitch};
  return create_image("clCreateImage3D", c, NULL, flags, fmt, &d, host_ptr, err);
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context c, cl_mem_flags flags, cl_mem_object_type t,
                                                           cl_uint num, cl_image_format *fmts, cl_uint *num_ret) {
  static const char *fn = "clGetSupportedImageFormats";
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) return rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
  cl_int err = rvcl_mem_check_flags(fn, c, flags & ~(cl_mem_flags)CL_MEM_KERNEL_READ_AND_WRITE);
  if (err != CL_SUCCESS) return err;
  if (t != CL_MEM_OBJECT_IMAGE1D && t != CL_MEM_OBJECT_IMAGE2D && t != CL_MEM_OBJECT_IMAGE3D &&
      t != CL_MEM_OBJECT_IMAGE1D_ARRAY && t != CL_MEM_OBJECT_IMAGE2D_ARRAY && t != CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "image_type 0x%x is not an image type", (unsigned)t);
  if (fmts && num == 0) return rvcl_fail(c, fn, CL_INVALID_VALUE, "image_formats is given with num_entries 0");
  /* The same for every access, CL_MEM_KERNEL_READ_AND_WRITE too: the
   * built-ins read and write every format they list. */
  size_t n = rvcl_image_formats(fmts, fmts ? num : 0);
  if (num_ret) *num_ret = (cl_uint)n;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info name, size_t size, void *value,
                                               size_t *size_ret) {
  if (!is_image(m)) return rvcl_fail(NULL, "clGetImageInfo", CL_INVALID_MEM_OBJECT, "%p is not an image", (void *)m);
  const rvcl_image_t *im = m->image;
  const cl_image_desc *d = &im->desc;
  cl_mem_object_type t = m->type;
  switch (name) {
  case CL_IMAGE_FORMAT: return rvcl_info(&im->format, sizeof im->format, size, value, size_ret);
  case CL_IMAGE_ELEMENT_SIZE: return rvcl_info(&im->elem_size, sizeof im->elem_size, size, value, size_ret);
  case CL_IMAGE_ROW_PITCH: return rvcl_info(&im->row_pitch, sizeof im->row_pitch, size, value, size_ret);
  case CL_IMAGE_SLICE_PITCH: {
    size_t s = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE1D_ARRAY
                   ? im->slice_pitch
                   : 0;
    return rvcl_info(&s, sizeof s, size, value, size_ret);
  }
  case CL_IMAGE_WIDTH: return rvcl_info(&d->image_width, sizeof(size_t), size, value, size_ret);
  case CL_IMAGE_HEIGHT: {
    size_t h = t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY
                   ? d->image_height
                   : 0;
    return rvcl_info(&h, sizeof h, size, value, size_ret);
  }
  case CL_IMAGE_DEPTH: {
    size_t dp = t == CL_MEM_OBJECT_IMAGE3D ? d->image_depth : 0;
    return rvcl_info(&dp, sizeof dp, size, value, size_ret);
  }
  case CL_IMAGE_ARRAY_SIZE: {
    size_t a = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? d->image_array_size : 0;
    return rvcl_info(&a, sizeof a, size, value, size_ret);
  }
  case CL_IMAGE_BUFFER: return rvcl_info(&im->buffer, sizeof im->buffer, size, value, size_ret);
  case CL_IMAGE_NUM_MIP_LEVELS: case CL_IMAGE_NUM_SAMPLES: {
    cl_uint zero = 0;
    return rvcl_info(&zero, sizeof zero, size, value, size_ret);
  }
  }
  return rvcl_fail(m->context, "clGetImageInfo", CL_INVALID_VALUE, "param_name 0x%x is not an image query",
                   (unsigned)name);
}

/* ---- commands ------------------------------------------------------------------ */

static cl_int check_queue_image(const char *fn, cl_command_queue q, cl_mem m, const char *which) {
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p is not a queue", (void *)q);
  if (!is_image(m)) return rvcl_fail(q->context, fn, CL_INVALID_MEM_OBJECT, "%s %p is not an image", which, (void *)m);
  if (m->context != q->context)
    return rvcl_fail(q->context, fn, CL_INVALID_CONTEXT, "%s belongs to another context than the queue", which);
  return CL_SUCCESS;
}

/* A host box for a region of the image: default pitches packed; a 1D
 * array's layers are slice_pitch apart (they are the box's rows). */
static cl_int host_box(const char *fn, cl_mem m, const size_t region[3], size_t row, size_t slice, rvcl_box_t *b) {
  const rvcl_image_t *im = m->image;
  cl_mem_object_type t = m->type;
  size_t min_row = region[0] * im->elem_size;
  if (!row) row = min_row;
  int layered_1d = t == CL_MEM_OBJECT_IMAGE1D_ARRAY, has_slices = layered_1d || t == CL_MEM_OBJECT_IMAGE3D ||
                                                                  t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (!slice) slice = layered_1d ? row : row * region[1];
  if (row < min_row || (has_slices && slice < (layered_1d ? row : row * region[1])))
    return rvcl_fail(m->context, fn, CL_INVALID_VALUE, "row_pitch %zu / slice_pitch %zu do not fit a region of {%zu, %zu, %zu} pixels of %zu bytes",
                     row, slice, region[0], region[1], region[2], im->elem_size);
  *b = (rvcl_box_t){{0, 0, 0}, layered_1d ? slice : row, layered_1d ? 0 : slice};
  return CL_SUCCESS;
}

static cl_int read_write(const char *fn, cl_command_type type, rvcl_box_kind_t kind, cl_command_queue q, cl_mem m,
                         cl_bool blocking, const size_t *origin, const size_t *region, size_t row, size_t slice,
                         void *ptr, cl_uint n, const cl_event *list, cl_event *out) {
  cl_int err = check_queue_image(fn, q, m, "image");
  if (err == CL_SUCCESS) err = check_region(fn, m, origin, region, "image");
  if (err == CL_SUCCESS && !ptr) err = rvcl_fail(q->context, fn, CL_INVALID_VALUE, "ptr is NULL");
  if (err == CL_SUCCESS)
    err = rvcl_mem_host_access(fn, m,
                               kind == RVCL_BOX_READ ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                                                     : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                               kind == RVCL_BOX_READ ? "read" : "write");
  rvcl_box_t hb;
  if (err == CL_SUCCESS) err = host_box(fn, m, region, row, slice, &hb);
  if (err != CL_SUCCESS) return err;
  rvcl_box_t ib = image_box(m->image, origin);
  size_t r[3];
  byte_region(m->image, region, r);
  return rvcl_enqueue_box(fn, type, kind, q, m, &ib, NULL, ptr, &hb, r, NULL, blocking, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem m, cl_bool blocking, const size_t *origin,
                                                   const size_t *region, size_t row, size_t slice, void *ptr,
                                                   cl_uint n, const cl_event *list, cl_event *out) {
  return read_write("clEnqueueReadImage", CL_COMMAND_READ_IMAGE, RVCL_BOX_READ, q, m, blocking, origin, region, row,
                    slice, ptr, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem m, cl_bool blocking,
                                                    const size_t *origin, const size_t *region, size_t row,
                                                    size_t slice, const void *ptr, cl_uint n, const cl_event *list,
                                                    cl_event *out) {
  return read_write("clEnqueueWriteImage", CL_COMMAND_WRITE_IMAGE, RVCL_BOX_WRITE, q, m, blocking, origin, region, row,
                    slice, (void *)ptr, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so,
                                                   const size_t *dorg, const size_t *region, cl_uint n,
                                                   const cl_event *list, cl_event *out) {
  static const char *fn = "clEnqueueCopyImage";
  cl_int err = check_queue_image(fn, q, src, "src_image");
  if (err == CL_SUCCESS) err = check_queue_image(fn, q, dst, "dst_image");
  if (err != CL_SUCCESS) return err;
  const rvcl_image_t *a = src->image, *b = dst->image;
  if (a->format.image_channel_order != b->format.image_channel_order ||
      a->format.image_channel_data_type != b->format.image_channel_data_type)
    return rvcl_fail(q->context, fn, CL_IMAGE_FORMAT_MISMATCH, "the images' formats differ");
  if ((err = check_region(fn, src, so, region, "source")) != CL_SUCCESS) return err;
  if ((err = check_region(fn, dst, dorg, region, "destination")) != CL_SUCCESS) return err;
  if (src == dst) {
    int overlap = 1;
    for (int k = 0; k < 3; k++)
      if (so[k] + region[k] <= dorg[k] || dorg[k] + region[k] <= so[k]) overlap = 0;
    if (overlap) return rvcl_fail(q->context, fn, CL_MEM_COPY_OVERLAP, "the source and destination regions overlap");
  }
  rvcl_box_t sb = image_box(a, so), db = image_box(b, dorg);
  size_t r[3];
  byte_region(a, region, r);
  return rvcl_enqueue_box(fn, CL_COMMAND_COPY_IMAGE, RVCL_BOX_COPY, q, src, &sb, dst, NULL, &db, r, NULL, CL_FALSE, n,
                          list, out);
}

/* Between an image's region and a buffer's packed bytes from offset. */
static cl_int image_buffer(const char *fn, cl_command_type type, cl_command_queue q, cl_mem image, cl_mem buffer,
                           int to_buffer, const size_t *origin, const size_t *region, size_t offset, cl_uint n,
                           const cl_event *list, cl_event *out) {
  cl_int err = check_queue_image(fn, q, image, to_buffer ? "src_image" : "dst_image");
  if (err != CL_SUCCESS) return err;
  if (!RVCL_VALID(buffer, RVCL_MAGIC_MEM) || buffer->image)
    return rvcl_fail(q->context, fn, CL_INVALID_MEM_OBJECT, "%p is not a buffer", (void *)buffer);
  if (buffer->context != q->context)
    return rvcl_fail(q->context, fn, CL_INVALID_CONTEXT, "the buffer belongs to another context than the queue");
  if ((err = check_region(fn, image, origin, region, "image")) != CL_SUCCESS) return err;
  const rvcl_image_t *im = image->image;
  size_t bytes = region[0] * im->elem_size * region[1] * region[2];
  if ((err = rvcl_mem_range(fn, buffer, offset, bytes)) != CL_SUCCESS) return err;
  rvcl_box_t ib = image_box(im, origin);
  rvcl_box_t bb = {{offset, 0, 0}, region[0] * im->elem_size, region[0] * im->elem_size * region[1]};
  size_t r[3];
  byte_region(im, region, r);
  if (to_buffer)
    return rvcl_enqueue_box(fn, type, RVCL_BOX_COPY, q, image, &ib, buffer, NULL, &bb, r, NULL, CL_FALSE, n, list, out);
  return rvcl_enqueue_box(fn, type, RVCL_BOX_COPY, q, buffer, &bb, image, NULL, &ib, r, NULL, CL_FALSE, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst,
                                                           const size_t *origin, const size_t *region, size_t offset,
                                                           cl_uint n, const cl_event *list, cl_event *out) {
  return image_buffer("clEnqueueCopyImageToBuffer", CL_COMMAND_COPY_IMAGE_TO_BUFFER, q, src, dst, 1, origin, region,
                      offset, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst, size_t offset,
                                                           const size_t *origin, const size_t *region, cl_uint n,
                                                           const cl_event *list, cl_event *out) {
  return image_buffer("clEnqueueCopyBufferToImage", CL_COMMAND_COPY_BUFFER_TO_IMAGE, q, dst, src, 0, origin, region,
                      offset, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem m, const void *color,
                                                   const size_t *origin, const size_t *region, cl_uint n,
                                                   const cl_event *list, cl_event *out) {
  static const char *fn = "clEnqueueFillImage";
  cl_int err = check_queue_image(fn, q, m, "image");
  if (err == CL_SUCCESS) err = check_region(fn, m, origin, region, "image");
  if (err == CL_SUCCESS && !color) err = rvcl_fail(q->context, fn, CL_INVALID_VALUE, "fill_color is NULL");
  if (err != CL_SUCCESS) return err;
  const rvcl_image_t *im = m->image;
  uint8_t pixel[16];
  rvcl_image_pack(&im->format, color, pixel);
  size_t row = region[0] * im->elem_size, count = region[0] * region[1] * region[2];
  uint8_t *fill = malloc(count * im->elem_size);
  if (!fill) return CL_OUT_OF_HOST_MEMORY;
  for (size_t i = 0; i < count; i++) memcpy(fill + i * im->elem_size, pixel, im->elem_size);
  rvcl_box_t ib = image_box(im, origin), hb = {{0, 0, 0}, row, row * region[1]};
  size_t r[3];
  byte_region(im, region, r);
  return rvcl_enqueue_box(fn, CL_COMMAND_FILL_IMAGE, RVCL_BOX_WRITE, q, m, &ib, NULL, fill, &hb, r, fill, CL_FALSE, n,
                          list, out);
}

/* A CL_MEM_USE_HOST_PTR image maps at its host_ptr, in host_ptr's layout
 * (the pitches it was made with), as the spec has it: the region is read
 * into host_ptr at map and written back at unmap (map.c). */
static void *map_host_ptr(const char *fn, cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
                          const size_t *origin, const size_t *region, size_t *row_pitch, size_t *slice_pitch,
                          cl_uint n, const cl_event *list, cl_event *out, cl_int *err) {
  const rvcl_image_t *im = m->image;
  if ((*err = rvcl_map_check(fn, q, m, flags)) != CL_SUCCESS) return NULL;
  cl_mem_object_type t = m->type;
  int layered_1d = t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  size_t hrow = im->host_row_pitch, hslice = im->host_slice_pitch;
  rvcl_mapping_t *mp = calloc(1, sizeof *mp);
  if (!mp) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  /* a 1D array's layer is its y, host_ptr's layers hslice apart */
  size_t at = layered_1d ? origin[1] * hslice + origin[0] * im->elem_size
                         : origin[2] * hslice + origin[1] * hrow + origin[0] * im->elem_size;
  mp->ptr = (uint8_t *)im->host_ptr + at;
  mp->flags = flags;
  mp->staged = mp->boxed = 1;
  mp->dev_box = image_box(im, origin);
  mp->host_box = (rvcl_box_t){{0, 0, 0}, layered_1d ? hslice : hrow, layered_1d ? 0 : hslice};
  byte_region(im, region, mp->region);
  cl_int e;
  if (flags & CL_MAP_WRITE_INVALIDATE_REGION) {
    RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
    rvhal_event_t *ev = NULL;
    int st = werr == CL_SUCCESS ? rvhal_enqueue_marker(q->q, &deps, out || blocking ? &ev : NULL) : RVHAL_OK;
    e = werr != CL_SUCCESS ? werr : rvcl_enqueue_done(q, fn, CL_COMMAND_MAP_IMAGE, st, ev, blocking, out);
  } else {
    e = rvcl_enqueue_box(fn, CL_COMMAND_MAP_IMAGE, RVCL_BOX_READ, q, m, &mp->dev_box, NULL, mp->ptr, &mp->host_box,
                         mp->region, NULL, blocking, n, list, out);
  }
  if ((*err = e) != CL_SUCCESS) {
    free(mp);
    return NULL;
  }
  void *p = mp->ptr;
  rvcl_map_add(m, mp);
  *row_pitch = hrow;
  int has_slices = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || layered_1d;
  if (slice_pitch) *slice_pitch = has_slices ? hslice : 0;
  return p;
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
                                                 const size_t *origin, const size_t *region, size_t *row_pitch,
                                                 size_t *slice_pitch, cl_uint n, const cl_event *list, cl_event *out,
                                                 cl_int *errcode_ret) {
  static const char *fn = "clEnqueueMapImage";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if ((*err = check_queue_image(fn, q, m, "image")) != CL_SUCCESS) return NULL;
  if ((*err = check_region(fn, m, origin, region, "image")) != CL_SUCCESS) return NULL;
  cl_mem_object_type t = m->type;
  int has_slices = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (!row_pitch || (has_slices && !slice_pitch)) {
    *err = rvcl_fail(q->context, fn, CL_INVALID_VALUE, "image_row_pitch%s is NULL",
                     has_slices ? " or image_slice_pitch" : "");
    return NULL;
  }
  const rvcl_image_t *im = m->image;
  if (im->host_ptr) return map_host_ptr(fn, q, m, blocking, flags, origin, region, row_pitch, slice_pitch, n, list,
                                        out, err);
  rvcl_box_t b = image_box(im, origin);
  size_t first = b.origin[2] * im->slice_pitch + b.origin[1] * im->row_pitch + b.origin[0];
  size_t size = (region[2] - 1) * im->slice_pitch + (region[1] - 1) * im->row_pitch + region[0] * im->elem_size;
  void *p = rvcl_map_range(fn, CL_COMMAND_MAP_IMAGE, q, m, blocking, flags, first, size, n, list, out, err);
  if (p) {
    *row_pitch = im->row_pitch;
    if (slice_pitch) *slice_pitch = has_slices ? im->slice_pitch : 0;
  }
  return p;
}
