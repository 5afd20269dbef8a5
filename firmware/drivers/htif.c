/* HTIF (spike): tohost/fromhost words that QEMU finds by their symbol names
 * in the firmware ELF. Console output (device 1, command 1) is the host
 * link: QEMU writes the byte to the serial chardev. HTIF raises no receive
 * interrupt, so a spike board polls for launches (FW_DOORBELL_POLL). */
#include <stdint.h>

#include "fw_drivers.h"

volatile uint64_t tohost __attribute__((section(".htif"), aligned(8)));
volatile uint64_t fromhost __attribute__((section(".htif"), aligned(8)));

static volatile uint32_t htif_lock;

void htif_notify_host(void) {
  /* Harts may notify at once: HTIF has one request slot. */
  while (__atomic_exchange_n(&htif_lock, 1, __ATOMIC_ACQUIRE)) {
  }
  tohost = (1ull << 56) | (1ull << 48) | (uint8_t)'!';
  while (tohost != 0) {
  }
  fromhost = 0;
  __atomic_store_n(&htif_lock, 0, __ATOMIC_RELEASE);
}
