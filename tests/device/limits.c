/* Sizes at the edge of 64-bit arithmetic, and files that are not programs
 * (issue 10). A work-group count that wraps (global {2^32, 2^32}, local
 * {1, 1}: SIGFPE before) and its neighbours are refused with the count; a
 * local buffer of 2^64-1 bytes (passed before: the total wrapped) and its
 * neighbours are refused with the size; global 2^64-1, local 1 is a valid
 * launch (it used to ask for 0 harts and be rejected as a "host/firmware
 * mismatch"): it runs until the launch timeout. Loading a directory, a FIFO
 * (it blocked for ever) or a device file is refused by name, at once. After
 * each, a good launch works. */
#include <fcntl.h>
#include <sys/stat.h>

#include "dev_util.h"

#define N 64

static rvhal_device_t *d;
static hal_program_t good, pa, counting;
static hal_addr_t out, in;
static uint32_t k;

static void healthy_at(int line) {
  k++;
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {4}};
  int rc = rvhal_kernel_exec(d, good, fixture_kernel(d, good, "trap_good"), &nd, args, 2, 1);
  CHECK_MSG(rc == RVHAL_OK, "trap_good after line %d: %s: %s", line, rvhal_status_name(rc), rvhal_last_error());
  uint32_t back[N];
  CHECK_OK(rvhal_mem_read(d, back, out, sizeof back));
  unsigned bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += back[i] != i * 7u + k;
  CHECK_MSG(bad == 0, "trap_good after line %d: %u wrong results", line, bad);
}
#define HEALTHY() healthy_at(__LINE__)

static int exec_nd(uint64_t g0, uint64_t g1, uint64_t g2, uint64_t l0, uint64_t l1, uint64_t l2, uint32_t dim) {
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {g0, g1, g2}, .local = {l0, l1, l2}};
  return rvhal_kernel_exec(d, good, fixture_kernel(d, good, "trap_good"), &nd, args, 2, dim);
}

static void group_counts(void) {
  const uint64_t p32 = 1ull << 32, p63 = 1ull << 63;
  const int rv32 = rvhal_device_get_info(d)->word_size == 4; /* refuses each size over 2^32-1 first */
#define W(msg) (rv32 ? "exceeds the 32-bit device" : (msg))
  /* products of 2^64 and more: wrapped to 0 or to a small count before */
  CHECK_FAILS(exec_nd(p32, p32, 1, 1, 1, 1, 2), RVHAL_INVALID_ARGUMENT, W("4294967296x4294967296x1 work-groups"));
  CHECK_FAILS(exec_nd(p32, p32, 2, 1, 1, 1, 3), RVHAL_INVALID_ARGUMENT, W("more than the"));
  CHECK_FAILS(exec_nd(p32, 1ull << 31, 2, 1, 1, 1, 3), RVHAL_INVALID_ARGUMENT, W("work-groups"));
  CHECK_FAILS(exec_nd(3, p63, 1, 1, 1, 1, 2), RVHAL_INVALID_ARGUMENT, W("3x9223372036854775808x1 work-groups"));
  CHECK_FAILS(exec_nd(UINT64_MAX, UINT64_MAX, UINT64_MAX, 1, 1, 1, 3), RVHAL_INVALID_ARGUMENT, W("work-groups"));
  if (rvhal_device_get_info(d)->word_size == 4) /* a 32-bit device counts groups in 32 bits */
    CHECK_FAILS(exec_nd(1ull << 16, 1ull << 16, 1, 1, 1, 1, 2), RVHAL_INVALID_ARGUMENT, "32-bit device");
  /* work-group sizes whose product wraps */
  CHECK_FAILS(exec_nd(p32, p32, 1, p32, p32, 1, 2), RVHAL_INVALID_ARGUMENT, W("exceeds the device's"));
#undef W
  HEALTHY();
  /* 2^64-1 (or 2^32-1) groups of one: valid, and endless in practice. Each
   * item counts itself (ndrange_record with total 0: in count[0]), so that
   * the work cannot be optimized away (an empty kernel's loops are: a
   * program without barrier() runs each call as one loop). */
  uint64_t max = rv32 ? UINT32_MAX : UINT64_MAX, total = 0;
  hal_ndrange_t nd = {.global = {max}, .local = {1}};
  hal_arg_t args[3] = {rvhal_arg_global(out), rvhal_arg_global(out), rvhal_arg_value(&total, 8)};
  CHECK_FAILS(rvhal_kernel_exec(d, counting, fixture_kernel(d, counting, "ndrange_record"), &nd, args, 3, 1),
              RVHAL_TIMEOUT, "did not finish within");
  HEALTHY();
}

static void local_sizes(void) {
  hal_kernel_t kl = fixture_kernel(d, pa, "prog_a_local");
  const uint64_t sizes[] = {UINT64_MAX, UINT64_MAX - 63, UINT64_MAX - 64, UINT64_MAX - 65, 1ull << 63};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    hal_arg_t args[3] = {rvhal_arg_global(out), rvhal_arg_global(in), rvhal_arg_local(sizes[i])};
    hal_ndrange_t nd = {.global = {N}, .local = {4}};
    if (rvhal_device_get_info(d)->word_size == 4) /* refused by the packer first */
      CHECK_FAILS(rvhal_kernel_exec(d, pa, kl, &nd, args, 3, 1), RVHAL_INVALID_ARGUMENT, "does not fit a 32-bit");
    else
      CHECK_FAILS(rvhal_kernel_exec(d, pa, kl, &nd, args, 3, 1), RVHAL_LOCAL_MEMORY, "the device has 65536");
  }
  HEALTHY();
}

static void not_files(void) {
  hal_program_t p = 123;
  CHECK_FAILS(rvhal_program_load_file(d, "/tmp", &p), RVHAL_INVALID_ARGUMENT, "/tmp: is a directory");
  CHECK(p == hal_invalid_program);
  CHECK_FAILS(rvhal_program_load_file(d, "/dev/null", &p), RVHAL_INVALID_ARGUMENT, "/dev/null: is a device");
  char fifo[64];
  snprintf(fifo, sizeof fifo, "/tmp/rvhal-limits-fifo-%d", (int)getpid());
  unlink(fifo);
  if (mkfifo(fifo, 0600) == 0) {
    /* no writer: an open without O_NONBLOCK waits here for ever */
    CHECK_FAILS(rvhal_program_load_file(d, fifo, &p), RVHAL_INVALID_ARGUMENT, "is a FIFO");
    unlink(fifo);
  } else {
    CHECK_MSG(0, "mkfifo %s failed", fifo);
  }
  CHECK_FAILS(rvhal_program_load_file(d, "/nonexistent/prog.elf", &p), RVHAL_NOT_FOUND, "No such file");
  HEALTHY();
}

int main(void) {
  rvhal_device_options_t o = {.launch_timeout_ms = 1000, .local_mem_size = 65536};
  d = fixture_device_opts(2, &o);
  good = fixture_program(d, "dt_trap");
  pa = fixture_program(d, "dt_prog_a");
  counting = fixture_program(d, "dt_ndrange");
  out = dt_buffer(d, N * 4, NULL);
  in = dt_buffer(d, N * 4, NULL);
  HEALTHY();
  group_counts();
  local_sizes();
  not_files();
  rvhal_device_delete(d);
  return check_result("limits");
}
