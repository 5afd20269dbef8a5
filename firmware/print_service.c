/* Kernel print: each call becomes one record in the calling hart's print
 * ring, with a device-wide order number so the host can merge the harts'
 * rings back into call order. The host drains the rings while a launch runs
 * and after it. A hart whose ring is full asks the host to drain it and
 * sleeps a little; only if the host does not come (a second) is the record
 * counted as lost, never silently dropped. */
#include <string.h>

#include "fw.h"
#include "fw_board.h"
#include "fw_mmio.h"
#include "fw_wait.h"

#define PRINT_MAX_WAITS 20000                             /* 1 s */

/* Wake the host (it drains the rings when it wakes) and sleep until the
 * timer, or any interrupt, wakes this hart. */
static void wait_for_drain(uint32_t hart) {
  if (__atomic_load_n(&FW_CTRL->ring.host_waiting, __ATOMIC_ACQUIRE)) fw_host_notify();
  fw_sleep_until(hart, fw_time_now() + fw_board.timebase_hz / 20000); /* 50 us */
}

static volatile uint32_t fw_print_order;

static uint8_t *ring_data(uint32_t hart) {
  return fw_print_rings + (uintptr_t)hart * RVHAL_PRINT_RING_SIZE;
}

void fw_print_record(uint32_t hart, uint64_t item, const char *text, uint32_t len, uint32_t flags) {
  rvhal_print_ring_t *ring = &FW_CTRL->harts[hart].print;
  uint8_t *data = ring_data(hart);
  if (len > RVHAL_PRINT_MAX_TEXT) {
    len = RVHAL_PRINT_MAX_TEXT;
    flags |= RVHAL_PRINT_TRUNCATED;
  }
  uint32_t size = (uint32_t)((sizeof(rvhal_print_record_t) + len + 7u) & ~7u);
  uint64_t head, tail;
  uint32_t at, to_end, need;
  for (uint32_t waits = 0;; waits++) {
    head = fw_load_u64(&ring->head);
    tail = fw_load_u64(&ring->tail);
    at = (uint32_t)(head % RVHAL_PRINT_RING_SIZE);
    to_end = RVHAL_PRINT_RING_SIZE - at;
    need = size + (to_end < size ? to_end : 0);
    if (RVHAL_PRINT_RING_SIZE - (head - tail) >= need) break;
    if (waits == PRINT_MAX_WAITS) {
      fw_store_u64(&ring->lost_bytes, fw_load_u64(&ring->lost_bytes) + len);
      fw_store_u64(&ring->lost_records, fw_load_u64(&ring->lost_records) + 1);
      return;
    }
    wait_for_drain(hart);
  }
  uint32_t order = __atomic_fetch_add(&fw_print_order, 1, __ATOMIC_RELAXED);
  if (to_end < size) {
    /* Records never wrap: fill the end of the ring with a pad record, or
     * leave it if not even a header fits (the reader skips it likewise). */
    if (to_end >= sizeof(rvhal_print_record_t)) {
      rvhal_print_record_t *pad = (rvhal_print_record_t *)(data + at);
      pad->size = to_end;
      pad->len = 0;
      pad->order = 0;
      pad->hart = (uint16_t)hart;
      pad->flags = RVHAL_PRINT_PAD;
      pad->item = 0;
    }
    head += to_end;
    at = 0;
  }
  rvhal_print_record_t *r = (rvhal_print_record_t *)(data + at);
  r->size = size;
  r->len = len;
  r->order = order;
  r->hart = (uint16_t)hart;
  r->flags = (uint16_t)flags;
  r->item = item;
  memcpy(r + 1, text, len);
  fw_store_u64(&ring->head, head + size);
}
