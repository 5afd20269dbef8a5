/* Vector harts (device option vlen): the RVV kernels of tests/kernels/
 * rvv_ops.c (clang-16 intrinsics) on devices of every VLEN from 128 to 1024
 * bits, each result checked on the host: vadd (u32), saxpy (f32, fused
 * multiply-add: the host uses fmaf, so exact), vredsum (u32 sums of each
 * work-item's chunk), matmul (f32 rows, sums in k order with fmaf: exact).
 * Sizes are not multiples of any VLEN, so every strip-mining tail runs. The
 * device reports its VLEN and "v" in its ISA; the same kernels are refused
 * on a device without vector harts (isa_check.c). */
#include <math.h>

#include "dev_util.h"

#define PER_ITEM 203u /* elements a work-item strip-mines: never a whole number of vectors */
#define ITEMS 12u
#define N (PER_ITEM * ITEMS)
#define MAT 19u

static void run_all(rvhal_device_t *d, uint32_t vlen) {
  hal_program_t p = fixture_program(d, "rvv_ops");
  hal_ndrange_t nd = {.global = {ITEMS}, .local = {1}};
  uint32_t per = PER_ITEM;
  static uint32_t a[N], b[N], c[N], sums[ITEMS];
  static float x[N], y[N], y0[N];
  for (uint32_t i = 0; i < N; i++) a[i] = i * 2654435761u, b[i] = i ^ 0x5a5a5a5au, x[i] = (float)i * 0.25f - 100.0f,
                                   y0[i] = (float)(i % 97) * 1.5f;
  hal_addr_t da = dt_buffer(d, sizeof a, a), db = dt_buffer(d, sizeof b, b), dc = dt_buffer(d, sizeof c, NULL);
  hal_arg_t vadd[4] = {rvhal_arg_global(da), rvhal_arg_global(db), rvhal_arg_global(dc), rvhal_arg_value(&per, 4)};
  CHECK_OK(rvhal_kernel_exec(d, p, fixture_kernel(d, p, "rvv_vadd_entry"), &nd, vadd, 4, 1));
  CHECK_OK(rvhal_mem_read(d, c, dc, sizeof c));
  uint32_t bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
  CHECK_MSG(bad == 0, "VLEN %u: rvv_vadd: %u of %u wrong", vlen, bad, N);

  float alpha = 1.75f;
  hal_addr_t dx = dt_buffer(d, sizeof x, x), dy = dt_buffer(d, sizeof y0, y0);
  hal_arg_t saxpy[4] = {rvhal_arg_value(&alpha, 4), rvhal_arg_global(dx), rvhal_arg_global(dy), rvhal_arg_value(&per, 4)};
  CHECK_OK(rvhal_kernel_exec(d, p, fixture_kernel(d, p, "rvv_saxpy_entry"), &nd, saxpy, 4, 1));
  CHECK_OK(rvhal_mem_read(d, y, dy, sizeof y));
  bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += y[i] != fmaf(alpha, x[i], y0[i]);
  CHECK_MSG(bad == 0, "VLEN %u: rvv_saxpy: %u of %u wrong", vlen, bad, N);

  hal_addr_t ds = dt_buffer(d, sizeof sums, NULL);
  hal_arg_t red[3] = {rvhal_arg_global(da), rvhal_arg_global(ds), rvhal_arg_value(&per, 4)};
  CHECK_OK(rvhal_kernel_exec(d, p, fixture_kernel(d, p, "rvv_vredsum_entry"), &nd, red, 3, 1));
  CHECK_OK(rvhal_mem_read(d, sums, ds, sizeof sums));
  for (uint32_t it = 0; it < ITEMS; it++) {
    uint32_t want = 0;
    for (uint32_t i = 0; i < PER_ITEM; i++) want += a[it * PER_ITEM + i];
    CHECK_MSG(sums[it] == want, "VLEN %u: rvv_vredsum item %u: %u, expected %u", vlen, it, sums[it], want);
  }

  static float A[MAT * MAT], B[MAT * MAT], C[MAT * MAT];
  for (uint32_t i = 0; i < MAT * MAT; i++) A[i] = (float)(i % 13) - 6.0f, B[i] = (float)(i % 7) * 0.5f;
  uint32_t n = MAT;
  hal_addr_t dA = dt_buffer(d, sizeof A, A), dB = dt_buffer(d, sizeof B, B), dC = dt_buffer(d, sizeof C, NULL);
  hal_arg_t mm[4] = {rvhal_arg_global(dA), rvhal_arg_global(dB), rvhal_arg_global(dC), rvhal_arg_value(&n, 4)};
  hal_ndrange_t rows = {.global = {MAT}, .local = {1}};
  CHECK_OK(rvhal_kernel_exec(d, p, fixture_kernel(d, p, "rvv_matmul_entry"), &rows, mm, 4, 1));
  CHECK_OK(rvhal_mem_read(d, C, dC, sizeof C));
  bad = 0;
  for (uint32_t r = 0; r < MAT; r++)
    for (uint32_t j = 0; j < MAT; j++) {
      float acc = 0.0f;
      for (uint32_t k = 0; k < MAT; k++) acc = fmaf(A[r * MAT + k], B[k * MAT + j], acc);
      bad += C[r * MAT + j] != acc;
    }
  CHECK_MSG(bad == 0, "VLEN %u: rvv_matmul: %u of %u wrong", vlen, bad, MAT * MAT);
  printf("  VLEN %4u: vadd, saxpy, vredsum (%u x %u elements), matmul %ux%u: right\n", vlen, ITEMS, PER_ITEM, MAT, MAT);
  CHECK_OK(rvhal_program_free(d, p));
}

int main(void) {
  static const uint32_t vlens[] = {128, 256, 512, 1024};
  for (size_t i = 0; i < sizeof vlens / sizeof *vlens; i++) {
    rvhal_device_options_t o = {.vlen = vlens[i]};
    rvhal_device_t *d = fixture_device_opts(4, &o);
    const rvhal_device_info_t *di = rvhal_device_get_info(d);
    CHECK_MSG(di->vlen == vlens[i] && strchr(di->isa + 4, 'v'), "device with vlen %u: info vlen %u, ISA %s", vlens[i],
              di->vlen, di->isa);
    run_all(d, vlens[i]);
    rvhal_device_delete(d);
  }
  /* no vector unit: the kernels are refused at load, naming both ISAs */
  rvhal_device_t *d = fixture_device(1);
  CHECK(rvhal_device_get_info(d)->vlen == 0);
  char path[1024];
  snprintf(path, sizeof path, "%s/rvv_ops.elf", fixture_kernel_dir(d));
  hal_program_t p;
  CHECK_FAILS(rvhal_program_load_file(d, path, &p), RVHAL_BAD_ELF, "lacks v");
  const uint32_t word = rvhal_device_get_info(d)->word_size;
  rvhal_device_delete(d);
  /* a VLEN QEMU and the spec do not give */
  rvhal_device_options_t bad = {.vlen = 96};
  rvhal_device_t *none = NULL;
  CHECK_FAILS(rvhal_device_create(fixture_device_index(), &bad, &none), RVHAL_INVALID_ARGUMENT, "vlen 96");
  /* a board that gives QEMU its own CPU (harts without F/D): no vector
   * harts there, rather than a device that says it has them and traps */
  uint32_t imac;
  if (rvhal_platform_find_device(word == 4 ? "qemu-virt-imac-rv32" : "qemu-virt-imac-rv64",
                                 &imac) == RVHAL_OK) {
    rvhal_device_options_t v = {.num_harts = 1, .vlen = 256};
    CHECK_FAILS(rvhal_device_create(imac, &v, &none), RVHAL_UNSUPPORTED, "its own CPU (-cpu rv");
  } else {
    printf("not run: the build has no qemu-virt-imac board (a board with its own -cpu)\n");
  }
  return check_result("vector");
}
