/* Image formats (image_format.c): the supported list, a format's sizes,
 * and a fill colour as a pixel's bytes. */
#ifndef RVCL_IMAGE_FORMAT_H
#define RVCL_IMAGE_FORMAT_H

#include "icd.h"

/* Writes up to cap of the supported formats to out (may be NULL); returns
 * how many there are. The same list for every image type and access. */
size_t rvcl_image_formats(cl_image_format *out, size_t cap);
int rvcl_image_format_supported(const cl_image_format *f);
unsigned rvcl_image_format_channels(const cl_image_format *f);
/* Bytes of a pixel (f supported). */
size_t rvcl_image_format_size(const cl_image_format *f);
/* Read and written as float (UNORM, HALF, FLOAT) rather than integers. */
int rvcl_image_format_is_float(const cl_image_format *f);
/* color (float[4], int[4] or uint[4] as clEnqueueFillImage takes it, by
 * the format's type) as a pixel of format f: rvcl_image_format_size bytes. */
void rvcl_image_pack(const cl_image_format *f, const void *color, uint8_t *out);
/* Largest width/height of a 2D image, side of a 3D one, layers of an array
 * on device d (its CL_DEVICE_IMAGE*_MAX_* answers). */
size_t rvcl_image2d_max(cl_device_id d);
size_t rvcl_image3d_max(cl_device_id d);
size_t rvcl_image_array_max(cl_device_id d);
/* Largest width of a 1D buffer image (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE). */
size_t rvcl_image_buffer_max(cl_device_id d);

#endif
