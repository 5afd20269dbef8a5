/* The copy-out every clGet*Info call shares. */
#include <string.h>

#include "icd.h"

cl_int rvcl_info(const void *src, size_t size, size_t value_size, void *value, size_t *size_ret) {
  if (value) {
    if (value_size < size) return CL_INVALID_VALUE;
    if (size) memcpy(value, src, size);
  }
  if (size_ret) *size_ret = size;
  return CL_SUCCESS;
}

cl_int rvcl_info_str(const char *s, size_t value_size, void *value, size_t *size_ret) {
  return rvcl_info(s, strlen(s) + 1, value_size, value, size_ret);
}
