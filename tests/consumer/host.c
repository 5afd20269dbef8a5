/* Host program of the consumer project: SAXPY from a kernel file, then a
 * 2-D stencil from the kernel embedded in this program (or, built without
 * CONSUMER_EMBED_STENCIL, from a file), both checked against the host.
 *   consumer SAXPY_ELF [STENCIL_ELF]
 * Prints where the library found its firmware, so the test can tell that a
 * moved install was used. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvhal/rvhal.h>
#ifdef CONSUMER_EMBED_STENCIL
#include "stencil_kernel.h"
#endif

#define CHECK(call)                                                    \
  do {                                                                 \
    if (call) {                                                        \
      fprintf(stderr, "consumer: %s: %s\n", #call, rvhal_last_error()); \
      return 1;                                                        \
    }                                                                  \
  } while (0)

enum { N = 1000, W = 16, H = 8, LX = 4, LY = 4 };

static int saxpy(rvhal_device_t *dev, const char *elf) {
  static float x[N], y[N];
  for (int i = 0; i < N; i++) x[i] = (float)i, y[i] = 1.0f;
  hal_program_t prog;
  hal_kernel_t k;
  hal_addr_t dx, dy;
  CHECK(rvhal_program_load_file(dev, elf, &prog));
  CHECK(rvhal_program_find_kernel(dev, prog, "saxpy_entry", &k));
  CHECK(rvhal_mem_alloc(dev, sizeof x, 0, &dx));
  CHECK(rvhal_mem_alloc(dev, sizeof y, 0, &dy));
  CHECK(rvhal_mem_write(dev, dx, x, sizeof x));
  CHECK(rvhal_mem_write(dev, dy, y, sizeof y));
  float a = 2.0f;
  uint32_t n = N;
  hal_arg_t args[] = {rvhal_arg_global(dx), rvhal_arg_global(dy), rvhal_arg_value(&a, sizeof a),
                      rvhal_arg_value(&n, sizeof n)};
  hal_ndrange_t nd = {{0, 0, 0}, {1024, 1, 1}, {64, 1, 1}}; /* more items than elements: the kernel checks n */
  CHECK(rvhal_kernel_exec(dev, prog, k, &nd, args, 4, 1));
  CHECK(rvhal_mem_read(dev, y, dy, sizeof y));
  for (int i = 0; i < N; i++)
    if (y[i] != 2.0f * (float)i + 1.0f) {
      fprintf(stderr, "consumer: saxpy y[%d] = %g, expected %g\n", i, y[i], 2.0 * i + 1.0);
      return 1;
    }
  printf("saxpy: %d elements ok\n", N);
  return 0;
}

static int stencil(rvhal_device_t *dev, const char *elf) {
  static float in[W * H], out[W * H];
  for (int i = 0; i < W * H; i++) in[i] = (float)((i * 7) % 13);
  hal_program_t prog;
  hal_kernel_t k;
  hal_addr_t din, dout;
#ifdef CONSUMER_EMBED_STENCIL
  (void)elf;
  CHECK(rvhal_program_load(dev, stencil_elf, stencil_elf_size, &prog));
  const char *from = "embedded";
#else
  CHECK(rvhal_program_load_file(dev, elf, &prog));
  const char *from = "file";
#endif
  CHECK(rvhal_program_find_kernel(dev, prog, "stencil_entry", &k));
  CHECK(rvhal_mem_alloc(dev, sizeof in, 0, &din));
  CHECK(rvhal_mem_alloc(dev, sizeof out, 0, &dout));
  CHECK(rvhal_mem_write(dev, din, in, sizeof in));
  uint32_t width = W;
  hal_arg_t args[] = {rvhal_arg_global(din), rvhal_arg_global(dout), rvhal_arg_local(LX * LY * sizeof(float)),
                      rvhal_arg_value(&width, sizeof width)};
  hal_ndrange_t nd = {{0, 0, 0}, {W, H, 1}, {LX, LY, 1}};
  CHECK(rvhal_kernel_exec(dev, prog, k, &nd, args, 4, 2));
  CHECK(rvhal_mem_read(dev, out, dout, sizeof out));
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int tx = x / LX * LX, ty = y / LY * LY, lx = x % LX, ly = y % LY;
#define AT(i, j) in[(ty + (j)) * W + tx + (i)]
      float want = AT((lx + 1) % LX, ly) + AT((lx + LX - 1) % LX, ly) + AT(lx, (ly + 1) % LY) +
                   AT(lx, (ly + LY - 1) % LY) - 4.0f * AT(lx, ly);
      if (fabsf(out[y * W + x] - want) > 1e-4f) {
        fprintf(stderr, "consumer: stencil (%d,%d) = %g, expected %g\n", x, y, out[y * W + x], want);
        return 1;
      }
    }
  printf("stencil (%s kernel, local memory and barrier): %dx%d ok\n", from, W, H);
  return 0;
}

int main(int argc, char **argv) {
#ifdef SAXPY_ELF /* the path CMake gave (RVHAL_KERNEL_FILE): the README's way */
  const char *saxpy_elf = argc > 1 ? argv[1] : SAXPY_ELF;
#else
  const char *saxpy_elf = argc > 1 ? argv[1] : NULL;
#endif
  if (!saxpy_elf) {
    fprintf(stderr, "usage: consumer SAXPY_ELF [STENCIL_ELF]\n");
    return 2;
  }
  printf("firmware: %s\n", rvhal_firmware_dir(64));
  rvhal_device_options_t opt;
  memset(&opt, 0, sizeof opt);
  opt.num_harts = 2;
  /* $CONSUMER_DEVICE: another device by name (a soft-float one, run.sh) */
  uint32_t index = 0;
  const char *name = getenv("CONSUMER_DEVICE");
  if (name && *name) CHECK(rvhal_platform_find_device(name, &index));
  rvhal_device_t *dev;
  CHECK(rvhal_device_create(index, &opt, &dev));
  int rc = saxpy(dev, saxpy_elf) || stencil(dev, argc > 2 ? argv[2] : NULL);
  rvhal_device_delete(dev);
  return rc;
}
