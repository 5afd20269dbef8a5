/* Device after device of different shapes on one target: 4, 2, 1 and 3
 * harts (as many as the board has, if fewer), then one with twice the
 * local memory. Each device runs trap_good on every hart with work-items on
 * their own stacks (local size 4), checks every result and a buffer the
 * host wrote, and has every hart overflow its stack, which must be stopped
 * (its guard, not a neighbour's stack).
 *
 * Through a stub rvhal did not start (device.shapes.gdb.remote.*), every
 * device attaches to the same target after the one before detached: what a
 * device leaves there (PMP entries its firmware locked, which QEMU 7.2's
 * reset keeps) must not break the next. The last device, whose stack
 * guards sit elsewhere, must either work or be refused at creation with a
 * message naming the locked PMP entry (never a launch that times out).
 * Under the QEMU backend each device is a new QEMU: it checks the same
 * results. */
#include "dev_util.h"
#include "dt_shared.h"

#define N 96

static void check_device(rvhal_device_t *d, uint32_t harts, uint32_t k) {
  const rvhal_device_info_t *info = rvhal_device_get_info(d);
  printf("  %u harts (asked %u), local memory %llu: created\n", info->num_harts, harts,
         (unsigned long long)info->local_mem_size);
  hal_program_t prog = fixture_program(d, "dt_trap");
  static uint8_t keep_host[16384];
  dt_fill_random(keep_host, sizeof keep_host, 1000 + k);
  hal_addr_t keep = dt_buffer(d, sizeof keep_host, keep_host);
  hal_addr_t out = dt_buffer(d, 64 * 1024, NULL);
  dt_check_healthy(d, prog, out, N, k, keep, keep_host, sizeof keep_host, __LINE__);
  /* every hart past its stack: its guard stops it */
  hal_ndrange_t nd = {.global = {info->num_harts}, .local = {1}};
  uint64_t bytes = info->local_mem_size * 2 + 4096;
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&bytes, 8)};
  int rc = rvhal_kernel_exec(d, prog, fixture_kernel(d, prog, "trap_stack"), &nd, args, 2, 1);
  CHECK_MSG(rc == RVHAL_STACK_OVERFLOW || rc == RVHAL_KERNEL_TRAP,
            "%u harts: %u work-items of %llu bytes of stack: %s: %s", info->num_harts, info->num_harts,
            (unsigned long long)bytes, rvhal_status_name(rc), rvhal_last_error());
  dt_check_healthy(d, prog, out, N, k + 100, keep, keep_host, sizeof keep_host, __LINE__);
  rvhal_device_delete(d);
}

int main(void) {
  const uint32_t shapes[] = {4, 2, 1, 3};
  uint32_t k = 1;
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    rvhal_device_options_t o = {.launch_timeout_ms = 20000};
    check_device(fixture_device_opts(shapes[i], &o), shapes[i], k++);
  }
  /* Other guards: stacks of another size. */
  const uint32_t index = fixture_device_index();
  rvhal_device_options_t o = {.num_harts = fixture_harts(2),
                              .local_mem_size = 2 * fixture_device_info()->local_mem_size,
                              .launch_timeout_ms = 20000};
  rvhal_device_t *d = NULL;
  int rc = rvhal_device_create(index, &o, &d);
  if (rc == RVHAL_OK) {
    check_device(d, o.num_harts, k++);
  } else {
    printf("  local memory %llu: refused: %s\n", (unsigned long long)o.local_mem_size, rvhal_last_error());
    CHECK_MSG(getenv("RVHAL_GDB_REMOTE") != NULL, "only an attached stub may refuse a device: %s: %s",
              rvhal_status_name(rc), rvhal_last_error());
    CHECK_LAST_ERROR_HAS("PMP entry");
    CHECK_LAST_ERROR_HAS("locked");
  }
  return check_result("shapes");
}
