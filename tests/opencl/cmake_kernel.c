/* rvhal_add_kernel(NAME FILE.cl) in this build tree: vadd.cl built to a
 * file (RV64 and RV32, found by the OpenCL name "vadd") and embedded in
 * this program (EMBED), each run against the host's sums. argv[1]: the
 * kernel file for the device under test's XLEN. */
#include "dev_util.h"
#include "opencl_options_kernel.h"
#include "opencl_vadd_embed_kernel.h"

static void run(rvhal_device_t *d, hal_program_t p, const char *what) {
  hal_kernel_t k = fixture_kernel(d, p, "vadd");
  enum { N = 1000 };
  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f * (float)i;
  hal_addr_t da = dt_buffer(d, sizeof a, a), db = dt_buffer(d, sizeof b, b), dc = dt_buffer(d, sizeof c, NULL);
  hal_arg_t args[3] = {rvhal_arg_global(da), rvhal_arg_global(db), rvhal_arg_global(dc)};
  hal_ndrange_t nd = {{0, 0, 0}, {N, 1, 1}, {8, 1, 1}};
  CHECK_OK(rvhal_kernel_exec(d, p, k, &nd, args, 3, 1));
  CHECK_OK(rvhal_mem_read(d, c, dc, sizeof c));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
  CHECK_MSG(bad == 0, "%s: %d wrong sums", what, bad);
  printf("%s: %d sums ok\n", what, N);
  CHECK_OK(rvhal_mem_free(d, da));
  CHECK_OK(rvhal_mem_free(d, db));
  CHECK_OK(rvhal_mem_free(d, dc));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s VADD64.elf [VADD32.elf]\n", argv[0]);
    return 2;
  }
  rvhal_device_t *d = fixture_device(2);
  const int rv64 = rvhal_device_get_info(d)->word_size == 8;
  hal_program_t p;
  if (!rv64 && argc < 3) {
    fprintf(stderr, "no RV32 kernel file given\n");
    return 1;
  }
  CHECK_OK(rvhal_program_load_file(d, argv[rv64 ? 1 : 2], &p));
  run(d, p, rv64 ? "vadd.cl built to a file (RV64)" : "vadd.cl built to a file (RV32)");
  if (rv64) {
    hal_program_t e;
    CHECK_OK(rvhal_program_load(d, opencl_vadd_embed_elf, opencl_vadd_embed_elf_size, &e));
    run(d, e, "vadd.cl embedded (EMBED)");
    /* options.cl: INCLUDE_DIRECTORIES and COMPILE_OPTIONS reached rvhal cc */
    hal_program_t o;
    CHECK_OK(rvhal_program_load(d, opencl_options_elf, opencl_options_elf_size, &o));
    hal_kernel_t k = fixture_kernel(d, o, "scale");
    enum { N = 64 };
    float in[N], out[N];
    for (int i = 0; i < N; i++) in[i] = (float)i;
    hal_addr_t di = dt_buffer(d, sizeof in, in), dout = dt_buffer(d, sizeof out, NULL);
    hal_arg_t args[2] = {rvhal_arg_global(di), rvhal_arg_global(dout)};
    hal_ndrange_t nd = {{0, 0, 0}, {N, 1, 1}, {8, 1, 1}};
    CHECK_OK(rvhal_kernel_exec(d, o, k, &nd, args, 2, 1));
    CHECK_OK(rvhal_mem_read(d, out, dout, sizeof out));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != in[i] * 3 + 4;
    CHECK_MSG(bad == 0, "options.cl: %d wrong", bad);
    printf("options.cl (INCLUDE_DIRECTORIES, COMPILE_OPTIONS): %d values ok\n", N);
    CHECK_OK(rvhal_mem_free(d, di));
    CHECK_OK(rvhal_mem_free(d, dout));
  }
  rvhal_device_delete(d);
  return check_result("opencl.cmake_kernel");
}
