/* attach_refused WORDS...: run by external_stub on a target the device does
 * not fit (misfit-*): creating the device must fail at once (within the
 * stub's answers, not after the 20 s the firmware gets to boot) with
 * RVHAL_UNSUPPORTED and a message holding every one of WORDS, and the
 * target must stay attachable (external_stub checks it still runs). */
#include "dev_util.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: attach_refused WORDS...\n");
    return 2;
  }
  CHECK_MSG(getenv("RVHAL_GDB_REMOTE") != NULL, "run by external_stub: RVHAL_GDB_REMOTE is not set");
  rvhal_device_options_t o = {.num_harts = 2};
  rvhal_device_t *d = NULL;
  double t0 = dt_now();
  int rc = rvhal_device_create(fixture_device_index(), &o, &d);
  double dt = dt_now() - t0;
  printf("  device_create: %s after %.2f s: %s\n", rvhal_status_name(rc), dt, rvhal_last_error());
  CHECK_MSG(rc == RVHAL_UNSUPPORTED, "device_create: %s, expected RVHAL_UNSUPPORTED", rvhal_status_name(rc));
  CHECK_MSG(dt < 15.0, "refused after %.2f s: not at attach", dt);
  for (int i = 1; i < argc; i++) CHECK_LAST_ERROR_HAS(argv[i]);
  if (d) rvhal_device_delete(d);
  return check_result("attach_refused");
}
