/* The program store (rvhal_device_info_t.program_store_size) on a device of
 * small RAM: dt_prog_a loaded until it is full, the refusal's code and
 * message (the program's size, what the loaded programs hold of the store,
 * the device's RAM), one freed and loaded again into its room and run, and
 * loads and frees far beyond the limit giving their room back. */
#include "dev_util.h"
#include "dt_shared.h"

#define N 32
#define RAM (64ull << 20)

static void run_affine(rvhal_device_t *d, hal_program_t p, uint32_t k, const char *what) {
  uint32_t in[N], out[N];
  for (uint32_t i = 0; i < N; i++) in[i] = i * 2654435761u;
  hal_addr_t bin = dt_buffer(d, sizeof in, in), bout = dt_buffer(d, sizeof out, NULL);
  hal_kernel_t kern = fixture_kernel(d, p, "prog_a_affine");
  hal_arg_t args[3] = {rvhal_arg_global(bout), rvhal_arg_global(bin), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {4}};
  int rc = rvhal_kernel_exec(d, p, kern, &nd, args, 3, 1);
  CHECK_MSG(rc == RVHAL_OK, "%s: %s: %s", what, rvhal_status_name(rc), rvhal_last_error());
  CHECK_OK(rvhal_mem_read(d, out, bout, sizeof out));
  unsigned bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += out[i] != want_a(in[i], k, i);
  CHECK_MSG(bad == 0, "%s: %u wrong results", what, bad);
  CHECK_OK(rvhal_mem_free(d, bin));
  CHECK_OK(rvhal_mem_free(d, bout));
}

int main(void) {
  rvhal_device_options_t o = {.ram_size = RAM};
  rvhal_device_t *d = fixture_device_opts(2, &o);
  const rvhal_device_info_t *info = rvhal_device_get_info(d);
  CHECK_EQ_U64(info->ram_size, RAM);
  const uint64_t store = info->program_store_size;
  CHECK_MSG(store >= (1u << 20) && store < RAM - info->global_mem_size,
            "program store %llu bytes beside %llu of global memory in %llu of RAM", (unsigned long long)store,
            (unsigned long long)info->global_mem_size, (unsigned long long)RAM);

  char path[1024];
  size_t len = 0;
  snprintf(path, sizeof path, "%s/dt_prog_a.elf", fixture_kernel_dir(d));
  char *elf = dt_read_file(path, &len);
  CHECK_MSG(elf != NULL, "cannot read %s", path);
  if (!elf) return check_result("program_store");

  /* Fill it: every staged copy takes at least 64 bytes, which bounds the loop. */
  const size_t cap = (size_t)(store / 64) + 1;
  hal_program_t *held = calloc(cap, sizeof *held);
  size_t n = 0;
  int rc = RVHAL_OK;
  while (n < cap && (rc = rvhal_program_load(d, elf, len, &held[n])) == RVHAL_OK) n++;
  printf("%zu copies of dt_prog_a (%zu-byte ELF) in a %llu-byte program store\n", n, len, (unsigned long long)store);
  CHECK_MSG(rc == RVHAL_NO_MEMORY, "load %zu: %s (%s), expected RVHAL_NO_MEMORY", n, rvhal_status_name(rc),
            rvhal_last_error());
  CHECK_MSG(n >= 2, "only %zu programs fit", n);
  const char *msg = rvhal_last_error();
  printf("refused: %s\n", msg);
  CHECK_LAST_ERROR_HAS("no room to keep the program");
  char want[96];
  snprintf(want, sizeof want, "): %zu loaded programs hold ", n);
  CHECK_LAST_ERROR_HAS(want);
  snprintf(want, sizeof want, "of the %.2f MiB program store", store / 1048576.0);
  CHECK_LAST_ERROR_HAS(want);
  snprintf(want, sizeof want, "device RAM %llu MiB", RAM >> 20);
  CHECK_LAST_ERROR_HAS(want);
  /* what they hold and this one's size: together more than the store */
  unsigned long long one = 0;
  double hold = 0;
  const char *at = strstr(msg, "program ("), *h = strstr(msg, "programs hold ");
  CHECK_MSG(at && h && sscanf(at, "program (%llu bytes)", &one) == 1 && sscanf(h, "programs hold %lf", &hold) == 1,
            "no sizes in: %s", msg);
  CHECK_MSG(one > 0 && hold * 1048576.0 <= store + 0.01 * 1048576.0 &&
                hold * 1048576.0 + (double)one > store - 0.01 * 1048576.0,
            "%.2f MiB held and %llu bytes more in a %llu-byte store: %s", hold, one, (unsigned long long)store, msg);

  /* Free one: the next load takes its room and runs; a kept one still runs. */
  CHECK_OK(rvhal_program_free(d, held[n / 2]));
  CHECK_OK(rvhal_program_load(d, elf, len, &held[n / 2]));
  run_affine(d, held[n / 2], 3, "the program loaded into a freed one's room");
  run_affine(d, held[0], 5, "the first program kept");
  hal_program_t extra;
  CHECK_FAILS(rvhal_program_load(d, elf, len, &extra), RVHAL_NO_MEMORY, "no room to keep the program");

  /* Free them all, then load and free three times as many: no room lost. */
  for (size_t i = 0; i < n; i++) CHECK_OK(rvhal_program_free(d, held[i]));
  for (size_t i = 0; i < 3 * n; i++) {
    hal_program_t p;
    rc = rvhal_program_load(d, elf, len, &p);
    CHECK_MSG(rc == RVHAL_OK, "load %zu of a load/free loop: %s (%s)", i, rvhal_status_name(rc), rvhal_last_error());
    if (rc) break;
    CHECK_OK(rvhal_program_free(d, p));
  }
  size_t again = 0;
  while (again < n && rvhal_program_load(d, elf, len, &held[again]) == RVHAL_OK) again++;
  CHECK_MSG(again == n, "after the loop %zu programs fit, %zu before", again, n);
  run_affine(d, held[again ? again - 1 : 0], 7, "the last program after the loop");
  for (size_t i = 0; i < again; i++) CHECK_OK(rvhal_program_free(d, held[i]));

  free(held);
  free(elf);
  rvhal_device_delete(d);
  return check_result("program_store");
}
