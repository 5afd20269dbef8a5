/* Every launch wakes hart 0 through the doorbell: the device is made with
 * hart 0 never lingering (RVHAL_LINGER_OFF), and the host waits a moment
 * after each launch, so hart 0 is asleep in wfi when the next one is
 * submitted. All launches must complete, with the right results, on every
 * board (a polled board's timer wakes hart 0 too) and backend; through the
 * GDB-remote backend the doorbell is the board's debug doorbell (its
 * descriptor's debug_doorbell: hart 0's MSIP written through the protocol,
 * or under OpenSBI hart 0's sip.SSIP set through the stub's registers).
 *
 * With the argument "wrong" (device.doorbell.gdb.wrong: RVHAL_GDB_DOORBELL
 * is another hart's MSIP), a launch must time out instead, and say so: it is
 * the write to hart 0's register that wakes it, not a side effect of the
 * debugger's halts and resumes. */
#include <unistd.h>

#include "dev_util.h"

#define LAUNCHES 8
#define ITEMS 64

int main(int argc, char **argv) {
  const int wrong = argc > 1 && !strcmp(argv[1], "wrong");
  rvhal_device_options_t o = {.linger_us = RVHAL_LINGER_OFF, .launch_timeout_ms = wrong ? 2000 : 0};
  rvhal_device_t *d = fixture_device_opts(4, &o);
  hal_program_t p = fixture_program(d, "dt_prog_b");
  hal_kernel_t k = fixture_kernel(d, p, "prog_b_fill");
  hal_addr_t out = dt_buffer(d, ITEMS * 4, NULL);
  int timed_out = 0;
  for (uint32_t i = 0; i < LAUNCHES && !timed_out; i++) {
    usleep(2000); /* hart 0 goes back to wfi (not a timing: it only makes the bell needed) */
    uint32_t v = 100 + i;
    hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&v, 4)};
    hal_ndrange_t nd = {.global = {ITEMS}, .local = {4}};
    int rc = rvhal_kernel_exec(d, p, k, &nd, args, 2, 1);
    if (wrong && rc) {
      CHECK_MSG(rc == RVHAL_TIMEOUT && strstr(rvhal_last_error(), "did not finish within 2000 ms"),
                "launch %u with a wrong doorbell: %s: %s (expected a timeout)", i, rvhal_status_name(rc),
                rvhal_last_error());
      timed_out = 1;
      break;
    }
    CHECK_OK(rc);
    uint32_t got[ITEMS];
    CHECK_OK(rvhal_mem_read(d, got, out, sizeof got));
    CHECK_MSG(got[0] == v && got[ITEMS - 1] == v + ITEMS - 1, "launch %u: out[0] %u, out[%d] %u, expected %u, %u", i,
              got[0], ITEMS - 1, got[ITEMS - 1], v, v + ITEMS - 1);
  }
  if (wrong) CHECK_MSG(timed_out, "%d launches finished although the doorbell rang another hart", LAUNCHES);
  if (!wrong) {
    CHECK_OK(rvhal_mem_free(d, out));
    CHECK_OK(rvhal_program_free(d, p));
  }
  rvhal_device_delete(d);
  return check_result(wrong ? "doorbell (wrong bell)" : "doorbell");
}
