/* ABI conformance kernel. It does not use the SDK's argument struct: it
 * reads the raw pack through the ABI entry's `args` pointer, at the offsets
 * the test computed from the documented rule, and reports every argument
 * whose bytes are not the expected ones. The first argument (offset 0) is
 * always a global buffer holding the expectations and receiving the
 * report. */
#include <stdint.h>
#include <string.h>

#include "abi_check.h"
#include "rvhal/hal_sched_info.h"

void abi_check(void *args, const hal_sched_info_t *sched);

void abi_check(void *args, const hal_sched_info_t *sched) {
  (void)sched;
  const uint8_t *pack = args;
  abi_check_desc_t *d = (abi_check_desc_t *)*(uintptr_t *)pack; /* argument 0 */
  d->pack_address = (uintptr_t)pack;
  d->mismatches = 0;
  for (uint32_t i = 0; i < d->num_args; i++) {
    const abi_check_arg_t *a = &d->arg[i];
    int bad = memcmp(pack + a->offset, d->expect + a->expect_at, a->size) != 0;
    d->seen_ok[i] = !bad;
    if (bad) {
      uint32_t n = a->size < sizeof d->found[i] ? a->size : (uint32_t)sizeof d->found[i];
      memcpy(d->found[i], pack + a->offset, n);
      d->mismatches++;
    }
  }
  d->done = ABI_CHECK_DONE;
}
