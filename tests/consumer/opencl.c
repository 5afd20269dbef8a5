/* Consumer of an installed rvhal: an OpenCL C kernel built by
 * rvhal_add_kernel(vadd_cl vadd.cl EMBED), found by its OpenCL name. */
#include <stdio.h>

#include <rvhal/rvhal.h>

#include "vadd_cl_kernel.h"

#define CHECK(call)                                                    \
  do {                                                                 \
    if (call) {                                                        \
      fprintf(stderr, "consumer: %s: %s\n", #call, rvhal_last_error()); \
      return 1;                                                        \
    }                                                                  \
  } while (0)

int main(void) {
  enum { N = 256 };
  static float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 2.0f;
  rvhal_device_t *dev;
  CHECK(rvhal_device_create(0, NULL, &dev));
  hal_program_t prog;
  hal_kernel_t k;
  hal_addr_t da, db, dc;
  CHECK(rvhal_program_load(dev, vadd_cl_elf, vadd_cl_elf_size, &prog));
  CHECK(rvhal_program_find_kernel(dev, prog, "vadd", &k));
  CHECK(rvhal_mem_alloc(dev, sizeof a, 0, &da) || rvhal_mem_alloc(dev, sizeof b, 0, &db) ||
        rvhal_mem_alloc(dev, sizeof c, 0, &dc));
  CHECK(rvhal_mem_write(dev, da, a, sizeof a) || rvhal_mem_write(dev, db, b, sizeof b));
  hal_arg_t args[3] = {rvhal_arg_global(da), rvhal_arg_global(db), rvhal_arg_global(dc)};
  hal_ndrange_t nd = {{0, 0, 0}, {N, 1, 1}, {16, 1, 1}};
  CHECK(rvhal_kernel_exec(dev, prog, k, &nd, args, 3, 1));
  CHECK(rvhal_mem_read(dev, c, dc, sizeof c));
  rvhal_device_delete(dev);
  for (int i = 0; i < N; i++)
    if (c[i] != a[i] + b[i]) {
      fprintf(stderr, "consumer: vadd c[%d] = %g, expected %g\n", i, c[i], a[i] + b[i]);
      return 1;
    }
  printf("OpenCL C vadd (embedded, rvhal cc): %d sums ok\n", N);
  return 0;
}
