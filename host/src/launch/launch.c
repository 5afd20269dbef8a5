/* kernel_exec: check the launch against the device and the kernel's
 * metadata, pack the arguments, describe the launch in a ring slot, ring the
 * doorbell if hart 0 sleeps, and wait for the completion (a short spin, then
 * sleeping on the device's wake-up byte while draining print output). A
 * kernel that traps gets an error naming hart, cause, pc and address; one
 * that hangs gets the device restarted with its global memory intact. */
#define _GNU_SOURCE /* sched_getcpu */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/cpu_wait.h"
#include "device/device_internal.h"
#include "observe/profile.h"
#include "rvhal/arg_pack.h"

/* Waiting: a launch expected to be short (the recent ones were: a running
 * average of their device times, each counted as at most SPIN_MAX_NS, under
 * SPIN_MAX_NS / SPIN_FACTOR) is waited for by spinning on the ring for
 * SPIN_FACTOR times that average (at least SPIN_MIN_NS), then by sleeping
 * on the device's wake-up byte. While the host spins it is not marked
 * waiting, so the device sends no byte: a short launch makes no system call
 * on either side. Measured on the 2-core build machine under load, empty
 * launch: p50 1.1 us, p99 1.2 us spinning 5 us; sleeping at once p50 9.5 us,
 * p99 511 us. The spin never calls sched_yield: on a loaded host that gave
 * the core away for a whole round of other tasks (every launch ~530 us).
 * Longer launches sleep at once. RVHAL_HOST_SPIN_NS sets a fixed spin
 * instead (device.c reads it into host_spin_ns; 0: adaptive). */
#define SPIN_MAX_NS 60000u
#define SPIN_MIN_NS 5000u
#define SPIN_FACTOR 3u

#if defined(__x86_64__) || defined(__i386__)
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ volatile("yield")
#else
#define cpu_relax() ((void)0)
#endif
#define DRAIN_MS 5    /* while sleeping, empty the print rings this often */
#define CPU_WAIT_AFTER_NS (50 * 1000000ull) /* a launch this long starts watching QEMU's wait for a CPU */
#define CPU_WAIT_MAX_FACTOR 5 /* QEMU's wait stretches a deadline to at most this many timeouts of wall time */

#define now_ns rvhal_now_ns

/* A buffer argument's allocation (under the heap lock: copies run beside). */
static int heap_lookup(rvhal_device_t *d, hal_addr_t addr, hal_size_t *out_size) {
  RVHAL_HEAP_GUARD(d);
  return rvhal_allocator_lookup(d->heap, addr, NULL, out_size);
}

static const char *arg_kind_name(uint32_t kind) {
  switch (kind) {
  case RVHAL_ARG_KIND_GLOBAL: return "a global buffer";
  case RVHAL_ARG_KIND_LOCAL: return "a local buffer";
  case RVHAL_ARG_KIND_VALUE: return "a POD value";
  }
  return "an unknown kind";
}

static uint32_t arg_kind_of(const hal_arg_t *a) {
  if (a->kind == hal_arg_value) return RVHAL_ARG_KIND_VALUE;
  return a->space == hal_space_local ? RVHAL_ARG_KIND_LOCAL : RVHAL_ARG_KIND_GLOBAL;
}

/* The launch's arguments against what the kernel declared: count, kinds,
 * sizes, and where its argument struct keeps each one. */
/* "argument 2 'alpha' (float)" when the kernel recorded its parameters. */
static const char *describe_arg(const rvhal_kernel_entry_t *k, uint32_t i, char *buf, size_t cap) {
  const char *t = k->arg_text;
  for (uint32_t j = 0; t && j < i; j++) t += strlen(t) + 1, t += strlen(t) + 1;
  if (t) snprintf(buf, cap, "argument %u '%s' (%s)", i, t + strlen(t) + 1, t);
  else snprintf(buf, cap, "argument %u", i);
  return buf;
}

/* A value of type `given` for a parameter declared `want`: integers for
 * integers (sizes are checked apart), the same float for floats. */
static int types_clash(uint32_t want, uint32_t given) {
  if (!want || !given || want == RVHAL_TYPE_POD || given == RVHAL_TYPE_POD) return 0;
  if (rvhal_type_is_int(want) && rvhal_type_is_int(given)) return 0;
  return want != given;
}

static int check_against_meta(const char *kname, const rvhal_kernel_entry_t *k, const hal_arg_t *args,
                              uint32_t num_args, uint32_t word_size, const rvhal_arg_layout_t *layout, uint32_t total,
                              const uint8_t *types) {
  const rvhal_kernel_meta_t *m = &k->meta;
  if (num_args != m->num_args)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s takes %u arguments, %u given", kname, m->num_args, num_args);
  for (uint32_t i = 0; i < num_args; i++) {
    uint32_t want = RVHAL_ARG_DESC_KIND(m->args[i].desc), got = arg_kind_of(&args[i]);
    uint32_t member = RVHAL_ARG_DESC_SIZE(m->args[i].desc);
    if (want != got)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: argument %u must be %s, got %s", kname, i,
                         arg_kind_name(want), arg_kind_name(got));
    uint32_t declared = RVHAL_ARG_DESC_TYPE(m->args[i].desc);
    if (want == RVHAL_ARG_KIND_VALUE && types && types_clash(declared, types[i])) {
      char what[160];
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %s is declared %s, given a %s value", kname,
                         describe_arg(k, i, what, sizeof what), rvhal_type_name(declared), rvhal_type_name(types[i]));
    }
    if (want == RVHAL_ARG_KIND_VALUE && member != args[i].size)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: argument %u is a POD value of %u bytes, got %llu bytes",
                         kname, i, member, (unsigned long long)args[i].size);
    if (want != RVHAL_ARG_KIND_VALUE && member != word_size)
      return rvhal_error(RVHAL_INVALID_ARGUMENT,
                         "kernel %s: argument %u (%s) is packed as a %u-byte device word but its struct member is %u "
                         "bytes; declare it %s",
                         kname, i, arg_kind_name(want), word_size, member,
                         want == RVHAL_ARG_KIND_LOCAL ? "uintptr_t" : "a pointer");
    if (m->args[i].offset != layout[i].offset)
      return rvhal_error(RVHAL_INVALID_ARGUMENT,
                         "kernel %s: argument %u is at offset %u of the pack (aligned to %u) but at offset %u of the "
                         "kernel's argument struct; declare that member with RVHAL_PACKED_ARG (docs/abi.md)",
                         kname, i, layout[i].offset, layout[i].align, m->args[i].offset);
  }
  if (num_args && m->args_size < total)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: its argument struct is %u bytes, the pack %u", kname,
                       m->args_size, total);
  return RVHAL_OK;
}

/* The RVHAL_LAUNCH_TLB_* flags the launch needs (firmware/include/fw_speed.h):
 * QEMU's software TLB grows only when flushed, and only when it was over
 * 70 % in use. A launch whose buffers need more entries (4 KiB pages / 0.7;
 * a hart's share is not known: strided kernels touch every page from
 * every hart) than the TLB has asks the harts to grow it to that (a power
 * of two, at most TLB_MAX_ENTRIES) before they start. Later launches need
 * nothing: a flush costs an empty launch ~3 us, and a big launch the
 * refill of every page (vector_add over 192 MiB: 49152). Beyond
 * TLB_MAX_ENTRIES (64 MiB of pages) a bigger TLB measured no faster. */
#define TLB_START_ENTRIES 256u
#define TLB_MAX_ENTRIES (1u << 14)

static uint32_t tlb_flags(rvhal_device_t *d, const hal_arg_t *args, uint32_t num_args) {
  if (d->options.tlb_care_off & RVHAL_TLB_NO_FLUSH) return 0;
  uint64_t bytes = 0;
  hal_size_t size;
  for (uint32_t i = 0; i < num_args; i++)
    if (args[i].kind == hal_arg_address && args[i].space != hal_space_local && args[i].address != hal_nullptr &&
        heap_lookup(d, args[i].address, &size) == RVHAL_OK)
      bytes += size;
  const uint64_t needed = bytes / 4096 * 10 / 7;
  if (d->tlb_entries == 0) d->tlb_entries = TLB_START_ENTRIES; /* a new QEMU (device.c resets it) */
  if (needed <= d->tlb_entries || d->tlb_entries >= TLB_MAX_ENTRIES) return 0;
  uint32_t log2 = 0;
  while ((1ull << log2) < needed && (1ull << log2) < TLB_MAX_ENTRIES) log2++;
  d->tlb_entries = 1ull << log2;
  return RVHAL_LAUNCH_TLB_FLUSH | log2 << RVHAL_LAUNCH_TLB_LOG2_SHIFT;
}

static const char *mcause_name(uint64_t c) {
  static const char *const names[] = {"instruction address misaligned", "instruction access fault",
                                      "illegal instruction", "breakpoint", "load address misaligned",
                                      "load access fault", "store address misaligned", "store access fault",
                                      "environment call from U-mode", "environment call from S-mode", "reserved",
                                      "environment call from M-mode", "instruction page fault", "load page fault",
                                      "reserved", "store page fault"};
  return c < sizeof names / sizeof *names ? names[c] : "unknown exception";
}

/* "vector_add+0x1c" for a device pc inside the program. */
static void describe_pc(const rvhal_program_obj_t *p, uint64_t ram_base, uint64_t pc, char *buf, size_t cap) {
  const rvhal_elf_symbol_t *s = rvhal_elf_symbol_at(p->elf, pc);
  if (s) snprintf(buf, cap, " (%s+0x%llx)", s->name, (unsigned long long)(pc - s->value));
  else if (pc >= p->elf->segments[0].vaddr) snprintf(buf, cap, " (in the program)");
  else if (pc >= ram_base) snprintf(buf, cap, " (in the firmware)");
  else snprintf(buf, cap, " (outside device memory)");
}

/* The completion record (a copy) against what the firmware can report:
 * device memory is untrusted input, a kernel can write it. */
static int check_completion(const rvhal_device_t *d, const rvhal_completion_t *done, uint64_t seq) {
  if (done->seq != seq)
    return rvhal_error(RVHAL_FIRMWARE, "completion record of launch %llu: seq is %llu", (unsigned long long)seq,
                       (unsigned long long)done->seq);
  if (done->status > 0 || !strcmp(rvhal_status_name(done->status), "RVHAL_UNKNOWN"))
    return rvhal_error(RVHAL_FIRMWARE, "completion record of launch %llu: status %d is no rvhal status",
                       (unsigned long long)seq, (int)done->status);
  if (done->status != RVHAL_OK && done->fault_hart >= d->info.num_harts)
    return rvhal_error(RVHAL_FIRMWARE, "completion record of launch %llu: fault_hart %u (0x%x), the device has %u harts",
                       (unsigned long long)seq, done->fault_hart, done->fault_hart, d->info.num_harts);
  if (done->end_mtime < done->start_mtime)
    return rvhal_error(RVHAL_FIRMWARE, "completion record of launch %llu: end_mtime %llu is before start_mtime %llu",
                       (unsigned long long)seq, (unsigned long long)done->end_mtime,
                       (unsigned long long)done->start_mtime);
  return RVHAL_OK;
}

/* Device ticks to nanoseconds without overflow (ticks up to 2^64). */
static uint64_t ticks_to_ns(uint64_t ticks, uint64_t hz) {
  return ticks / hz * 1000000000ull + ticks % hz * 1000000000ull / hz;
}

/* Print output and the harts' blocks (trap reports, counters): on a
 * non-coherent backend, the blocks and the new bytes of each ring are read
 * first, and the tails the host moved are written back. */
static int drain(rvhal_device_t *d, int final) {
  rvhal_ctrl_t *c = d->ctrl;
  uint8_t *rings = rvhal_dev_ptr(d, d->layout.fw_base) + RVHAL_PRINT_OFFSET;
  const uint32_t n = d->info.num_harts;
  uint64_t tails[RVHAL_MAX_HARTS];
  if (!rvhal_dev_coherent(d)) {
    RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate_ptr(d, c->harts, n * sizeof c->harts[0]));
    for (uint32_t h = 0; h < n; h++) {
      uint64_t tail = d->print.tails_known ? d->print.tail[h] : c->harts[h].print.tail, head = c->harts[h].print.head;
      uint64_t len = head - tail > RVHAL_PRINT_RING_SIZE ? RVHAL_PRINT_RING_SIZE : head - tail; /* print_drain judges it */
      uint64_t at = tail % RVHAL_PRINT_RING_SIZE, first = len < RVHAL_PRINT_RING_SIZE - at ? len : RVHAL_PRINT_RING_SIZE - at;
      uint8_t *ring = rings + (size_t)h * RVHAL_PRINT_RING_SIZE;
      if (first) RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate_ptr(d, ring + at, first));
      if (len > first) RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate_ptr(d, ring, len - first));
      tails[h] = c->harts[h].print.tail;
    }
  }
  int rc = rvhal_print_drain(&d->print, c, rvhal_dev_ptr(d, d->layout.fw_base), n, final);
  if (!rvhal_dev_coherent(d))
    for (uint32_t h = 0; h < n; h++)
      if (c->harts[h].print.tail != tails[h]) {
        int f = rvhal_dev_flush_ptr(d, &c->harts[h].print.tail, sizeof c->harts[h].print.tail);
        if (f && !rc) rc = f;
      }
  return rc;
}

/* The ring's host-written flag, and its completion count, through the backend. */
static void set_host_waiting(rvhal_device_t *d, uint32_t v) {
  __atomic_store_n(&d->ctrl->ring.host_waiting, v, __ATOMIC_RELAXED);
  (void)rvhal_dev_flush_ptr(d, &d->ctrl->ring.host_waiting, sizeof v); /* a failure shows at the next access */
}
static uint64_t ring_completed(rvhal_device_t *d) {
  (void)rvhal_dev_invalidate_ptr(d, &d->ctrl->ring.completed, sizeof d->ctrl->ring.completed);
  return __atomic_load_n(&d->ctrl->ring.completed, __ATOMIC_ACQUIRE);
}

static int recover(rvhal_device_t *d, int status, const char *what);

static int launch_error(rvhal_device_t *d, const rvhal_program_obj_t *p, const char *kname,
                        const rvhal_completion_t *done) {
  int32_t st = done->status;
  /* fault_hart was checked; the report is copied once so that it cannot
   * change between its checks and its use */
  const rvhal_trap_report_t rep = d->ctrl->harts[done->fault_hart].trap, *r = &rep;
  char where[160] = "";
  if (st == RVHAL_STACK_OVERFLOW) {
    /* Whatever wrote over the canary may have hit the firmware's frames
     * below it too: the device restarts, so the next launch works. */
    char what[512];
    snprintf(what, sizeof what, "kernel %s overflowed the stack of hart %u (%llu bytes, local memory included); "
             "reduce its stack use or raise local_mem_size", kname, done->fault_hart,
             (unsigned long long)(d->layout.hart_stack_size - RVHAL_STACK_GUARD));
    return recover(d, st, what);
  }
  if (r->seq != done->seq) return rvhal_error(st, "kernel %s failed on hart %u: %s", kname, done->fault_hart,
                                              rvhal_status_string(st));
  describe_pc(p, d->layout.ram_base, r->mepc, where, sizeof where);
  if (r->kind == RVHAL_TRAP_EXCEPTION) {
    /* mtval is the address for access faults, the instruction for illegal ones */
    const char *what = r->mcause == 2 ? "instruction bits" : "address";
    char hint[160] = "";
    uint64_t off = r->mtval - d->layout.stacks_base;
    if ((r->mcause == 5 || r->mcause == 7) && r->mtval >= d->layout.stacks_base &&
        off / d->layout.hart_stack_size < d->info.num_harts && off % d->layout.hart_stack_size < RVHAL_STACK_GUARD)
      snprintf(hint, sizeof hint, " (in the guard below hart %llu's stack: the kernel ran off its %llu-byte stack; "
               "reduce its stack use or raise local_mem_size)", (unsigned long long)(off / d->layout.hart_stack_size),
               (unsigned long long)(d->layout.hart_stack_size - RVHAL_STACK_GUARD));
    uint64_t poff = r->mtval - d->layout.fibers_base;
    if ((r->mcause == 5 || r->mcause == 7) && r->mtval >= d->layout.fibers_base &&
        poff / d->layout.fiber_pool_size < d->info.num_harts && poff % d->layout.fiber_pool_size < RVHAL_STACK_GUARD)
      snprintf(hint, sizeof hint, " (in the guard below hart %llu's work-item stacks: a work-item ran off its "
               "%llu-byte stack; reduce its stack use or raise item_stack_size)",
               (unsigned long long)(poff / d->layout.fiber_pool_size), (unsigned long long)d->layout.fiber_stack_size);
    return rvhal_error(st, "kernel %s trapped on hart %u: %s (mcause %llu) at pc 0x%llx%s, %s 0x%llx%s", kname,
                       done->fault_hart, mcause_name(r->mcause), (unsigned long long)r->mcause,
                       (unsigned long long)r->mepc, where, what, (unsigned long long)r->mtval, hint);
  }
  char detail[sizeof r->detail + 1];
  memcpy(detail, r->detail, sizeof r->detail);
  detail[sizeof r->detail] = '\0';
  return rvhal_error(st, "kernel %s stopped on hart %u: %s: %s (value %llu)", kname, done->fault_hart,
                     rvhal_status_string(st), detail, (unsigned long long)r->mtval);
}

/* A device that stopped answering or died: restart it (global memory is a
 * host-owned memfd and survives), and say what happened. */
static int recover(rvhal_device_t *d, int status, const char *what) {
  char why[1024];
  snprintf(why, sizeof why, "%s", what);
  (void)drain(d, 1); /* what it can still read */
  if (rvhal_device_boot(d) != RVHAL_OK) {
    char boot[512];
    snprintf(boot, sizeof boot, "%s", rvhal_last_error());
    d->lost = 1;
    return rvhal_error(RVHAL_DEVICE_LOST, "%s; restarting the device failed: %s", why, boot);
  }
  return rvhal_error(status, "%s; the device was restarted, global memory is intact", why);
}

/* The device wrote something it cannot have written honestly (a kernel's
 * store into the control block?): the launch fails with the message naming
 * the record and value (set by the caller's check), and the device restarts,
 * stopping whatever still runs there. */
static int device_lied(rvhal_device_t *d, const char *kname, int status) {
  char what[1100];
  snprintf(what, sizeof what, "kernel %s: %s", kname, rvhal_last_error());
  set_host_waiting(d, 0);
  return recover(d, status, what);
}

/* How long to spin before sleeping on this launch (see the top). */
static uint64_t spin_ns(const rvhal_device_t *d) {
  if (!rvhal_dev_coherent(d)) return 0; /* every look is a round trip to the device */
  if (d->host_spin_ns) return d->host_spin_ns;
  if (d->host_cpus < 2 || d->recent_launch_ns > SPIN_MAX_NS / SPIN_FACTOR) return 0;
  uint64_t spin = d->recent_launch_ns * SPIN_FACTOR;
  return spin < SPIN_MIN_NS ? SPIN_MIN_NS : spin;
}

/* Wait for launch `seq`: spin (if it should be short), then sleep, draining
 * print output meanwhile. */
static int wait_for(rvhal_device_t *d, uint64_t seq, const char *kname) {
  rvhal_ring_t *ring = &d->ctrl->ring;
  uint64_t start = now_ns(), spin = spin_ns(d);
  while (__atomic_load_n(&ring->completed, __ATOMIC_ACQUIRE) < seq) {
    if (now_ns() - start > spin) break;
    cpu_relax();
  }
  if (ring_completed(d) >= seq) return RVHAL_OK;

  const uint64_t timeout_ns = (uint64_t)d->options.launch_timeout_ms * 1000000ull;
  uint64_t deadline = start + timeout_ns;
  /* Time the device's QEMU waited for a CPU (a loaded host) does not count,
   * up to CPU_WAIT_MAX_FACTOR timeouts in all (a kernel that hangs on a
   * starved host still ends, and tests that expect a timeout stay bounded):
   * measured from CPU_WAIT_AFTER_NS on, so short launches never read /proc. */
  rvhal_cpu_wait_t starved;
  int watching = 0; /* 1: starved holds the start, -1: cannot be known */
  set_host_waiting(d, 1);
  __atomic_thread_fence(__ATOMIC_SEQ_CST); /* pairs with the firmware's fence after `completed` */
  int rc = RVHAL_OK;
  while (ring_completed(d) < seq) {
    uint64_t now = now_ns();
    if (!watching && now - start >= CPU_WAIT_AFTER_NS) {
      long pid = d->backend->vtable->process_id ? d->backend->vtable->process_id(d->backend) : 0;
      watching = rvhal_cpu_wait_start(&starved, pid) ? -1 : 1;
    }
    uint64_t waited = 0;
    if (now >= deadline && watching > 0) {
      waited = rvhal_cpu_wait_since(&starved);
      if (waited > (CPU_WAIT_MAX_FACTOR - 1) * timeout_ns) waited = (CPU_WAIT_MAX_FACTOR - 1) * timeout_ns;
    }
    if (now >= deadline && waited > 0 && start + timeout_ns + waited > now) {
      deadline = start + timeout_ns + waited;
      continue;
    }
    if (now >= deadline) {
      char what[320];
      int n = snprintf(what, sizeof what, "kernel %s did not finish within %u ms", kname, d->options.launch_timeout_ms);
      if (waited >= 1000000ull && n > 0 && (size_t)n < sizeof what)
        snprintf(what + n, sizeof what - (size_t)n, " (not counting %llu ms its QEMU waited for a CPU)",
                 (unsigned long long)(waited / 1000000ull));
      set_host_waiting(d, 0);
      return recover(d, RVHAL_TIMEOUT, what);
    }
    uint64_t left_ms = (deadline - now) / 1000000ull + 1;
    rc = d->backend->vtable->wait(d->backend, (int)(left_ms < DRAIN_MS ? left_ms : DRAIN_MS));
    if (rc == RVHAL_DEVICE_LOST) {
      char what[600];
      snprintf(what, sizeof what, "while running kernel %s: %s", kname, rvhal_last_error());
      set_host_waiting(d, 0);
      return recover(d, RVHAL_DEVICE_LOST, what);
    }
    if (rc) break;
    if ((rc = drain(d, 0))) return device_lied(d, kname, rc);
  }
  set_host_waiting(d, 0);
  return rc;
}

int rvhal_kernel_exec(rvhal_device_t *d, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                      const hal_arg_t *args, uint32_t num_args, uint32_t work_dim) {
  return rvhal_kernel_exec_ex(d, program, kernel, nd, args, num_args, work_dim, NULL);
}

/* One launch at a time per device: other threads wait for the device's
 * lock; a print callback (which runs on the launching thread, inside the
 * lock) that launches on the device it prints for gets RVHAL_BUSY instead
 * of sharing the ring slot and the print state. */
int rvhal_kernel_exec_ex(rvhal_device_t *d, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                         const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                         const rvhal_launch_options_t *opts) {
  RVHAL_DEVICE_GUARD(d);
  rvhal_clear_error();
  if (!d || !nd) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel_exec: NULL device or ndrange");
  if (__atomic_exchange_n(&d->busy, 1, __ATOMIC_ACQUIRE))
    return rvhal_error(RVHAL_BUSY, "kernel_exec: the device is running launch %llu (called from its print callback?)", (unsigned long long)__atomic_load_n(&d->seq, __ATOMIC_RELAXED));
  rvhal_launch_t l;
  int rc = rvhal_launch_submit(d, program, kernel, nd, args, num_args, work_dim, opts, 0, &l);
  if (rc == RVHAL_OK) rc = rvhal_launch_complete(d, &l, 0);
  __atomic_store_n(&d->busy, 0, __ATOMIC_RELEASE);
  return rc;
}

int rvhal_launch_describe(rvhal_device_t *d, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                          const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                          const rvhal_launch_options_t *opts, rvhal_launch_desc_t *desc, uint8_t *args_buf,
                          uint64_t args_dev, rvhal_launch_t *out) {
  if (!nd) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel_exec: NULL ndrange");
  if (d->lost) return rvhal_error(RVHAL_DEVICE_LOST, "kernel_exec: the device stopped and could not be restarted");
  rvhal_program_obj_t *p = rvhal_program_get(d, program);
  if (!p) return rvhal_error(RVHAL_NOT_FOUND, "kernel_exec: no loaded program has handle %llu",
                             (unsigned long long)program);
  const rvhal_kernel_entry_t *kobj = rvhal_kernel_get(p, kernel);
  if (!kobj) {
    for (rvhal_program_obj_t *o = d->programs; o; o = o->next)
      if (rvhal_kernel_get(o, kernel))
        return rvhal_error(RVHAL_NOT_FOUND, "kernel_exec: kernel handle %llu is not a kernel of program %llu (it "
                           "belongs to program %llu)", (unsigned long long)kernel, (unsigned long long)program,
                           (unsigned long long)o->handle);
    return rvhal_error(RVHAL_NOT_FOUND, "kernel_exec: %llu is not a kernel of program %llu (kernel handles come "
                       "from program_find_kernel)", (unsigned long long)kernel, (unsigned long long)program);
  }
  const char *kname = kobj->name;
  kernel = kobj->entry; /* the device address from here on */

  /* The ND-range: dimensions past work_dim are 1 group of 1 item. */
  if (work_dim < 1 || work_dim > 3)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: work_dim %u is not 1, 2 or 3", kname, work_dim);
  uint64_t global[3], local[3], offset[3], groups[3];
  uint64_t word_max = d->info.word_size == 4 ? UINT32_MAX : UINT64_MAX;
  for (uint32_t i = 0; i < 3; i++) {
    global[i] = i < work_dim ? nd->global[i] : 1;
    local[i] = i < work_dim ? nd->local[i] : 1;
    offset[i] = i < work_dim ? nd->offset[i] : 0;
    if (global[i] == 0) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange global[%u] is 0", kname, i);
    if (local[i] == 0) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange local[%u] is 0", kname, i);
    if (global[i] % local[i])
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange global[%u]=%llu is not a multiple of local[%u]=%llu",
                         kname, i, (unsigned long long)global[i], i, (unsigned long long)local[i]);
    if (global[i] > word_max || offset[i] > word_max - global[i])
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange offset[%u]+global[%u] exceeds the %u-bit device",
                         kname, i, i, d->info.word_size * 8);
    groups[i] = global[i] / local[i];
  }
  /* Products and sums of caller-given sizes are checked: one that wraps
   * would pass every later check (a work-group count of 0, a local-memory
   * total smaller than one buffer). */
  uint64_t items, total_groups;
  if (__builtin_mul_overflow(local[0], local[1], &items) || __builtin_mul_overflow(items, local[2], &items))
    items = UINT64_MAX;
  if (__builtin_mul_overflow(groups[0], groups[1], &total_groups) ||
      __builtin_mul_overflow(total_groups, groups[2], &total_groups) || total_groups > word_max)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange of %llux%llux%llu work-groups: more than the %u-bit "
                       "device can count (%llu)", kname, (unsigned long long)groups[0], (unsigned long long)groups[1],
                       (unsigned long long)groups[2], d->info.word_size * 8, (unsigned long long)word_max);
  if (local[0] > d->info.max_work_group_size || local[1] > d->info.max_work_group_size ||
      local[2] > d->info.max_work_group_size || items > d->info.max_work_group_size)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: work-group of %llux%llux%llu items exceeds the device's %u",
                       kname, (unsigned long long)local[0], (unsigned long long)local[1],
                       (unsigned long long)local[2], d->info.max_work_group_size);

  /* Arguments: layout, kernel metadata, buffers, local memory. */
  if (num_args && !args) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u arguments but args is NULL", kname,
                                            num_args);
  if (num_args > RVHAL_META_MAX_ARGS)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u arguments, at most %u supported", kname, num_args,
                       RVHAL_META_MAX_ARGS);
  rvhal_arg_layout_t layout[RVHAL_META_MAX_ARGS];
  uint32_t total;
  int rc = rvhal_arg_layout(args, num_args, d->info.word_size, layout, &total);
  if (rc) {
    char why[512];
    snprintf(why, sizeof why, "%s", rvhal_last_error());
    return rvhal_error(rc, "kernel %s: %s", kname, why);
  }
  if (kobj->has_meta)
    RVHAL_RETURN_IF_ERROR(check_against_meta(kname, kobj, args, num_args, d->info.word_size, layout, total,
                                             opts ? opts->arg_types : NULL));
  uint32_t nlocal = 0;
  uint64_t local_bytes = 0;
  for (uint32_t i = 0; i < num_args; i++) {
    const hal_arg_t *a = &args[i];
    if (a->kind != hal_arg_address) continue;
    if (a->space == hal_space_local) {
      if (nlocal == RVHAL_MAX_LOCAL_ARGS)
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: more than %u local-buffer arguments", kname,
                           RVHAL_MAX_LOCAL_ARGS);
      desc->local_arg_offset[nlocal++] = layout[i].offset;
      if (a->size > UINT64_MAX - RVHAL_LOCAL_ALIGN ||
          __builtin_add_overflow(local_bytes, rvhal_align_up(a->size, RVHAL_LOCAL_ALIGN), &local_bytes))
        return rvhal_error(RVHAL_LOCAL_MEMORY, "kernel %s: argument %u: a local buffer of %llu bytes, the device has "
                           "%llu bytes of local memory", kname, i, (unsigned long long)a->size,
                           (unsigned long long)d->layout.local_mem_size);
    } else if (a->address != hal_nullptr && heap_lookup(d, a->address, NULL) != RVHAL_OK) {
      return rvhal_error(RVHAL_OUT_OF_RANGE, "kernel %s: argument %u: buffer address 0x%llx is not inside any "
                         "allocation of device global memory", kname, i, (unsigned long long)a->address);
    }
  }
  uint64_t tls = rvhal_align_up(p->elf->tls_size, RVHAL_LOCAL_ALIGN), group_bytes;
  if (__builtin_add_overflow(local_bytes, tls, &group_bytes) || group_bytes > d->layout.local_mem_size)
    return rvhal_error(RVHAL_LOCAL_MEMORY,
                       "kernel %s: a work-group needs %llu bytes of local memory (%llu in local-buffer arguments, "
                       "%llu in __local_variable), the device has %llu",
                       kname, (unsigned long long)group_bytes, (unsigned long long)local_bytes,
                       (unsigned long long)tls, (unsigned long long)d->layout.local_mem_size);

  /* How the harts share the work. */
  uint32_t harts = d->info.num_harts;
  if (opts && opts->harts) {
    if (opts->harts > d->info.num_harts)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u harts requested, the device has %u", kname,
                         opts->harts, d->info.num_harts);
    harts = opts->harts;
  }
  /* Harts per group (a team): given, or chosen (docs/execution-model.md has
   * the measurements): one per group while there are groups for every hart;
   * with fewer groups, the harts are shared among them, but never more
   * harts in all than the host has cores (in fast timing a hart is a host
   * thread; beyond the cores, cross-hart barriers only wait longer), and
   * never in exact timing (harts run in turn there). */
  uint32_t team = 1;
  if (opts && opts->harts_per_group) {
    team = opts->harts_per_group;
    if (team > harts || harts % team)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u harts per work-group must divide the %u harts taking part",
                         kname, team, harts);
    if (team > items)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u harts per work-group but a group has only %llu "
                         "work-items", kname, team, (unsigned long long)items);
  } else if (total_groups < harts && d->options.timing != RVHAL_TIMING_EXACT) {
    uint32_t usable = harts < d->host_cpus ? harts : d->host_cpus;
    team = (uint32_t)(usable / total_groups);
    if (team < 1) team = 1;
    if (team > items) team = (uint32_t)items;
  }
  uint64_t teams = harts / team;
  uint64_t chunk = opts && opts->chunk_groups ? opts->chunk_groups : total_groups / (teams * 8);
  if (chunk < 1) chunk = 1;
  if (chunk > groups[0]) chunk = groups[0];
  /* (groups[0] + chunk - 1) / chunk would wrap for counts near 2^64; the
   * product fits: it is at most total_groups */
  uint64_t chunks = (groups[0] / chunk + (groups[0] % chunk != 0)) * groups[1] * groups[2];
  if (teams > chunks) teams = chunks;
  harts = (uint32_t)(teams * team);

  /* Describe the launch. */
  uint64_t seq = d->seq + 1;
  rvhal_arg_pack_laid_out(args, num_args, d->info.word_size, layout, args_buf, RVHAL_ARGS_MAX);
  desc->seq = seq;
  desc->entry = kernel;
  desc->args = args_dev;
  desc->args_size = total;
  desc->work_dim = work_dim;
  for (int i = 0; i < 3; i++) {
    desc->num_groups[i] = groups[i];
    desc->global_offset[i] = offset[i];
    desc->local_size[i] = (uint32_t)local[i];
  }
  desc->harts = harts;
  desc->harts_per_group = team;
  desc->flags = 0;
  const int counting = d->options.counters && !(opts && opts->counters_off);
  if (counting) desc->flags |= RVHAL_LAUNCH_COUNTERS;
  if (counting && rvhal_profile_wants_events(d->profile)) desc->flags |= RVHAL_LAUNCH_TRACE;
  desc->flags |= tlb_flags(d, args, num_args);
  if (opts && opts->privileged) desc->flags |= RVHAL_LAUNCH_PRIVILEGED;
  desc->chunk_groups = chunk;
  desc->num_local_args = nlocal;
  desc->num_installs = 0;
  *out = (rvhal_launch_t){.seq = seq, .boot = d->boots, .program = program, .kname = kname, .total_groups = total_groups,
                          .chunk = chunk, .harts = harts, .team = team, .work_dim = work_dim, .counting = counting};
  for (int i = 0; i < 3; i++) {
    out->global[i] = global[i];
    out->local[i] = local[i];
  }
  return RVHAL_OK;
}

int rvhal_launch_submit(rvhal_device_t *d, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                        const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                        const rvhal_launch_options_t *opts, int after_ok, rvhal_launch_t *out) {
  if (d->seq - d->retired >= RVHAL_RING_SLOTS)
    return rvhal_error(RVHAL_BUSY, "kernel_exec: %u launches are on the device already (the ring's depth)",
                       RVHAL_RING_SLOTS);
  rvhal_launch_slot_t *slot = &d->ctrl->ring.slots[(d->seq + 1) % RVHAL_RING_SLOTS];
  rvhal_launch_desc_t *desc = &slot->desc;
  RVHAL_RETURN_IF_ERROR(rvhal_launch_describe(d, program, kernel, nd, args, num_args, work_dim, opts, desc, slot->args,
                                              d->layout.ctrl + ((uint8_t *)slot->args - (uint8_t *)d->ctrl), out));
  memset(&slot->done, 0, sizeof slot->done);
  if (d->resident != program) {
    rvhal_program_obj_t *p = rvhal_program_get(d, program);
    /* from the host's copy: a kernel may have written over the staged one */
    RVHAL_RETURN_IF_ERROR(rvhal_program_stage(d, p));
    memcpy(desc->install, p->install, sizeof p->install);
    desc->num_installs = p->num_installs;
  }
  if (after_ok) desc->flags |= RVHAL_LAUNCH_AFTER_OK;
  /* What the device will have installed once this launch starts: the
   * launches submitted after it need not install it again. A launch that
   * does not start (cancelled, rejected) resets this when it completes. */
  d->resident = program;
  return rvhal_launch_publish(d, desc, out);
}

int rvhal_launch_publish(rvhal_device_t *d, const rvhal_launch_desc_t *desc, rvhal_launch_t *out) {
  const uint64_t seq = desc->seq;
  int rc;
  /* Submit: publish, then ring unless hart 0 is polling (Dekker with the
   * firmware's `polling` flag and its re-check of `submitted`). */
  /* This thread will wait: keep hart 0 off its CPU (qemu_backend.c). Not
   * when hart 0 never lingers: waking it from wfi across CPUs measured
   * slower (doorbell launch p50 79 us, against 34 us unplaced). */
  int cpu = sched_getcpu();
  if (cpu != d->placed_cpu && d->options.linger_us != RVHAL_LINGER_OFF && d->backend->vtable->place) {
    d->backend->vtable->place(d->backend, cpu);
    d->placed_cpu = cpu;
  }
  uint64_t t0 = now_ns();
  const rvhal_launch_slot_t *slot =
      (const rvhal_launch_slot_t *)((const uint8_t *)desc - offsetof(rvhal_launch_slot_t, desc));
  if (!rvhal_dev_coherent(d) &&
      ((desc->args_size && (rc = rvhal_dev_flush_ptr(d, slot->args, rvhal_align_up(desc->args_size, 64)))) || /* the zeroed tail too */
       (rc = rvhal_dev_flush_ptr(d, desc, sizeof *desc + sizeof slot->done))))
    return rc; /* desc and done are adjacent: one write */
  d->seq = seq;
  __atomic_store_n(&d->ctrl->ring.submitted, seq, __ATOMIC_RELEASE);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (!rvhal_dev_coherent(d) &&
      ((rc = rvhal_dev_flush_ptr(d, &d->ctrl->ring.submitted, sizeof seq)) ||
       (rc = rvhal_dev_invalidate_ptr(d, &d->ctrl->fw.polling, sizeof d->ctrl->fw.polling))))
    return recover(d, rc, rvhal_last_error());
  if (!__atomic_load_n(&d->ctrl->fw.polling, __ATOMIC_ACQUIRE)) {
    rc = d->backend->vtable->doorbell(d->backend);
    if (rc) return recover(d, rc, rvhal_last_error());
  }
  d->inflight.start_ns = t0;
  d->inflight.groups = out->total_groups;
  d->inflight.harts = out->harts;
  d->inflight.trace = (desc->flags & RVHAL_LAUNCH_TRACE) != 0;
  __atomic_store_n(&d->inflight.seq, seq, __ATOMIC_RELEASE);
  out->t0 = t0;
  return RVHAL_OK;
}

int rvhal_launch_complete(rvhal_device_t *d, const rvhal_launch_t *l, int more) {
  rvhal_completion_t done;
  uint64_t t1;
  RVHAL_RETURN_IF_ERROR(rvhal_launch_wait(d, l, more, &done, &t1));
  return rvhal_launch_outcome(d, l, &done, t1);
}

int rvhal_launch_wait(rvhal_device_t *d, const rvhal_launch_t *l, int more, rvhal_completion_t *out_done,
                      uint64_t *out_t1) {
  const char *kname = l->kname;
  const uint64_t seq = l->seq;
  if (l->boot != d->boots)
    return rvhal_error(RVHAL_CANCELLED, "kernel %s: launch %llu was lost: the device restarted after a launch before "
                       "it failed", kname, (unsigned long long)seq);
  rvhal_launch_slot_t *slot = &d->ctrl->ring.slots[seq % RVHAL_RING_SLOTS];
  int rc = wait_for(d, seq, kname);
  if (rc) return rc;
  d->retired = seq;
  if (seq == __atomic_load_n(&d->inflight.seq, __ATOMIC_RELAXED)) __atomic_store_n(&d->inflight.seq, 0, __ATOMIC_RELEASE);
  uint64_t t1 = now_ns();
  /* With later launches still on the device, what they printed so far
   * waits for their own completion. */
  if ((rc = drain(d, !more))) return device_lied(d, kname, rc);

  if ((rc = rvhal_dev_invalidate_ptr(d, &slot->done, sizeof slot->done))) return recover(d, rc, rvhal_last_error());
  rvhal_completion_t done = slot->done; /* a copy: checked, then used */
  if ((rc = check_completion(d, &done, seq))) return device_lied(d, kname, rc);
  /* A running average of the launches' time on the device (not the round
   * trip: that includes the wake-up a spin avoids), for the next wait's
   * spin; one slow launch counts as SPIN_MAX_NS, not more. */
  uint64_t ticks = done.end_mtime - done.start_mtime; /* capped first: no overflow below */
  uint64_t took = ticks > SPIN_MAX_NS ? SPIN_MAX_NS : ticks * 1000000000ull / d->info.timebase_hz;
  d->recent_launch_ns = (3 * d->recent_launch_ns + (took < SPIN_MAX_NS ? took : SPIN_MAX_NS)) / 4;
  d->last_start_ns = ticks_to_ns(done.start_mtime, d->info.timebase_hz);
  d->last_end_ns = ticks_to_ns(done.end_mtime, d->info.timebase_hz);
  *out_done = done;
  *out_t1 = t1;
  return RVHAL_OK;
}

int rvhal_launch_outcome(rvhal_device_t *d, const rvhal_launch_t *l, const rvhal_completion_t *checked, uint64_t t1) {
  const char *kname = l->kname;
  const uint64_t seq = l->seq;
  const rvhal_completion_t done = *checked;
  rvhal_program_obj_t *p = rvhal_program_get(d, l->program);
  if (done.status == RVHAL_BAD_LAUNCH) { /* the host checked it all: the device's state is not what it wrote */
    rvhal_error(RVHAL_BAD_LAUNCH, "the firmware rejected launch %llu's descriptor, which the host had checked "
                "(boot configuration overwritten by a kernel, or host/firmware mismatch)", (unsigned long long)seq);
    return device_lied(d, kname, RVHAL_BAD_LAUNCH);
  }
  if (done.status == RVHAL_UNSUPPORTED || done.status == RVHAL_CANCELLED) d->resident = 0; /* it installed nothing */
  if (done.status == RVHAL_CANCELLED)
    return rvhal_error(RVHAL_CANCELLED, "kernel %s: launch %llu did not run: the launch before it on the device "
                       "failed", kname, (unsigned long long)seq);
  if (!p) return rvhal_error(RVHAL_NOT_FOUND, "kernel %s: its program was freed during the launch", kname);
  if (done.status != RVHAL_OK) return launch_error(d, p, kname, &done);

  const uint64_t total_groups = l->total_groups;
  const int counting = l->counting;
  rvhal_launch_report_t *r = &d->last;
  memset(r, 0, sizeof *r);
  r->seq = seq;
  r->num_groups = total_groups;
  r->chunk_groups = l->chunk;
  r->harts = l->harts;
  r->harts_per_group = l->team;
  r->device_ns = ticks_to_ns(done.end_mtime - done.start_mtime, d->info.timebase_hz);
  r->host_ns = t1 - l->t0;
  for (uint32_t h = 0; h < d->info.num_harts; h++)
    if (counting && d->ctrl->harts[h].counters_seq == seq)
      r->groups_per_hart[h] = d->ctrl->harts[h].counters[RVHAL_HART_COUNTER_GROUPS];
  if (!counting) return RVHAL_OK;
  rvhal_counters_after_launch(d, seq, r->host_ns);
  if (d->profile) {
    rvhal_profile_launch_t pl = {.seq = seq, .kernel = kname, .work_dim = l->work_dim, .groups = total_groups,
                                 .harts = l->harts, .harts_per_group = l->team, .host_start_ns = l->t0 - d->created_ns,
                                 .host_ns = r->host_ns, .device_ticks = done.end_mtime - done.start_mtime};
    for (int i = 0; i < 3; i++) {
      pl.global[i] = l->global[i];
      pl.local[i] = l->local[i];
    }
    rvhal_profile_record(d->profile, d, &pl);
  }
  return RVHAL_OK;
}

int rvhal_device_last_launch(const rvhal_device_t *d, rvhal_launch_report_t *out_report) {
  RVHAL_DEVICE_GUARD(d);
  if (!d || !out_report) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_last_launch: NULL argument");
  if (!d->last.seq) return rvhal_error(RVHAL_NOT_FOUND, "device_last_launch: no launch has completed yet");
  *out_report = d->last;
  return RVHAL_OK;
}
