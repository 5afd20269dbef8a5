/* RISC-V PLIC: one source routed to the context of one hart in the
 * firmware's privilege mode (the board's RVHAL_BOARD_PLIC_CONTEXT). */
#include "board.h"
#include "fw_drivers.h"
#include "fw_mmio.h"

#define PLIC ((uintptr_t)RVHAL_BOARD_PLIC_BASE)
#define PRIORITY(src) (PLIC + 4u * (src))
#define ENABLE(ctx, src) (PLIC + 0x2000u + 0x80u * (ctx) + 4u * ((src) / 32u))
#define THRESHOLD(ctx) (PLIC + 0x200000u + 0x1000u * (ctx))
#define CLAIM(ctx) (PLIC + 0x200004u + 0x1000u * (ctx))

void plic_route_to_hart(uint32_t source, uint32_t hartid) {
  uint32_t ctx = RVHAL_BOARD_PLIC_CONTEXT(hartid);
  mmio_write32(PRIORITY(source), 1);
  mmio_write32(ENABLE(ctx, source), mmio_read32(ENABLE(ctx, source)) | (1u << (source % 32u)));
  mmio_write32(THRESHOLD(ctx), 0);
}

uint32_t plic_claim(uint32_t hartid) { return mmio_read32(CLAIM(RVHAL_BOARD_PLIC_CONTEXT(hartid))); }

void plic_complete(uint32_t hartid, uint32_t source) {
  mmio_write32(CLAIM(RVHAL_BOARD_PLIC_CONTEXT(hartid)), source);
}
