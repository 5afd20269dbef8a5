/* libFuzzer target: the host's reader of device print rings, driven by a
 * device that writes anything: the input is a list of operations (write
 * bytes into a ring, set a ring's head or counters, drain, final drain,
 * reboot). Nothing the device writes may make the drain read outside a
 * ring, loop, or keep unbounded memory. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "observe/print_drain.h"

#define HARTS 3

static void discard(void *user, const char *line, size_t len) {
  (void)user;
  (void)line;
  (void)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t *ram;
  static rvhal_ctrl_t *ctrl;
  if (!ram) {
    ram = calloc(1, RVHAL_PRINT_OFFSET + (size_t)HARTS * RVHAL_PRINT_RING_SIZE);
    ctrl = calloc(1, sizeof *ctrl);
  }
  /* Each input starts from zeroed rings: only the bytes the last one wrote
   * are cleared (clearing all 192 KiB made each run 4x slower). */
  static uint32_t dirty_lo[HARTS], dirty_hi[HARTS];
  for (uint32_t h = 0; h < HARTS; h++) {
    if (dirty_hi[h] > dirty_lo[h])
      memset(ram + RVHAL_PRINT_OFFSET + (size_t)h * RVHAL_PRINT_RING_SIZE + dirty_lo[h], 0, dirty_hi[h] - dirty_lo[h]);
    dirty_lo[h] = RVHAL_PRINT_RING_SIZE;
    dirty_hi[h] = 0;
    memset(&ctrl->harts[h].print, 0, sizeof ctrl->harts[h].print);
  }
#define DIRTY(h, at, n)                               \
  do {                                                \
    if ((at) < dirty_lo[h]) dirty_lo[h] = (uint32_t)(at); \
    if ((at) + (n) > dirty_hi[h]) dirty_hi[h] = (uint32_t)((at) + (n)); \
  } while (0)
  rvhal_print_state_t s;
  rvhal_print_init(&s, discard, NULL);
  rvhal_print_reset_order(&s);
  while (size >= 2) {
    uint8_t op = data[0], h = data[1] % HARTS;
    data += 2, size -= 2;
    uint8_t *ring = ram + RVHAL_PRINT_OFFSET + (size_t)h * RVHAL_PRINT_RING_SIZE;
    switch (op % 6) {
    case 0: { /* bytes at an offset of the ring */
      if (size < 3) goto out;
      uint32_t at = (uint32_t)(data[0] | data[1] << 8) % RVHAL_PRINT_RING_SIZE, len = data[2];
      data += 3, size -= 3;
      if (len > size) len = (uint32_t)size;
      if (len > RVHAL_PRINT_RING_SIZE - at) len = RVHAL_PRINT_RING_SIZE - at;
      memcpy(ring + at, data, len);
      DIRTY(h, at, len);
      data += len, size -= len;
      break;
    }
    case 1: { /* the head moves by a small step, or anywhere */
      if (size < 8) goto out;
      uint64_t v;
      memcpy(&v, data, 8);
      data += 8, size -= 8;
      ctrl->harts[h].print.head = op & 0x80 ? v : ctrl->harts[h].print.head + (v & 0xffff);
      break;
    }
    case 2: { /* a well-formed record at the head, when it fits */
      if (size < 1) goto out;
      uint32_t len = data[0];
      data++, size--;
      if (len > size) len = (uint32_t)size;
      rvhal_print_ring_t *r = &ctrl->harts[h].print;
      uint32_t rec = (uint32_t)((sizeof(rvhal_print_record_t) + len + 7) & ~7u);
      uint64_t at = r->head % RVHAL_PRINT_RING_SIZE;
      if (at + rec <= RVHAL_PRINT_RING_SIZE) {
        rvhal_print_record_t hdr = {.size = rec, .len = len, .order = op, .hart = h, .flags = 0, .item = op & 7};
        memcpy(ring + at, &hdr, sizeof hdr);
        memcpy(ring + at + sizeof hdr, data, len);
        DIRTY(h, at, sizeof hdr + len);
        r->head += rec;
      }
      data += len, size -= len;
      break;
    }
    case 3: ctrl->harts[h].print.lost_records += op; ctrl->harts[h].print.tail = op; break;
    case 4: (void)rvhal_print_drain(&s, ctrl, ram, HARTS, op & 0x40 ? 1 : 0); break;
    default: /* reboot */
      for (uint32_t k = 0; k < HARTS; k++) {
        if (dirty_hi[k] > dirty_lo[k])
          memset(ram + RVHAL_PRINT_OFFSET + (size_t)k * RVHAL_PRINT_RING_SIZE + dirty_lo[k], 0, dirty_hi[k] - dirty_lo[k]);
        dirty_lo[k] = RVHAL_PRINT_RING_SIZE;
        dirty_hi[k] = 0;
        memset(&ctrl->harts[k].print, 0, sizeof ctrl->harts[k].print);
      }
      rvhal_print_reset_order(&s);
      break;
    }
  }
out:
  (void)rvhal_print_drain(&s, ctrl, ram, HARTS, 1);
  rvhal_print_free(&s);
  return 0;
}
