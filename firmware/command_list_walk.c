/* Hart 0 runs a command list (rvhal_cmdlist.h) from one ring entry: each
 * launch in turn through the launch owner (launch_owner.c), copies and fills with
 * its own memmove/memset, each command's end in its status record, and it
 * stops at the first failure. Everything read from the list is checked
 * first: a privileged kernel of an earlier command may have rewritten it. */
#include <string.h>

#include "fw_board.h"
#include "fw_launch.h"
#include "fw_mmio.h"

/* The area, from the control block's place in the region (the empty asm
 * hides the pointer's origin: it is not inside fw_ctrl_block). */
static uint8_t *area(void) {
  uintptr_t a = (uintptr_t)FW_CTRL - RVHAL_CTRL_OFFSET + RVHAL_CMDLIST_OFFSET;
  __asm__("" : "+r"(a));
  return (uint8_t *)a;
}

/* [addr, addr + n) inside global memory (the boot configuration's heap). */
static int in_global(uint64_t addr, uint64_t n) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  uint64_t lo = b->heap_base, hi = b->heap_base + b->heap_size;
  return addr >= lo && addr <= hi && n <= hi - addr && (uintptr_t)addr == addr && (uintptr_t)n == n;
}

static int32_t run_copy(const rvhal_cmd_t *c) {
  uint64_t dst = c->dst, src = c->src, n = c->bytes;
  if (!in_global(dst, n) || !in_global(src, n)) return RVHAL_BAD_LAUNCH;
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, (size_t)n);
  return RVHAL_OK;
}

static int32_t run_fill(const rvhal_cmd_t *c, uint32_t size) {
  uint64_t dst = c->dst, n = c->bytes;
  uint32_t ps = c->pattern_size;
  if (!in_global(dst, n) || ps == 0 || ps > RVHAL_CMD_MAX_PATTERN || size < sizeof *c + ps) return RVHAL_BAD_LAUNCH;
  uint8_t pat[RVHAL_CMD_MAX_PATTERN];
  memcpy(pat, c + 1, ps);
  uint8_t *p = (uint8_t *)(uintptr_t)dst;
  if (ps == 1) {
    memset(p, pat[0], (size_t)n);
    return RVHAL_OK;
  }
  for (uint64_t i = 0; i < n; i++) p[i] = pat[i % ps];
  return RVHAL_OK;
}

void fw_run_cmdlist(uint64_t seq) {
  const rvhal_launch_desc_t *d = &FW_CTRL->ring.slots[seq % RVHAL_RING_SLOTS].desc;
  uint64_t start = fw_time_now();
  uint8_t *base = area(), *end = base + RVHAL_CMDLIST_SIZE;
  uint64_t at = d->args;
  if (d->seq != seq || at < (uintptr_t)base || at > (uintptr_t)end - sizeof(rvhal_cmdlist_t) ||
      at % RVHAL_CMDLIST_ALIGN) {
    fw_launch_complete(seq, RVHAL_BAD_LAUNCH, 0, start);
    return;
  }
  if (fw_launch_cancelled(d)) {
    fw_launch_complete(seq, RVHAL_CANCELLED, 0, start);
    return;
  }
  rvhal_cmdlist_t *L = (rvhal_cmdlist_t *)(uintptr_t)at;
  const uint32_t n = L->num_cmds, cap = L->capacity, bytes = L->bytes;
  const uint64_t room = (uint64_t)(uintptr_t)end - at;
  const uint64_t first = sizeof *L + ((uint64_t)cap * sizeof(rvhal_cmd_status_t) + 63) / 64 * 64;
  L->ran = 0;
  L->failed = 0;
  L->status = RVHAL_OK;
  if (L->magic != RVHAL_CMDLIST_MAGIC || L->seq != seq || n > cap || bytes > room || first > bytes) {
    L->status = RVHAL_BAD_LAUNCH;
    fw_launch_complete(seq, RVHAL_BAD_LAUNCH, 0, start);
    return;
  }
  rvhal_cmd_status_t *st = (rvhal_cmd_status_t *)(L + 1);
  uint64_t off = first;
  uint64_t now = start; /* the last clock reading: a command starts when the one before it ended */
  int32_t status = RVHAL_OK;
  uint32_t fault = 0, i;
  for (i = 0; i < n; i++) {
    rvhal_cmd_status_t *s = &st[i];
    const rvhal_cmd_t *c = (const rvhal_cmd_t *)(base + (at - (uintptr_t)base) + off);
    uint32_t size = c->size, kind = c->kind;
    const uint64_t t = now;
    int32_t rc = RVHAL_OK;
    if (size < sizeof *c || size % RVHAL_CMDLIST_ALIGN || size > bytes - off) {
      rc = RVHAL_BAD_LAUNCH;
    } else if (kind == RVHAL_CMD_LAUNCH) {
      const rvhal_launch_desc_t *ld = (const rvhal_launch_desc_t *)(c + 1);
      const uint8_t *args = (const uint8_t *)ld + RVHAL_CMD_DESC_SPACE;
      /* the arguments must lie inside the record (check_desc bounds their size) */
      if (size >= sizeof *c + RVHAL_CMD_DESC_SPACE + ld->args_size) {
        /* its end (or refusal) is written to s by the launch owner */
        if (fw_launch_start_cmd(seq, ld, args, s, t) == RVHAL_OK) {
          fw_run_share(&fw_harts[0]);
          fw_launch_wait_retired(seq);
        }
        now = fw_launch_cmd_end_mtime;
        if ((status = s->status) != RVHAL_OK) {
          fault = s->fault_hart;
          break;
        }
        off += size;
        L->ran = i + 1;
        continue;
      }
      rc = RVHAL_BAD_LAUNCH;
    } else if (kind == RVHAL_CMD_COPY) {
      rc = run_copy(c);
    } else if (kind == RVHAL_CMD_FILL) {
      rc = run_fill(c, size);
    } else if (kind != RVHAL_CMD_BARRIER) {
      rc = RVHAL_BAD_LAUNCH;
    }
    fw_fence(); /* a copy is done before the next command (or the host) looks */
    s->status = rc;
    s->fault_hart = 0;
    s->start_mtime = t;
    s->end_mtime = now = fw_time_now();
    s->seq = seq;
    if (rc != RVHAL_OK) {
      status = rc;
      break;
    }
    off += size;
    L->ran = i + 1;
  }
  if (status != RVHAL_OK) {
    L->failed = i;
    L->ran = i + 1;
  }
  L->status = status;
  fw_fence();
  fw_launch_complete(seq, status, fault, start);
}
