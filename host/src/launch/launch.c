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
#include "launch/launcher.h"
#include "memory/memory.h"
#include "observe/observe.h"
#include "program/program.h"
#include "rvhal/arg_pack.h"

/* Waiting: a launch expected to be short (the recent ones were: a running
 * average of their device times, each counted as at most SPIN_MAX_NS, under
 * SPIN_MAX_NS / SPIN_FACTOR) is waited for by spinning on the ring for
 * SPIN_FACTOR times that average (at least SPIN_MIN_NS), then by sleeping
 * on the device's wake-up byte. While the host spins it is not marked
 * waiting, so the device sends no byte: a short launch makes no system call
 * on either side, and a short spin beats sleeping by far
 * (docs/performance.md, "Figures behind the code's choices"). The spin
 * never calls sched_yield: on a loaded host that gives the core away for a
 * whole round of other tasks. Longer launches sleep at once. A launch that
 * rang the doorbell spins too: hart 0 first wakes from wfi, which the
 * adaptive spin covers on a quiet host. The wake-up is not in a launch's
 * device time, so such a launch spins for twice the recent wake-ups too (a
 * running average of round trip minus device time, at most SPIN_MAX_NS in
 * all): spun for by its device time alone, a doorbell launch covered the
 * wake-up in some runs and slept in others. RVHAL_HOST_SPIN_NS sets a fixed
 * spin instead (rvhal_launcher_create reads it into host_spin_ns; 0:
 * adaptive). */
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
#define CPU_WAIT_SAMPLE_NS (10 * 1000000ull)  /* ... and samples it this often */

#define now_ns rvhal_now_ns

/* The RVHAL_LAUNCH_TLB_* flags the launch needs (firmware/include/fw_speed.h):
 * QEMU's software TLB grows only when flushed, and only when it was over
 * 70 % in use. A launch whose buffers need more entries (4 KiB pages / 0.7;
 * a hart's share is not known: strided kernels touch every page from
 * every hart) than the TLB has asks the harts to grow it to that (a power
 * of two, at most TLB_MAX_ENTRIES) before they start. Later launches need
 * nothing: a flush costs an empty launch time, and a big launch the refill
 * of every page. Beyond TLB_MAX_ENTRIES (64 MiB of pages) a bigger TLB was
 * no faster (docs/performance.md, "Figures behind the code's choices"). */
#define TLB_START_ENTRIES 256u
#define TLB_MAX_ENTRIES (1u << 14)

static uint32_t tlb_flags(rvhal_launcher_t *L, uint64_t bytes) {
  if (L->options->tlb_care_off & RVHAL_TLB_NO_FLUSH) return 0;
  const uint64_t needed = bytes / 4096 * 10 / 7;
  if (L->tlb_entries == 0) L->tlb_entries = TLB_START_ENTRIES; /* a new QEMU (a new boot resets it) */
  if (needed <= L->tlb_entries || L->tlb_entries >= TLB_MAX_ENTRIES) return 0;
  uint32_t log2 = 0;
  while ((1ull << log2) < needed && (1ull << log2) < TLB_MAX_ENTRIES) log2++;
  L->tlb_entries = 1ull << log2;
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

/* Hart h stopped launch seq through the kernel's own fail call (the SDK's
 * rvhal_svc_fail, or its ecall), reporting `code`: the firmware copies the
 * code into the hart's trap report unchanged. (h < the device's harts.) */
static int kernel_reported(const rvhal_device_t *d, uint32_t h, uint64_t seq, int32_t code) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  const rvhal_trap_report_t *r = &L->ctrl->harts[h].trap;
  return __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE) == seq && r->kind == RVHAL_TRAP_SOFTWARE && r->status == code;
}

/* A kernel's own failure: RVHAL_KERNEL_FAILED with its code and message as
 * data. The codes that describe the kernel itself, which the SDK's runtime
 * reports (a barrier only some work-items reached, local memory or a
 * work-item stack outgrown), are kept; a kernel never chooses a status that
 * describes the device or the host (lost, timed out, cancelled, ...), nor
 * success. Nothing restarts: the firmware stopped the kernel cleanly. */
static int kernel_failed(const rvhal_device_t *d, const char *kname, uint32_t h, const rvhal_trap_report_t *r) {
  char detail[sizeof r->detail + 1];
  memcpy(detail, r->detail, sizeof r->detail);
  detail[sizeof r->detail] = '\0';
  (void)d;
  if (rvhal_status_kernel_may_report(r->status))
    return rvhal_error(r->status, "kernel %s stopped on hart %u: %s: %s (value %llu, code %d)", kname, h,
                       rvhal_status_string(r->status), detail, (unsigned long long)r->mtval, (int)r->status);
  return rvhal_error(RVHAL_KERNEL_FAILED, "kernel %s failed on hart %u with code %d (%s): %s (value %llu)", kname, h,
                     (int)r->status, rvhal_status_name(r->status), detail, (unsigned long long)r->mtval);
}

/* The completion record (a copy) against what the firmware can report:
 * device memory is untrusted input, a kernel can write it. A status other
 * than the firmware's own (rvhal_status_from_firmware) is accepted only as
 * a kernel's report of its own failure (its hart's trap report says so),
 * which rvhal_launch_outcome turns into RVHAL_KERNEL_FAILED. */
static int check_completion(const rvhal_device_t *d, const rvhal_completion_t *done, uint64_t seq) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  if (done->seq != seq)
    return rvhal_error(RVHAL_FIRMWARE, "completion record of launch %llu: seq is %llu", (unsigned long long)seq,
                       (unsigned long long)done->seq);
  if (done->status != RVHAL_OK && done->fault_hart >= L->info->num_harts)
    return rvhal_error(RVHAL_FIRMWARE, "completion record of launch %llu: fault_hart %u (0x%x), the device has %u harts",
                       (unsigned long long)seq, done->fault_hart, done->fault_hart, L->info->num_harts);
  if (done->status != RVHAL_OK && !rvhal_status_from_firmware(done->status) &&
      !kernel_reported(d, done->fault_hart, seq, done->status))
    return rvhal_error(RVHAL_FIRMWARE, "completion record of launch %llu: status %d (%s) is not one the firmware "
                       "reports", (unsigned long long)seq, (int)done->status, rvhal_status_name(done->status));
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
  rvhal_launcher_t *L = rvhal_launcher(d);
  rvhal_ctrl_t *c = L->ctrl;
  uint8_t *rings = rvhal_backend_ptr(L->backend, L->layout->fw_base) + RVHAL_PRINT_OFFSET;
  const uint32_t n = L->info->num_harts;
  uint64_t tails[RVHAL_MAX_HARTS];
  if (!rvhal_backend_coherent(L->backend)) {
    RVHAL_RETURN_IF_ERROR(rvhal_backend_invalidate_ptr(L->backend, c->harts, n * sizeof c->harts[0]));
    for (uint32_t h = 0; h < n; h++) {
      uint64_t tail = L->print.tails_known ? L->print.tail[h] : c->harts[h].print.tail, head = c->harts[h].print.head;
      uint64_t len = head - tail > RVHAL_PRINT_RING_SIZE ? RVHAL_PRINT_RING_SIZE : head - tail; /* print_drain judges it */
      uint64_t at = tail % RVHAL_PRINT_RING_SIZE, first = len < RVHAL_PRINT_RING_SIZE - at ? len : RVHAL_PRINT_RING_SIZE - at;
      uint8_t *ring = rings + (size_t)h * RVHAL_PRINT_RING_SIZE;
      if (first) RVHAL_RETURN_IF_ERROR(rvhal_backend_invalidate_ptr(L->backend, ring + at, first));
      if (len > first) RVHAL_RETURN_IF_ERROR(rvhal_backend_invalidate_ptr(L->backend, ring, len - first));
      tails[h] = c->harts[h].print.tail;
    }
  }
  int rc = rvhal_print_drain(&L->print, c, rvhal_backend_ptr(L->backend, L->layout->fw_base), n, final);
  if (!rvhal_backend_coherent(L->backend))
    for (uint32_t h = 0; h < n; h++)
      if (c->harts[h].print.tail != tails[h]) {
        int f = rvhal_backend_flush_ptr(L->backend, &c->harts[h].print.tail, sizeof c->harts[h].print.tail);
        if (f && !rc) rc = f;
      }
  return rc;
}

/* The ring's host-written flag, and its completion count, through the backend. */
static void set_host_waiting(rvhal_device_t *d, uint32_t v) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  __atomic_store_n(&L->ctrl->ring.host_waiting, v, __ATOMIC_RELAXED);
  (void)rvhal_backend_flush_ptr(L->backend, &L->ctrl->ring.host_waiting, sizeof v); /* a failure shows at the next access */
}
static uint64_t ring_completed(rvhal_device_t *d) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  (void)rvhal_backend_invalidate_ptr(L->backend, &L->ctrl->ring.completed, sizeof L->ctrl->ring.completed);
  return __atomic_load_n(&L->ctrl->ring.completed, __ATOMIC_ACQUIRE);
}

static int recover(rvhal_device_t *d, int status);

static int launch_error(rvhal_device_t *d, const rvhal_program_obj_t *p, const char *kname,
                        const rvhal_completion_t *done) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  int32_t st = done->status;
  /* fault_hart was checked; the report is copied once so that it cannot
   * change between its checks and its use */
  const rvhal_trap_report_t rep = L->ctrl->harts[done->fault_hart].trap, *r = &rep;
  char where[160] = "";
  if (st == RVHAL_STACK_OVERFLOW) {
    /* Whatever wrote over the canary may have hit the firmware's frames
     * below it too: the device restarts, so the next launch works. */
    rvhal_error(st, "kernel %s overflowed the stack of hart %u (%llu bytes, local memory included); reduce its stack "
                "use or raise local_mem_size", kname, done->fault_hart,
                (unsigned long long)(L->layout->hart_stack_size - RVHAL_STACK_GUARD));
    return recover(d, st);
  }
  if (r->seq != done->seq) return rvhal_error(st, "kernel %s failed on hart %u: %s", kname, done->fault_hart,
                                              rvhal_status_string(st));
  describe_pc(p, L->layout->ram_base, r->mepc, where, sizeof where);
  if (r->kind == RVHAL_TRAP_EXCEPTION) {
    /* mtval is the address for access faults, the instruction for illegal ones */
    const char *what = r->mcause == 2 ? "instruction bits" : "address";
    /* a load or store fault: PMP's access faults, or page faults (S-mode firmware) */
    const int data_fault = r->mcause == 5 || r->mcause == 7 || r->mcause == 13 || r->mcause == 15;
    char hint[160] = "";
    uint64_t off = r->mtval - L->layout->stacks_base;
    if (data_fault && r->mtval >= L->layout->stacks_base &&
        off / L->layout->hart_stack_size < L->info->num_harts && off % L->layout->hart_stack_size < RVHAL_STACK_GUARD)
      snprintf(hint, sizeof hint, " (in the guard below hart %llu's stack: the kernel ran off its %llu-byte stack; "
               "reduce its stack use or raise local_mem_size)", (unsigned long long)(off / L->layout->hart_stack_size),
               (unsigned long long)(L->layout->hart_stack_size - RVHAL_STACK_GUARD));
    uint64_t poff = r->mtval - L->layout->fibers_base;
    if (data_fault && r->mtval >= L->layout->fibers_base &&
        poff / L->layout->fiber_pool_size < L->info->num_harts && poff % L->layout->fiber_pool_size < RVHAL_STACK_GUARD)
      snprintf(hint, sizeof hint, " (in the guard below hart %llu's work-item stacks: a work-item ran off its "
               "%llu-byte stack; reduce its stack use or raise item_stack_size)",
               (unsigned long long)(poff / L->layout->fiber_pool_size), (unsigned long long)L->layout->fiber_stack_size);
    char detail[sizeof r->detail + 1];
    memcpy(detail, r->detail, sizeof r->detail);
    detail[sizeof r->detail] = '\0';
    if (detail[0]) /* the firmware's reason (an ecall it refused): it names the value itself */
      return rvhal_error(st, "kernel %s trapped on hart %u: %s (mcause %llu) at pc 0x%llx%s: %s", kname,
                         done->fault_hart, mcause_name(r->mcause), (unsigned long long)r->mcause,
                         (unsigned long long)r->mepc, where, detail);
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
static int recover(rvhal_device_t *d, int status) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  /* what happened (the message so far), kept across the restart's own errors */
  char *why = strdup(rvhal_last_error());
  (void)drain(d, 1); /* what it can still read */
  rvhal_memory_read_back(d); /* a mirror's device restarts from it */
  const int up = rvhal_device_boot(d) == RVHAL_OK;
  L = rvhal_launcher(d); /* the new firmware's launch state */
  if (!up) {
    L->lost = 1;
    rvhal_error_annotate(RVHAL_DEVICE_LOST, "%s; restarting the device failed", why ? why : "");
  } else {
    rvhal_error(status, "%s; the device was restarted, global memory is intact", why ? why : "");
  }
  free(why);
  return L->lost ? RVHAL_DEVICE_LOST : status;
}

/* The device wrote something it cannot have written honestly (a kernel's
 * store into the control block?): the launch fails with the message naming
 * the record and value (set by the caller's check), and the device restarts,
 * stopping whatever still runs there. */
static int device_lied(rvhal_device_t *d, const char *kname, int status) {
  rvhal_error_annotate(status, "kernel %s", kname);
  set_host_waiting(d, 0);
  return recover(d, status);
}

/* How long to spin before sleeping on this launch (see the top). */
static uint64_t spin_ns(const rvhal_device_t *d, int rang) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  if (!rvhal_backend_coherent(L->backend)) return 0; /* every look is a round trip to the device */
  if (L->host_spin_ns) return L->host_spin_ns;
  if (L->host_cpus < 2 || L->recent_launch_ns > SPIN_MAX_NS / SPIN_FACTOR) return 0;
  uint64_t spin = L->recent_launch_ns * SPIN_FACTOR + (rang ? 2 * L->recent_wake_ns : 0);
  return spin < SPIN_MIN_NS ? SPIN_MIN_NS : spin > SPIN_MAX_NS ? SPIN_MAX_NS : spin;
}

/* Wait for launch `seq`: spin (if it should be short), then sleep, draining
 * print output meanwhile. own_timeout_ms: the launch's own, 0 for the
 * device's. */
static int wait_for(rvhal_device_t *d, uint64_t seq, const char *kname, int rang, uint32_t own_timeout_ms) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  rvhal_ring_t *ring = &L->ctrl->ring;
  uint64_t start = now_ns(), spin = spin_ns(d, rang);
  while (__atomic_load_n(&ring->completed, __ATOMIC_ACQUIRE) < seq) {
    if (now_ns() - start > spin) break;
    cpu_relax();
  }
  if (ring_completed(d) >= seq) return RVHAL_OK;

  const uint32_t timeout_ms = own_timeout_ms ? own_timeout_ms : L->options->launch_timeout_ms;
  const uint64_t timeout_ns = (uint64_t)timeout_ms * 1000000ull;
  uint64_t deadline = start + timeout_ns;
  /* Time the device's QEMU waited for a CPU (a loaded host) does not count,
   * up to RVHAL_CPU_WAIT_MAX_FACTOR timeouts in all (rvhal_cpu_wait_credit:
   * a kernel that hangs on a starved host still ends, and tests that expect
   * a timeout stay bounded): measured from CPU_WAIT_AFTER_NS on, so short
   * launches never read /proc. */
  rvhal_cpu_wait_t starved;
  int watching = 0; /* 1: starved holds the start, -1: cannot be known */
  uint64_t waited_all = 0, ran = 0; /* its last sample */
  set_host_waiting(d, 1);
  __atomic_thread_fence(__ATOMIC_SEQ_CST); /* pairs with the firmware's fence after `completed` */
  int rc = RVHAL_OK;
  while (ring_completed(d) < seq) {
    uint64_t now = now_ns();
    if (!watching && now - start >= CPU_WAIT_AFTER_NS) {
      long pid = L->backend->vtable->process_id ? L->backend->vtable->process_id(L->backend) : 0;
      watching = rvhal_cpu_wait_start(&starved, pid) ? -1 : 1;
    }
    /* sampled all along, not only at the deadline: a wait still going on
     * shows only in the threads' states between samples (cpu_wait.h) */
    if (watching > 0 && (now >= deadline || now - starved.last_ns >= CPU_WAIT_SAMPLE_NS))
      waited_all = rvhal_cpu_wait_sample(&starved, &ran);
    uint64_t waited = now >= deadline ? rvhal_cpu_wait_credit(waited_all, timeout_ns) : 0;
    if (now >= deadline && waited > 0 && start + timeout_ns + waited > now) {
      deadline = start + timeout_ns + waited;
      continue;
    }
    if (now >= deadline) {
      char uncounted[128] = "";
      if (watching > 0)
        snprintf(uncounted, sizeof uncounted, " (not counting %llu ms its QEMU waited for a CPU%s; it ran %llu ms of CPU)",
                 (unsigned long long)(waited / 1000000ull),
                 waited == rvhal_cpu_wait_credit(UINT64_MAX, timeout_ns) ? ", the most counted" : "",
                 (unsigned long long)(ran / 1000000ull));
      rvhal_error(RVHAL_TIMEOUT, "kernel %s did not finish within %u ms (the launch timeout: %s)%s", kname,
                  timeout_ms,
                  own_timeout_ms ? "this launch's timeout_ms" : "RVHAL_LAUNCH_TIMEOUT_MS, launch_timeout_ms",
                  uncounted);
      set_host_waiting(d, 0);
      return recover(d, RVHAL_TIMEOUT);
    }
    uint64_t left_ms = (deadline - now) / 1000000ull + 1;
    rc = L->backend->vtable->wait(L->backend, (int)(left_ms < DRAIN_MS ? left_ms : DRAIN_MS));
    if (rc == RVHAL_DEVICE_LOST) {
      rvhal_error_annotate(RVHAL_DEVICE_LOST, "while running kernel %s", kname);
      set_host_waiting(d, 0);
      return recover(d, RVHAL_DEVICE_LOST);
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
  if (!d || !nd) {
    rvhal_clear_error();
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel_exec: NULL device or ndrange");
  }
  const rvhal_launch_request_t r = rvhal_launch_request_view(program, kernel, nd, args, num_args, work_dim, opts);
  return rvhal_launch_run(d, &r, NULL);
}

int rvhal_launch_exec(rvhal_device_t *d, const rvhal_launch_request_t *r) {
  if (!d || !r) {
    rvhal_clear_error();
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "launch_exec: NULL device or request");
  }
  return rvhal_launch_run(d, r, NULL);
}

int rvhal_launch_run(rvhal_device_t *d, const rvhal_launch_request_t *r, rvhal_launch_times_t *out_times) {
  RVHAL_DEVICE_GUARD(d);
  rvhal_clear_error();
  if (!rvhal_device_hold(d))
    return rvhal_error(RVHAL_BUSY, "kernel_exec: the device is running launch %llu (called from its print callback?)",
                       (unsigned long long)__atomic_load_n(&rvhal_launcher(d)->seq, __ATOMIC_RELAXED));
  rvhal_launch_t l;
  int rc = rvhal_launch_submit(d, r, 0, &l);
  if (rc == RVHAL_OK) rc = rvhal_launch_complete(d, &l, 0);
  rvhal_device_release(d);
  if (rc == RVHAL_OK && out_times) *out_times = l.times;
  return rc;
}

/* A new boot (the core's count moved on): nothing is installed and no
 * launch is on the ring of the new firmware, whose print order starts
 * again; a new QEMU has new TLBs and a new hart 0 thread to place. */
static void booted(rvhal_launcher_t *L, uint64_t boots) {
  L->boots = boots;
  L->seq = 0;
  L->retired = 0;
  L->resident = 0;
  L->tlb_entries = 0;
  L->placed_cpu = -1;
  rvhal_print_reset_order(&L->print);
}

rvhal_launcher_t *rvhal_launcher(const rvhal_device_t *d) {
  rvhal_launcher_t *L = rvhal_device_modules(d)->launch;
  const uint64_t boots = rvhal_device_boots(d);
  if (L->boots != boots) booted(L, boots);
  return L;
}

int rvhal_launcher_create(const rvhal_device_t *d, rvhal_launcher_t **out_launcher) {
  rvhal_launcher_t *L = calloc(1, sizeof *L);
  if (!L) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  L->device = (rvhal_device_t *)d;
  L->backend = rvhal_device_backend(d);
  L->ctrl = rvhal_device_ctrl(d);
  L->layout = rvhal_device_layout(d);
  L->info = rvhal_device_get_info(d);
  L->options = rvhal_device_options(d);
  L->placed_cpu = -1;
  int rc = rvhal_env_u32("RVHAL_HOST_SPIN_NS", &L->host_spin_ns); /* 0 by default */
  if (rc) {
    free(L);
    return rc;
  }
  cpu_set_t cpus;
  L->host_cpus = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? (uint32_t)CPU_COUNT(&cpus) : 1;
  if (L->host_cpus < 1) L->host_cpus = 1;
  rvhal_print_init(&L->print, L->options->print_fn, L->options->print_user);
  *out_launcher = L;
  return RVHAL_OK;
}

void rvhal_launcher_destroy(rvhal_launcher_t *L) {
  if (!L) return;
  rvhal_print_free(&L->print);
  free(L);
}

void rvhal_launcher_set_print_fn(const rvhal_device_t *d, rvhal_print_fn_t fn, void *user) {
  rvhal_print_set_output(&rvhal_device_modules(d)->launch->print, fn, user);
}

void rvhal_launcher_get_print_fn(const rvhal_device_t *d, rvhal_print_fn_t *out_fn, void **out_user) {
  const rvhal_print_state_t *p = &rvhal_device_modules(d)->launch->print;
  if (out_fn) *out_fn = p->fn;
  if (out_user) *out_user = p->user;
}

/* The device's limits, as the plan sees them. */
static rvhal_launch_limits_t limits_of(const rvhal_launcher_t *L) {
  return (rvhal_launch_limits_t){.word_size = L->info->word_size, .num_harts = L->info->num_harts,
                                 .max_work_group_size = L->info->max_work_group_size,
                                 .local_mem_size = L->layout->local_mem_size, .host_cpus = L->host_cpus,
                                 .exact_timing = L->options->timing == RVHAL_TIMING_EXACT};
}

int rvhal_launch_prepare(rvhal_device_t *d, const rvhal_launch_request_t *r, rvhal_launch_prepared_t *out) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  const hal_program_t program = r->program;
  const hal_kernel_t kernel = r->kernel;
  if (L->lost) return rvhal_error(RVHAL_DEVICE_LOST, "kernel_exec: the device stopped and could not be restarted");
  rvhal_program_obj_t *p = rvhal_program_get(d, program);
  if (!p) return rvhal_error(RVHAL_NOT_FOUND, "kernel_exec: no loaded program has handle %llu",
                             (unsigned long long)program);
  const rvhal_kernel_entry_t *kobj = rvhal_kernel_get(p, kernel);
  if (!kobj) {
    const rvhal_program_obj_t *o = rvhal_program_of_kernel(d, kernel);
    if (o)
      return rvhal_error(RVHAL_NOT_FOUND, "kernel_exec: kernel handle %llu is not a kernel of program %llu (it "
                         "belongs to program %llu)", (unsigned long long)kernel, (unsigned long long)program,
                         (unsigned long long)o->handle);
    return rvhal_error(RVHAL_NOT_FOUND, "kernel_exec: %llu is not a kernel of program %llu (kernel handles come "
                       "from program_find_kernel)", (unsigned long long)kernel, (unsigned long long)program);
  }
  const rvhal_launch_limits_t lim = limits_of(L);
  /* the timeline: for a profile, and for progress_fn's fraction of groups done */
  const int timeline = rvhal_observe_wants_timeline(d);
  RVHAL_RETURN_IF_ERROR(rvhal_launch_plan(&lim, kobj, p->elf->tls_size, r, L->options->counters, timeline,
                                          &out->plan));
  out->request = r;
  out->entry = kobj->entry; /* the device address from here on */
  /* Buffers: inside an allocation now; their bytes size the TLB (encode). */
  out->buffer_bytes = 0;
  for (uint32_t i = 0; i < r->num_args; i++) {
    const hal_arg_t *a = &r->args[i];
    if (a->kind != hal_arg_address || a->space == hal_space_local || a->address == hal_nullptr) continue;
    hal_size_t size;
    if (rvhal_memory_lookup(d, a->address, &size) != RVHAL_OK)
      return rvhal_error(RVHAL_OUT_OF_RANGE, "kernel %s: argument %u: buffer address 0x%llx is not inside any "
                         "allocation of device global memory", kobj->name, i, (unsigned long long)a->address);
    out->buffer_bytes += size;
  }
  return RVHAL_OK;
}

void rvhal_launch_encode(rvhal_device_t *d, const rvhal_launch_prepared_t *pr, rvhal_launch_desc_t *desc,
                         uint8_t *args_buf, uint64_t args_dev, rvhal_launch_t *out) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  const rvhal_launch_plan_t *pl = &pr->plan;
  const uint64_t seq = L->seq + 1;
  rvhal_arg_pack_laid_out(pr->request->args, pl->num_args, L->info->word_size, pl->layout, args_buf, RVHAL_ARGS_MAX);
  desc->seq = seq;
  desc->entry = pr->entry;
  desc->args = args_dev;
  desc->args_size = pl->args_size;
  desc->work_dim = pl->work_dim;
  for (int i = 0; i < 3; i++) {
    desc->num_groups[i] = pl->groups[i];
    desc->global_offset[i] = pl->offset[i];
    desc->local_size[i] = (uint32_t)pl->local[i];
    desc->global_size[i] = pl->global[i];
    desc->last_local_size[i] = (uint32_t)pl->last[i];
  }
  desc->harts = pl->harts;
  desc->harts_per_group = pl->team;
  desc->flags = pl->flags | tlb_flags(L, pr->buffer_bytes);
  desc->chunk_groups = pl->chunk;
  desc->num_local_args = pl->num_local_args;
  memcpy(desc->local_arg_offset, pl->local_arg_offset, pl->num_local_args * sizeof pl->local_arg_offset[0]);
  desc->num_installs = 0;
  *out = (rvhal_launch_t){.seq = seq, .boot = L->boots, .program = pr->request->program, .kname = pl->kname,
                          .total_groups = pl->total_groups, .chunk = pl->chunk, .harts = pl->harts, .team = pl->team,
                          .work_dim = pl->work_dim, .counting = (pl->flags & RVHAL_LAUNCH_COUNTERS) != 0,
                          .timeout_ms = pr->request->options ? pr->request->options->timeout_ms : 0};
  for (int i = 0; i < 3; i++) {
    out->global[i] = pl->global[i];
    out->local[i] = pl->local[i];
  }
}

int rvhal_launch_submit(rvhal_device_t *d, const rvhal_launch_request_t *r, uint32_t order, rvhal_launch_t *out) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  rvhal_launch_slot_t *slot = NULL; /* (set unless next_slot fails) */
  RVHAL_RETURN_IF_ERROR(rvhal_launch_next_slot(d, "kernel_exec", &slot));
  rvhal_launch_prepared_t pr;
  RVHAL_RETURN_IF_ERROR(rvhal_launch_prepare(d, r, &pr));
  RVHAL_RETURN_IF_ERROR(rvhal_launch_stage(d, r->program));
  /* Every check passed: only now is the ring's slot written. */
  rvhal_launch_desc_t *desc = &slot->desc;
  rvhal_launch_encode(d, &pr, desc, slot->args, L->layout->ctrl + ((uint8_t *)slot->args - (uint8_t *)L->ctrl), out);
  memset(&slot->done, 0, sizeof slot->done);
  rvhal_launch_install(d, r->program, desc);
  desc->flags |= order & (RVHAL_LAUNCH_AFTER_OK | RVHAL_LAUNCH_OVERLAP | RVHAL_LAUNCH_WATCH);
  return rvhal_launch_publish(d, desc, out);
}

int rvhal_launch_kernel_report(const rvhal_device_t *d, uint64_t seq, int32_t status, uint32_t first, uint32_t end,
                               const char *kname) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  if (end > L->info->num_harts) end = L->info->num_harts;
  for (uint32_t h = first; h < end; h++) {
    if (L->ctrl->harts[h].trap.seq != seq) continue; /* (most harts: no copy) */
    const rvhal_trap_report_t rep = L->ctrl->harts[h].trap; /* copied once: checked, then used */
    if (rep.seq == seq && rep.kind == RVHAL_TRAP_SOFTWARE && (status == RVHAL_OK || rep.status == status))
      return kernel_failed(d, kname, h, &rep);
  }
  return RVHAL_OK;
}

int rvhal_launch_next_slot(rvhal_device_t *d, const char *who, rvhal_launch_slot_t **out_slot) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  if (L->seq - L->retired >= RVHAL_RING_SLOTS)
    return rvhal_error(RVHAL_BUSY, "%s: %u launches are on the device already (the ring's depth)", who,
                       RVHAL_RING_SLOTS);
  *out_slot = &L->ctrl->ring.slots[(L->seq + 1) % RVHAL_RING_SLOTS];
  return RVHAL_OK;
}

int rvhal_launch_stage(rvhal_device_t *d, hal_program_t program) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  /* from the host's copy: a kernel may have written over the staged one */
  return L->resident == program ? RVHAL_OK : rvhal_program_stage(d, rvhal_program_get(d, program));
}

void rvhal_launch_install(rvhal_device_t *d, hal_program_t program, rvhal_launch_desc_t *desc) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  desc->num_installs = 0;
  if (L->resident != program) {
    const rvhal_program_obj_t *p = rvhal_program_get(d, program);
    memcpy(desc->install, p->install, sizeof p->install);
    desc->num_installs = p->num_installs;
  }
  /* What the device will have installed once this launch starts: the
   * launches submitted after it need not install it again. A launch that
   * does not start (cancelled, rejected) resets this when it completes. */
  L->resident = program;
}

/* Every hart's mcycle and minstret through the debug link, for a counting
 * launch on a device that has one (else nothing: counters off cost no
 * round trip). At submission the target is halted for the descriptor's
 * flush anyway; at completion for the record's reads. */
static int debug_counters_at(rvhal_device_t *d, const rvhal_launch_t *l, uint64_t out[RVHAL_MAX_HARTS][2]) {
  const rvhal_launcher_t *L = rvhal_launcher(d);
  if (!l->counting || !rvhal_observe_debug_link(d)) return RVHAL_OK;
  for (uint32_t h = 0; h < L->info->num_harts && h < RVHAL_MAX_HARTS; h++) {
    int rc = L->backend->vtable->hart_counters(L->backend, h, &out[h][0], &out[h][1]);
    if (rc) return rvhal_error_annotate(rc, "reading hart %u's counters through the debug link: {}", h);
  }
  return RVHAL_OK;
}

int rvhal_launch_publish(rvhal_device_t *d, const rvhal_launch_desc_t *desc, rvhal_launch_t *out) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  const uint64_t seq = desc->seq;
  int rc;
  /* Submit: publish, then ring unless hart 0 is polling (Dekker with the
   * firmware's `polling` flag and its re-check of `submitted`). */
  /* This thread will wait: keep hart 0 off its CPU (qemu_backend.c). Not
   * when hart 0 never lingers: waking it from wfi across CPUs is slower
   * (docs/performance.md, "Figures behind the code's choices"). */
  int cpu = sched_getcpu();
  if (cpu != L->placed_cpu && L->options->linger_us != RVHAL_LINGER_OFF && L->backend->vtable->place) {
    L->backend->vtable->place(L->backend, cpu);
    L->placed_cpu = cpu;
  }
  uint64_t t0 = now_ns();
  if ((rc = debug_counters_at(d, out, out->debug_start))) return rc;
  out->debug_counted = out->counting && rvhal_observe_debug_link(d);
  const rvhal_launch_slot_t *slot =
      (const rvhal_launch_slot_t *)((const uint8_t *)desc - offsetof(rvhal_launch_slot_t, desc));
  if (!rvhal_backend_coherent(L->backend) &&
      ((desc->args_size && (rc = rvhal_backend_flush_ptr(L->backend, slot->args, rvhal_align_up(desc->args_size, 64)))) || /* the zeroed tail too */
       (rc = rvhal_backend_flush_ptr(L->backend, desc, sizeof *desc + sizeof slot->done))))
    return rc; /* desc and done are adjacent: one write */
  L->seq = seq;
  __atomic_store_n(&L->ctrl->ring.submitted, seq, __ATOMIC_RELEASE);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (!rvhal_backend_coherent(L->backend) &&
      ((rc = rvhal_backend_flush_ptr(L->backend, &L->ctrl->ring.submitted, sizeof seq)) ||
       (rc = rvhal_backend_invalidate_ptr(L->backend, &L->ctrl->fw.polling, sizeof L->ctrl->fw.polling))))
    return recover(d, rc);
  if (!__atomic_load_n(&L->ctrl->fw.polling, __ATOMIC_ACQUIRE)) {
    rc = L->backend->vtable->doorbell(L->backend);
    if (rc) return recover(d, rc);
    out->rang = 1;
  }
  rvhal_observe_launch_started(d, &(rvhal_launch_in_flight_t){.seq = seq, .start_ns = t0, .groups = out->total_groups,
                                                               .harts = out->harts, .team = out->team,
                                                               .trace = (desc->flags & RVHAL_LAUNCH_TRACE) != 0});
  out->t0 = t0;
  return RVHAL_OK;
}

int rvhal_launch_running(rvhal_device_t *d, const rvhal_launch_t *l) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  if (L->lost) return 0;
  if (!rvhal_backend_coherent(L->backend)) return 1; /* a look would be a round trip: not known */
  return __atomic_load_n(&L->ctrl->ring.completed, __ATOMIC_ACQUIRE) < l->seq;
}

int rvhal_launch_complete(rvhal_device_t *d, rvhal_launch_t *l, int more) {
  rvhal_completion_t done;
  uint64_t t1;
  RVHAL_RETURN_IF_ERROR(rvhal_launch_wait(d, l, more, &done, &t1));
  return rvhal_launch_outcome(d, l, &done, t1);
}

int rvhal_launch_wait(rvhal_device_t *d, rvhal_launch_t *l, int more, rvhal_completion_t *out_done,
                      uint64_t *out_t1) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  const char *kname = l->kname;
  const uint64_t seq = l->seq;
  if (l->boot != rvhal_device_boots(d))
    return rvhal_error(RVHAL_CANCELLED, "kernel %s: launch %llu was lost: the device restarted after a launch before "
                       "it failed", kname, (unsigned long long)seq);
  rvhal_launch_slot_t *slot = &L->ctrl->ring.slots[seq % RVHAL_RING_SLOTS];
  /* A spin takes a core: the wake-up is spun for only while the harts it
   * wakes leave the host one (with every core a hart's, spinning was
   * slower: docs/performance.md, "Figures behind the code's choices"). */
  int rc = wait_for(d, seq, kname, l->rang && l->harts < L->host_cpus, l->timeout_ms);
  if (rc) return rc;
  L->retired = seq;
  rvhal_observe_launch_retired(d, seq);
  uint64_t t1 = now_ns();
  /* With later launches still on the device, what they printed so far
   * waits for their own completion. */
  if ((rc = drain(d, !more))) return device_lied(d, kname, rc);

  if ((rc = rvhal_backend_invalidate_ptr(L->backend, &slot->done, sizeof slot->done))) return recover(d, rc);
  rvhal_completion_t done = slot->done; /* a copy: checked, then used */
  if ((rc = check_completion(d, &done, seq))) return device_lied(d, kname, rc);
  /* A running average of the launches' time on the device (not the round
   * trip: that includes the wake-up a spin avoids), for the next wait's
   * spin; one slow launch counts as SPIN_MAX_NS, not more. */
  uint64_t ticks = done.end_mtime - done.start_mtime; /* capped first: no overflow below */
  uint64_t took = ticks > SPIN_MAX_NS ? SPIN_MAX_NS : ticks * 1000000000ull / L->info->timebase_hz;
  L->recent_launch_ns = (3 * L->recent_launch_ns + (took < SPIN_MAX_NS ? took : SPIN_MAX_NS)) / 4;
  if (l->rang) {
    const uint64_t trip = t1 > l->t0 ? t1 - l->t0 : 0, wake = trip > took ? trip - took : 0;
    L->recent_wake_ns = (3 * L->recent_wake_ns + (wake < SPIN_MAX_NS ? wake : SPIN_MAX_NS)) / 4;
  }
  l->times.start_ns = ticks_to_ns(done.start_mtime, L->info->timebase_hz);
  l->times.end_ns = ticks_to_ns(done.end_mtime, L->info->timebase_hz);
  l->times.device_ns = ticks_to_ns(ticks, L->info->timebase_hz);
  *out_done = done;
  *out_t1 = t1;
  return RVHAL_OK;
}

/* The launch's record (launch_record.h): every hart's block copied once;
 * with `events`, the timeline of each hart that took part, its count
 * bounded by the device's trace area (a kernel can write it), into
 * buffers the caller frees. */
static void read_record(rvhal_device_t *d, const rvhal_launch_t *l, const rvhal_completion_t *done, uint64_t host_ns,
                        int events, rvhal_launch_record_t *r, rvhal_trace_event_t **bufs) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  memset(r, 0, sizeof *r);
  r->seq = l->seq;
  r->kernel = l->kname;
  r->work_dim = l->work_dim;
  r->groups = l->total_groups;
  r->harts = l->harts;
  r->harts_per_group = l->team;
  for (int i = 0; i < 3; i++) {
    r->global[i] = l->global[i];
    r->local[i] = l->local[i];
  }
  r->host_start_ns = l->t0 - rvhal_observe_created_ns(d);
  r->host_ns = host_ns;
  r->device_ticks = done->end_mtime - done->start_mtime;
  r->times = l->times;
  r->timebase_hz = L->info->timebase_hz;
  r->num_harts = L->info->num_harts;
  r->trace_capacity = (uint32_t)(L->layout->trace_size / sizeof(rvhal_trace_event_t));
  r->exact_timing = L->options->timing == RVHAL_TIMING_EXACT;
  r->plugin_counts = __atomic_load_n(&L->ctrl->insns.active, __ATOMIC_ACQUIRE) != 0;
  uint64_t debug_end[RVHAL_MAX_HARTS][2];
  /* a failed read leaves them out (the launch itself succeeded) */
  r->debug_counts = l->debug_counted && debug_counters_at(d, l, debug_end) == RVHAL_OK;
  if (l->debug_counted && !r->debug_counts) rvhal_clear_error();
  for (uint32_t h = 0; h < r->num_harts; h++) {
    if (r->debug_counts) { /* counters only go up; a hart reset in between reads as 0 */
      const uint64_t *s = l->debug_start[h], *e = debug_end[h];
      r->hart[h].counters[RVHAL_HART_COUNTER_DEBUG_CYCLES] = e[0] >= s[0] ? e[0] - s[0] : 0;
      r->hart[h].counters[RVHAL_HART_COUNTER_DEBUG_INSTRET] = e[1] >= s[1] ? e[1] - s[1] : 0;
    }
    const rvhal_hart_block_t b = L->ctrl->harts[h]; /* (drain read the blocks on a mirror) */
    rvhal_launch_hart_record_t *hr = &r->hart[h];
    hr->took_part = b.counters_seq == l->seq;
    if (!hr->took_part) continue;
    const uint64_t dc = hr->counters[RVHAL_HART_COUNTER_DEBUG_CYCLES], di = hr->counters[RVHAL_HART_COUNTER_DEBUG_INSTRET];
    memcpy(hr->counters, b.counters, sizeof hr->counters);
    hr->counters[RVHAL_HART_COUNTER_DEBUG_CYCLES] = dc; /* the host's, not the block's */
    hr->counters[RVHAL_HART_COUNTER_DEBUG_INSTRET] = di;
    hr->start_cycle = b.start_cycle;
    hr->end_cycle = b.end_cycle;
    hr->dropped = b.trace_dropped;
    uint32_t n = b.trace_events < r->trace_capacity ? b.trace_events : r->trace_capacity;
    if (!events || !n) continue;
    const rvhal_trace_event_t *dev = rvhal_backend_ptr(L->backend, L->layout->trace_base + (uint64_t)h * L->layout->trace_size);
    if (rvhal_backend_invalidate_ptr(L->backend, dev, (uint64_t)n * sizeof *dev) != RVHAL_OK) continue; /* a mirror: read first */
    if (!(bufs[h] = malloc((size_t)n * sizeof *dev))) continue;
    memcpy(bufs[h], dev, (size_t)n * sizeof *dev);
    hr->events = bufs[h];
    hr->num_events = n;
  }
}

int rvhal_launch_outcome(rvhal_device_t *d, const rvhal_launch_t *l, const rvhal_completion_t *checked, uint64_t t1) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  const char *kname = l->kname;
  const uint64_t seq = l->seq;
  const rvhal_completion_t done = *checked;
  rvhal_program_obj_t *p = rvhal_program_get(d, l->program);
  /* The kernel's own report (any code, 0 too), from any hart: a launch
   * run beside another (RVHAL_LAUNCH_OVERLAP) has harts from the first
   * free one on. (fault_hart was checked.) */
  int rc = rvhal_launch_kernel_report(d, seq, done.status, done.status == RVHAL_OK ? 0 : done.fault_hart,
                                      done.status == RVHAL_OK ? L->info->num_harts : done.fault_hart + 1, kname);
  if (rc != RVHAL_OK) return rc;
  if (done.status == RVHAL_BAD_LAUNCH) { /* the host checked it all: the device's state is not what it wrote */
    rvhal_error(RVHAL_BAD_LAUNCH, "the firmware rejected launch %llu's descriptor, which the host had checked "
                "(boot configuration overwritten by a kernel, or host/firmware mismatch)", (unsigned long long)seq);
    return device_lied(d, kname, RVHAL_BAD_LAUNCH);
  }
  if (done.status == RVHAL_UNSUPPORTED || done.status == RVHAL_CANCELLED) L->resident = 0; /* it installed nothing */
  if (done.status == RVHAL_CANCELLED)
    return rvhal_error(RVHAL_CANCELLED, "kernel %s: launch %llu did not run: the launch before it on the device "
                       "failed", kname, (unsigned long long)seq);
  if (!p) return rvhal_error(RVHAL_NOT_FOUND, "kernel %s: its program was freed during the launch", kname);
  if (done.status != RVHAL_OK) return launch_error(d, p, kname, &done);

  const uint64_t total_groups = l->total_groups;
  const int counting = l->counting;
  rvhal_launch_report_t report, *r = &report;
  memset(r, 0, sizeof *r);
  r->seq = seq;
  r->num_groups = total_groups;
  r->chunk_groups = l->chunk;
  r->harts = l->harts;
  r->harts_per_group = l->team;
  r->device_ns = ticks_to_ns(done.end_mtime - done.start_mtime, L->info->timebase_hz);
  r->host_ns = t1 - l->t0;
  for (uint32_t h = 0; h < L->info->num_harts; h++)
    if (counting && L->ctrl->harts[h].counters_seq == seq)
      r->groups_per_hart[h] = L->ctrl->harts[h].counters[RVHAL_HART_COUNTER_GROUPS];
  rvhal_observe_launch_report(d, r);
  if (!counting) return RVHAL_OK;
  /* What observability gets: the record, read from the device here, once. */
  rvhal_launch_record_t rec;
  rvhal_trace_event_t *events[RVHAL_MAX_HARTS] = {0};
  read_record(d, l, &done, r->host_ns, rvhal_observe_wants_events(d), &rec, events);
  rvhal_observe_launch_record(d, &rec);
  for (uint32_t h = 0; h < RVHAL_MAX_HARTS; h++) free(events[h]);
  return RVHAL_OK;
}

void rvhal_launch_forget_resident(rvhal_device_t *d) { rvhal_launcher(d)->resident = 0; }

void rvhal_device_set_print_fn(rvhal_device_t *d, rvhal_print_fn_t fn, void *user) {
  RVHAL_DEVICE_GUARD(d);
  if (d) rvhal_launcher_set_print_fn(d, fn, user);
}

void rvhal_device_get_print_fn(const rvhal_device_t *d, rvhal_print_fn_t *out_fn, void **out_user) {
  if (d) {
    rvhal_launcher_get_print_fn(d, out_fn, out_user);
    return;
  }
  if (out_fn) *out_fn = NULL;
  if (out_user) *out_user = NULL;
}
