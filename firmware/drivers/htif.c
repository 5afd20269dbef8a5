/* HTIF (spike): tohost/fromhost words that the simulator finds by their
 * symbol names in the firmware ELF (QEMU's spike machine in the image given
 * with -kernel; Spike in the ELF it loads). Console output (device 1,
 * command 1) is the host link: the simulator writes the byte to its
 * console. HTIF raises no receive interrupt, so a spike board polls for
 * launches (FW_DOORBELL_POLL). */
#include <stdint.h>

#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

volatile uint64_t tohost __attribute__((section(".htif"), aligned(8)));
volatile uint64_t fromhost __attribute__((section(".htif"), aligned(8)));

static volatile uint32_t htif_lock;
static volatile uint32_t htif_absent;

void htif_notify_host(void) {
  if (htif_absent) return;
  /* Harts may notify at once: HTIF has one request slot. */
  while (__atomic_exchange_n(&htif_lock, 1, __ATOMIC_ACQUIRE)) {
  }
  tohost = (1ull << 56) | (1ull << 48) | (uint8_t)'!';
  /* A simulator takes the request at once (QEMU) or within its next few
   * thousand instructions (Spike). One that never does has no HTIF at
   * tohost (QEMU's spike started without -kernel: it then knows no
   * symbols): waiting for it would stop this hart for good, so the
   * firmware gives up the wake-ups after 100 ms of device time and the
   * host finds the firmware's progress by looking (an attached stub polls). */
  const uint64_t start = fw_time_now(), limit = fw_board.timebase_hz / 10;
  while (tohost != 0) {
    if (fw_time_now() - start > limit) {
      htif_absent = 1;
      tohost = 0;
      break;
    }
  }
  fromhost = 0;
  __atomic_store_n(&htif_lock, 0, __ATOMIC_RELEASE);
}
