/* An OpenCL image as the device sees it: the image's allocation starts with
 * this descriptor, the pixels follow at data_offset (so the whole image is
 * one position-independent block a context of several devices copies as
 * it copies a buffer). A 1D buffer image's pixels are its buffer's bytes:
 * its descriptor is an allocation of its own (one per device) that holds
 * their address in data_addr. A kernel's image argument is the descriptor's device
 * address, passed like a global pointer; the built-ins
 * (sdk/opencl/builtins/image.cl) read the geometry and format from it.
 * Written by the host (host/opencl/image.c) when the image is made and
 * never changed after: the device reads it, the host never reads it back.
 *
 * Read by OpenCL C (the built-ins) as well as C, so only 32-bit fields. */
#ifndef RVHAL_ABI_IMAGE_H
#define RVHAL_ABI_IMAGE_H

#if defined(__OPENCL_C_VERSION__)
typedef uint rvhal_image_u32_t;
#else
#include <stddef.h>
#include <stdint.h>
typedef uint32_t rvhal_image_u32_t;
#endif

typedef struct rvhal_image_desc {
  rvhal_image_u32_t width, height, depth; /* pixels; 1 where the image has no such dimension */
  rvhal_image_u32_t array_size;           /* layers of an array image; 0 otherwise */
  rvhal_image_u32_t row_pitch;            /* bytes from a row (a layer of a 1D array) to the next */
  rvhal_image_u32_t slice_pitch;          /* bytes from a slice (a layer of a 2D array) to the next */
  rvhal_image_u32_t channel_order;        /* CL_R, CL_RGBA, ... (the CLK_ values are the same) */
  rvhal_image_u32_t channel_type;         /* CL_UNORM_INT8, ... */
  rvhal_image_u32_t elem_size;            /* bytes of a pixel */
  rvhal_image_u32_t num_channels;         /* 1 to 4 */
  rvhal_image_u32_t image_type;           /* CL_MEM_OBJECT_IMAGE2D, ... */
  rvhal_image_u32_t data_offset;          /* bytes from the descriptor to pixel (0, 0, 0), if data_addr is 0 */
  rvhal_image_u32_t data_addr_lo;         /* device address of pixel 0 (1D buffer images), low 32 bits */
  rvhal_image_u32_t data_addr_hi;         /* ... high 32 bits; both 0 for other images */
  rvhal_image_u32_t reserved[2];          /* 0 */
} rvhal_image_desc_t;

/* image_type's values: OpenCL's CL_MEM_OBJECT_* (host/opencl/image.c checks
 * they agree), named here for the built-ins, which have no cl.h. */
#define RVHAL_IMAGE_2D 0x10F1u
#define RVHAL_IMAGE_3D 0x10F2u
#define RVHAL_IMAGE_2D_ARRAY 0x10F3u
#define RVHAL_IMAGE_1D 0x10F4u
#define RVHAL_IMAGE_1D_ARRAY 0x10F5u
#define RVHAL_IMAGE_1D_BUFFER 0x10F6u

/* Where the pixels start: the descriptor rounded up to this. */
#define RVHAL_IMAGE_DATA_OFFSET 64u

#if !defined(__OPENCL_C_VERSION__)
#include "rvhal/rvhal_static_assert.h"
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, width, 0);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, height, 4);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, depth, 8);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, array_size, 12);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, row_pitch, 16);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, slice_pitch, 20);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, channel_order, 24);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, channel_type, 28);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, elem_size, 32);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, num_channels, 36);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, image_type, 40);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, data_offset, 44);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, data_addr_lo, 48);
RVHAL_ASSERT_OFFSET(rvhal_image_desc_t, data_addr_hi, 52);
RVHAL_STATIC_ASSERT(sizeof(rvhal_image_desc_t) == RVHAL_IMAGE_DATA_OFFSET, "rvhal_image_desc_t is 64 bytes");
#endif

#endif
