/* libFuzzer target: the argument packer. Each 10-byte record of the input
 * is one argument: kind/space byte, size (4 bytes), address (4 bytes),
 * value bytes taken from the rest of the input. */
#include <stdint.h>
#include <string.h>

#include "base/internal.h"
#include "rvhal/arg_pack.h"
#include "rvhal/rvhal_kernel_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint32_t word = (data[0] & 1) ? 4 : 8;
  data++, size--;
  hal_arg_t args[RVHAL_META_MAX_ARGS + 2];
  uint32_t n = 0;
  static const uint8_t values[4096 + 64];
  while (size >= 10 && n < sizeof args / sizeof *args) {
    hal_arg_t *a = &args[n++];
    memset(a, 0, sizeof *a);
    uint32_t sz, addr;
    memcpy(&sz, data + 1, 4);
    memcpy(&addr, data + 5, 4);
    switch (data[0] % 3) {
    case 0: *a = rvhal_arg_global(addr | (uint64_t)data[9] << 32); break;
    case 1: *a = rvhal_arg_local(data[9] & 1 ? (uint64_t)sz << 32 | addr : sz); break;
    default: *a = rvhal_arg_value(values, sz % (sizeof values + 1)); break; /* the caller owns size bytes */
    }
    data += 10, size -= 10;
  }
  rvhal_arg_layout_t layout[sizeof args / sizeof *args];
  uint32_t total = 0;
  (void)rvhal_arg_layout(args, n, word, layout, &total);
  static uint8_t buf[4096];
  uint32_t used = 0;
  (void)rvhal_arg_pack(args, n, word, buf, (uint32_t)(size % (sizeof buf + 1)), &used);
  (void)rvhal_arg_pack(args, n, word, buf, sizeof buf, &used);
  return 0;
}
