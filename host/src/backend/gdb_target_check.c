/* Checks of an attached target through its stub (gdb_target_check.h). */
#include "backend/gdb_target_check.h"

#include <stdio.h>
#include <string.h>

#include "base/internal.h"

/* Registers looked up by name in the stub's target description. */
enum { REG_MISA, REG_PRIV, REG_PMPCFG0, REG_PMPADDR0 = REG_PMPCFG0 + 4, REG_COUNT = REG_PMPADDR0 + 16 };
#define PMP_ENTRIES 16 /* the entries rvhal's firmware writes (isolation_pmp.c): 0..13, and two more it leaves off */
#define PMP_L 0x80u
#define PMP_A(cfg) (((cfg) >> 3) & 3u)
#define PMP_TOR 1u
#define PMP_NA4 2u
#define GUARD_CFG 0x98u /* locked, NAPOT, no access: the firmware's stack guards, entries 0 and 1 */

static const char *const reg_names[REG_COUNT] = {
    "misa",     "priv",     "pmpcfg0",  "pmpcfg1",  "pmpcfg2",   "pmpcfg3",   "pmpaddr0",  "pmpaddr1",
    "pmpaddr2", "pmpaddr3", "pmpaddr4", "pmpaddr5", "pmpaddr6",  "pmpaddr7",  "pmpaddr8",  "pmpaddr9",
    "pmpaddr10", "pmpaddr11", "pmpaddr12", "pmpaddr13", "pmpaddr14", "pmpaddr15",
};

/* Reads `len` bytes at addr: 1 if the stub answered with an error (nothing
 * there), 0 if read, an rvhal status if the link failed. */
static int probe(rvhal_rsp_t *r, uint64_t addr, void *buf, size_t len) {
  int rc = rvhal_rsp_read_mem(r, addr, buf, len);
  if (rc && r->reply_len >= 1 && r->reply_len <= 3 && r->reply[0] == 'E') {
    rvhal_clear_error();
    return 1;
  }
  return rc;
}

static int read_reg(rvhal_rsp_t *r, unsigned regnum, uint64_t *v, unsigned *bytes) {
  return rvhal_rsp_read_register(r, regnum, v, bytes);
}

/* The letters of misa's extension bits, "imafdc" order as in ISA strings. */
static void misa_letters(uint64_t misa, char *out, size_t cap) {
  static const char order[] = "iemafdqcbkjtpvnshu";
  size_t o = 0;
  for (const char *c = order; *c && o + 1 < cap; c++)
    if (misa & (1ull << (*c - 'a'))) out[o++] = *c;
  out[o] = '\0';
}

/* The harts' XLEN and extensions against the board's. */
static int check_misa(const rvhal_gdb_target_t *t, uint32_t hart, uint64_t misa, unsigned bytes) {
  const rvhal_board_desc_t *b = t->board;
  unsigned mxl = misa ? (unsigned)(misa >> (bytes * 8 - 2)) : 0;
  unsigned xlen = mxl == 1 ? 32 : mxl == 2 ? 64 : mxl == 3 ? 128 : bytes * 8;
  char have[32];
  misa_letters(misa, have, sizeof have);
  if (xlen != b->xlen || bytes * 8 != b->xlen)
    return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: hart %u of the target is RV%u (misa 0x%llx, %u-byte registers, "
                       "read through the stub); device %s-rv%u runs %s, RV%u firmware%s", hart, xlen,
                       (unsigned long long)misa, bytes, b->name, b->xlen, b->isa, b->xlen,
                       b->xlen == 64 && xlen == 32 ? ": a 32-bit target for a 64-bit device (qemu-system-riscv32?)"
                       : b->xlen == 32 && xlen == 64 ? ": a 64-bit target for a 32-bit device (qemu-system-riscv64 "
                                                      "runs RV32 harts with -cpu rv32)" : "");
  if (!misa) return RVHAL_OK; /* misa may read 0: nothing more to learn */
  const char *need = b->isa + 4; /* "rv64" */
  char missing[32] = "";
  size_t m = 0;
  for (const char *c = need; *c && *c != '_' && m + 1 < sizeof missing; c++)
    if (*c >= 'a' && *c <= 'z' && !(misa & (1ull << (*c - 'a')))) missing[m++] = *c, missing[m] = '\0';
  if (m)
    return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: hart %u of the target is rv%u%s (misa 0x%llx): it lacks %s of "
                       "device %s-rv%u's %s (another board, or another hart layout: first_hart %u)", hart, xlen, have,
                       (unsigned long long)misa, missing, b->name, b->xlen, b->isa, b->first_hart);
  return RVHAL_OK;
}

/* [*lo, *hi) of PMP entry i from its cfg byte and pmpaddr i (and i-1). */
static void pmp_region(unsigned a, uint64_t addr, uint64_t prev, uint64_t *lo, uint64_t *hi) {
  if (a == PMP_TOR) {
    *lo = prev << 2;
    *hi = addr << 2;
  } else if (a == PMP_NA4) {
    *lo = addr << 2;
    *hi = *lo + 4;
  } else { /* NAPOT: trailing ones give the size */
    unsigned ones = 0;
    while (ones < 62 && (addr >> ones) & 1) ones++;
    *lo = (addr & ~((1ull << ones) - 1)) << 2;
    *hi = *lo + (8ull << ones);
  }
}

/* PMP entries a reset left locked on hart `hart` (thread selected). The
 * firmware's own guards where this device wants them are fine: its writes
 * are ignored but change nothing. Any other locked entry would keep the
 * firmware out of memory it needs, or keep its isolation entries from
 * being written. */
static int check_pmp(rvhal_rsp_t *r, const rvhal_gdb_target_t *t, const unsigned *reg, uint32_t index) {
  const rvhal_board_desc_t *b = t->board;
  const uint32_t hart = b->first_hart + index;
  uint8_t cfg[PMP_ENTRIES] = {0};
  const unsigned per = b->xlen / 8; /* entries per pmpcfg register; RV64 has the even ones only */
  for (unsigned c = 0; c * per < PMP_ENTRIES; c++) {
    unsigned n = b->xlen == 64 ? 2 * c : c, bytes;
    uint64_t v;
    if (reg[REG_PMPCFG0 + n] == RVHAL_RSP_NO_REGISTER) return RVHAL_OK; /* no PMP the stub shows */
    RVHAL_RETURN_IF_ERROR(read_reg(r, reg[REG_PMPCFG0 + n], &v, &bytes));
    for (unsigned k = 0; k < per && c * per + k < PMP_ENTRIES; k++) cfg[c * per + k] = (uint8_t)(v >> (8 * k));
  }
  const uint64_t guard[2] = {t->boot->stacks_base + (uint64_t)index * t->boot->hart_stack_size,
                             t->boot->fibers_base + (uint64_t)index * t->boot->fiber_pool_size};
  const char *const guard_name[2] = {"stack", "work-item stack pool"};
  uint64_t prev = 0;
  for (unsigned i = 0; i < PMP_ENTRIES; i++) {
    uint64_t addr = 0;
    unsigned bytes;
    if ((cfg[i] & PMP_L) || (i + 1 < PMP_ENTRIES && (cfg[i + 1] & PMP_L) && PMP_A(cfg[i + 1]) == PMP_TOR)) {
      if (reg[REG_PMPADDR0 + i] == RVHAL_RSP_NO_REGISTER) return RVHAL_OK;
      RVHAL_RETURN_IF_ERROR(read_reg(r, reg[REG_PMPADDR0 + i], &addr, &bytes));
    }
    if (cfg[i] & PMP_L) {
      uint64_t lo = 0, hi = 0;
      if (PMP_A(cfg[i])) pmp_region(PMP_A(cfg[i]), addr, prev, &lo, &hi);
      const int mine = i < 2 && cfg[i] == GUARD_CFG && lo == guard[i] && hi == guard[i] + RVHAL_STACK_GUARD;
      const int in_ram = PMP_A(cfg[i]) && lo < t->ram_base + t->ram_size && hi > t->ram_base;
      if (!mine && (i < 14 || in_ram)) {
        char want[160] = "";
        if (i < 2)
          snprintf(want, sizeof want, "; this device's firmware puts hart %u's %s guard there, at [0x%llx, 0x%llx)",
                   hart, guard_name[i], (unsigned long long)guard[i],
                   (unsigned long long)(guard[i] + RVHAL_STACK_GUARD));
        return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: hart %u's PMP entry %u is locked (cfg 0x%02x, [0x%llx, 0x%llx)) "
                           "after the stub's reset ('%s'): firmware that ran there before locked it and the reset did "
                           "not unlock it (QEMU 7.2's system_reset keeps PMP entries; a hart reset on a board or Spike "
                           "clears them)%s. rvhal's firmware would fault on it or could not isolate kernels: reset the "
                           "target for real (a new QEMU), or give this device the local_mem_size, max_work_group_size "
                           "and item_stack_size of the device before it (its guards then stay where they were)",
                           hart, i, cfg[i], (unsigned long long)lo, (unsigned long long)hi, t->reset, want);
      }
    }
    prev = addr;
  }
  return RVHAL_OK;
}

int rvhal_gdb_check_target(rvhal_rsp_t *r, const rvhal_gdb_target_t *t) {
  const rvhal_board_desc_t *b = t->board;
  unsigned reg[REG_COUNT];
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_find_registers(r, reg_names, REG_COUNT, reg));
  for (uint32_t i = 0; i < t->num_harts; i++) {
    const uint32_t hart = b->first_hart + i;
    if (hart >= t->num_threads) break; /* the caller's count check names it */
    RVHAL_RETURN_IF_ERROR(rvhal_rsp_select_thread(r, t->threads[hart]));
    uint64_t v;
    unsigned bytes;
    if (reg[REG_MISA] != RVHAL_RSP_NO_REGISTER) {
      RVHAL_RETURN_IF_ERROR(read_reg(r, reg[REG_MISA], &v, &bytes));
      RVHAL_RETURN_IF_ERROR(check_misa(t, hart, v, bytes));
    }
    if (b->priv == 'M') RVHAL_RETURN_IF_ERROR(check_pmp(r, t, reg, i));
    /* The image starts in M-mode; a target stopped without a reset
     * (RVHAL_GDB_RESET="") may be in any mode. */
    if (b->debug_start_entry && reg[REG_PRIV] != RVHAL_RSP_NO_REGISTER) {
      RVHAL_RETURN_IF_ERROR(read_reg(r, reg[REG_PRIV], &v, &bytes));
      if ((v & 3) != 3) RVHAL_RETURN_IF_ERROR(rvhal_rsp_write_register(r, reg[REG_PRIV], 3, bytes));
    }
  }
  /* RAM at both ends of the device's window. */
  uint8_t buf[16];
  const uint64_t ends[2] = {t->ram_base + b->fw_offset, t->ram_base + t->ram_size - 8};
  for (int e = 0; e < 2; e++) {
    int rc = probe(r, ends[e], buf, 8);
    if (rc == 1)
      return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: the target has no memory at 0x%llx (the stub answered '%s'), "
                         "the %s of device %s-rv%u's RAM [0x%llx, 0x%llx): %s", (unsigned long long)ends[e], r->reply,
                         e ? "end" : "start", b->name, b->xlen, (unsigned long long)t->ram_base,
                         (unsigned long long)(t->ram_base + t->ram_size),
                         e ? "its RAM is smaller (QEMU: -m at least that; or give the device a smaller ram_size)"
                           : "its RAM is elsewhere (another board?)");
    if (rc) return rc;
  }
  if (t->msip) {
    int rc = probe(r, t->msip, buf, 4);
    if (rc == 1)
      return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: the target has no register at 0x%llx (the stub answered '%s'), "
                         "board %s's debug doorbell (hart %u's MSIP): another board?", (unsigned long long)t->msip,
                         r->reply, b->name, b->first_hart);
    if (rc) return rc;
  }
  /* An S-mode board's image is started by the target's SBI firmware, from
   * the start of RAM: nothing there, and the image never runs. */
  if (b->priv == 'S' && b->fw_offset) {
    int rc = probe(r, b->ram_base, buf, sizeof buf);
    if (rc == 1 || (!rc && !memcmp(buf, (const uint8_t[16]){0}, sizeof buf)))
      return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: the target has %s at 0x%llx, where board %s's SBI firmware "
                         "(OpenSBI) must run before rvhal's S-mode image at +0x%llx: start the target with it (QEMU: "
                         "-bios with OpenSBI's fw_dynamic.bin, as the board's qemu_bios says: \"%s\")",
                         rc ? "no memory" : "only zeros", (unsigned long long)b->ram_base, b->name,
                         (unsigned long long)b->fw_offset, b->qemu_bios);
    if (rc > 1) return rc;
  }
  return RVHAL_OK;
}

int rvhal_gdb_check_image(rvhal_rsp_t *r, const rvhal_elf_image_t *fw) {
  uint8_t got[64];
  for (uint32_t i = 0; i < fw->num_segments; i++) {
    const rvhal_elf_segment_t *s = &fw->segments[i];
    const size_t n = s->filesz < sizeof got ? (size_t)s->filesz : sizeof got;
    for (int end = 0; n && end < 2; end++) {
      const uint64_t off = end ? s->filesz - n : 0;
      RVHAL_RETURN_IF_ERROR(rvhal_rsp_read_mem(r, s->vaddr + off, got, n));
      const uint8_t *want = fw->data + s->offset + off;
      for (size_t k = 0; k < n; k++)
        if (got[k] != want[k])
          return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: the firmware written at 0x%llx reads back 0x%02x at 0x%llx, "
                             "not 0x%02x: the target's memory there is not RAM (ROM, or another board's map?)",
                             (unsigned long long)s->vaddr, got[k], (unsigned long long)(s->vaddr + off + k), want[k]);
    }
  }
  return RVHAL_OK;
}
