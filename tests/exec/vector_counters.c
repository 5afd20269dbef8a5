/* The vector_groups and fp_groups counters (abi/rvhal/rvhal_counters.h):
 * work-groups of the shares whose kernel wrote vector / FP state, from
 * VS / FS Dirty at each share's end (firmware/scheduler.c). Exact: an RVV
 * integer kernel counts every group as vector and none as FP, RVV saxpy
 * both, a scalar integer kernel neither, a scalar float kernel FP only.
 * Privileged launches count vector groups the same way; they keep the FPU
 * on, so fp_groups is not measured there and stays 0. On a vector board at
 * its VLEN, else on qemu-virt with vlen 256. */
#include "exec_util.h"

#define ITEMS 24u
#define LOCAL 2u
#define PER_ITEM 37u

typedef struct {
  const char *program, *kernel;
  int vector, fp; /* what the kernel writes */
} case_t;

int main(void) {
  ex_clean_env();
  rvhal_device_options_t o = {.counters = 1, .timing = RVHAL_TIMING_EXACT};
  if (!fixture_device_info()->vlen) o.vlen = 256;
  rvhal_device_t *d = fixture_device_opts(4, &o);
  const rvhal_device_info_t *di = rvhal_device_get_info(d);
  static const case_t cases[] = {{"rvv_ops", "rvv_vadd_entry", 1, 0},
                                 {"rvv_ops", "rvv_saxpy_entry", 1, 1},
                                 {"bench_kernels", "scalar_vadd_entry", 0, 0},
                                 {"bench_kernels", "scalar_saxpy_entry", 0, 1}};
  static uint32_t a[ITEMS * PER_ITEM], b[ITEMS * PER_ITEM];
  for (uint32_t i = 0; i < ITEMS * PER_ITEM; i++) a[i] = i, b[i] = 0x3f800000u; /* b: 1.0f for saxpy's y */
  hal_addr_t da = dt_buffer(d, sizeof a, a), db = dt_buffer(d, sizeof b, b), dc = dt_buffer(d, sizeof a, NULL);
  uint32_t per = PER_ITEM;
  float alpha = 0.5f;
  hal_ndrange_t nd = {.global = {ITEMS}, .local = {LOCAL}};
  const uint64_t groups = ITEMS / LOCAL;
  for (int priv = 0; priv < 2; priv++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
      const case_t *c = &cases[i];
      hal_program_t p = fixture_program(d, c->program);
      hal_kernel_t k = fixture_kernel(d, p, c->kernel);
      hal_arg_t args[4];
      if (strstr(c->kernel, "saxpy")) {
        args[0] = rvhal_arg_value(&alpha, 4), args[1] = rvhal_arg_global(da), args[2] = rvhal_arg_global(db);
      } else {
        args[0] = rvhal_arg_global(da), args[1] = rvhal_arg_global(db), args[2] = rvhal_arg_global(dc);
      }
      args[3] = rvhal_arg_value(&per, 4);
      rvhal_launch_options_t lo = {.privileged = priv};
      CHECK_OK(rvhal_kernel_exec_ex(d, p, k, &nd, args, 4, 1, &lo));
      ex_counts_t n;
      ex_read_counts(d, &n, c->kernel);
      const uint64_t g = ex_sum(&n, RVHAL_HART_COUNTER_GROUPS), vg = ex_sum(&n, RVHAL_HART_COUNTER_VECTOR_GROUPS),
                     fg = ex_sum(&n, RVHAL_HART_COUNTER_FP_GROUPS);
      CHECK_MSG(g == groups, "%s: work_groups %llu, expected %llu", c->kernel, (unsigned long long)g,
                (unsigned long long)groups);
      CHECK_MSG(vg == (c->vector ? groups : 0), "%s%s: vector_groups %llu, expected %llu", c->kernel,
                priv ? " (privileged)" : "", (unsigned long long)vg, (unsigned long long)(c->vector ? groups : 0));
      const uint64_t want_fp = c->fp && !priv ? groups : 0;
      CHECK_MSG(fg == want_fp, "%s%s: fp_groups %llu, expected %llu", c->kernel,
                priv ? " (privileged)" : "", (unsigned long long)fg, (unsigned long long)want_fp);
      printf("  %s, VLEN %u%s: %-20s work_groups %llu, vector_groups %llu, fp_groups %llu\n", di->name, di->vlen,
             priv ? ", privileged" : "", c->kernel, (unsigned long long)g, (unsigned long long)vg,
             (unsigned long long)fg);
      CHECK_OK(rvhal_program_free(d, p));
    }
  rvhal_device_delete(d);
  return check_result("vector_counters");
}
