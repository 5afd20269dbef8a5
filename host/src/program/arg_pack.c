/* The packed-argument ABI: layout and packing. */
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"
#include "program/program.h"
#include "rvhal/arg_pack.h"
#include "rvhal/rvhal_protocol.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "rvhal packs device words by copying host integers: a little-endian host is required"
#endif

static uint32_t pow2_at_least(uint64_t v) {
  uint32_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

/* Packed size of one argument, checking what only the packer can. */
static int packed_size(const hal_arg_t *a, uint32_t i, uint32_t word_size, uint32_t *out_size) {
  if (a->kind == hal_arg_address) {
    if (a->space != hal_space_global && a->space != hal_space_local)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "argument %u: address space %d is neither global nor local", i,
                         (int)a->space);
    if (word_size == 4) {
      uint64_t v = a->space == hal_space_local ? a->size : a->address;
      if (v > UINT32_MAX)
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "argument %u: %s 0x%llx does not fit a 32-bit device word", i,
                           a->space == hal_space_local ? "local size" : "address", (unsigned long long)v);
    }
    *out_size = word_size;
    return RVHAL_OK;
  }
  if (a->kind != hal_arg_value)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "argument %u: kind %d is neither address nor value", i, (int)a->kind);
  if (a->size == 0) return rvhal_error(RVHAL_INVALID_ARGUMENT, "argument %u: POD value of size 0", i);
  if (a->size > RVHAL_ARGS_MAX)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "argument %u: POD value of %llu bytes is larger than any pack", i,
                       (unsigned long long)a->size);
  if (!a->pod_data) return rvhal_error(RVHAL_INVALID_ARGUMENT, "argument %u: POD value with NULL data", i);
  *out_size = (uint32_t)a->size;
  return RVHAL_OK;
}

int rvhal_arg_layout(const hal_arg_t *args, uint32_t num_args, uint32_t word_size, rvhal_arg_layout_t *out_layout,
                     uint32_t *out_total) {
  if (word_size != 4 && word_size != 8)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "word size %u is not 4 or 8", word_size);
  if (num_args && !args) return rvhal_error(RVHAL_INVALID_ARGUMENT, "%u arguments but args is NULL", num_args);
  uint64_t offset = 0;
  for (uint32_t i = 0; i < num_args; i++) {
    uint32_t size;
    RVHAL_RETURN_IF_ERROR(packed_size(&args[i], i, word_size, &size));
    uint32_t align = pow2_at_least(size);
    offset = rvhal_align_up(offset, align);
    if (out_layout) out_layout[i] = (rvhal_arg_layout_t){(uint32_t)offset, size, align};
    offset += size;
    if (offset > RVHAL_ARGS_MAX)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "argument %u ends at byte %llu of the pack, past the limit of %u bytes",
                         i, (unsigned long long)offset, (unsigned)RVHAL_ARGS_MAX);
  }
  if (out_total) *out_total = (uint32_t)offset;
  return RVHAL_OK;
}

void rvhal_arg_pack_laid_out(const hal_arg_t *args, uint32_t num_args, uint32_t word_size,
                             const rvhal_arg_layout_t *layout, void *buf, uint32_t buf_size) {
  uint8_t *out = buf;
  /* Padding reads as zero, also past the last argument: a kernel's struct
   * is rounded up to its largest member's alignment. */
  memset(out, 0, buf_size);
  for (uint32_t i = 0; i < num_args; i++) {
    const hal_arg_t *a = &args[i];
    if (a->kind == hal_arg_address) {
      /* little-endian device word: an address, or a local buffer's size */
      uint64_t v = a->space == hal_space_local ? a->size : a->address;
      memcpy(out + layout[i].offset, &v, word_size);
    } else {
      memcpy(out + layout[i].offset, a->pod_data, layout[i].size);
    }
  }
}

int rvhal_arg_pack(const hal_arg_t *args, uint32_t num_args, uint32_t word_size, void *buf, uint32_t buf_size,
                   uint32_t *out_total) {
  if (num_args > RVHAL_ARGS_MAX) /* every argument takes at least a byte */
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "%u arguments do not fit a pack of %u bytes", num_args,
                       (unsigned)RVHAL_ARGS_MAX);
  rvhal_arg_layout_t *layout = num_args ? malloc(num_args * sizeof *layout) : NULL;
  if (num_args && !layout) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  uint32_t total;
  int rc = rvhal_arg_layout(args, num_args, word_size, layout, &total);
  if (!rc && total > buf_size)
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "packed arguments need %u bytes, the buffer holds %u", total, buf_size);
  if (!rc) {
    rvhal_arg_pack_laid_out(args, num_args, word_size, layout, buf, buf_size);
    if (out_total) *out_total = total;
  }
  free(layout);
  return rc;
}
