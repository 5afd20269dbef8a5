/* Device lifetime: options, memory layout, boot of the firmware, delete. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpu_wait.h"
#include "device/device_internal.h"
#include "observe/profile.h"

/* Environment overrides for options left at 0, so any program can be
 * steered without code changes. */
static int env_u32(const char *name, uint32_t *v) {
  const char *s = getenv(name);
  if (!s || !*s) return RVHAL_OK;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end || x > UINT32_MAX) return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s=%s is not a number", name, s);
  *v = (uint32_t)x;
  return RVHAL_OK;
}

/* $RVHAL_TLB_CARE_OFF: "colouring", "flush", comma-separated. */
static int env_tlb_care_off(uint32_t *v) {
  const char *s = getenv("RVHAL_TLB_CARE_OFF");
  while (s && *s) {
    size_t n = strcspn(s, ",");
    if (n == 9 && !strncmp(s, "colouring", n)) *v |= RVHAL_TLB_NO_COLOURING;
    else if (n == 5 && !strncmp(s, "flush", n)) *v |= RVHAL_TLB_NO_FLUSH;
    else if (n)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_TLB_CARE_OFF=%s: use \"colouring\", \"flush\" or both, "
                         "comma-separated", getenv("RVHAL_TLB_CARE_OFF"));
    s += n + (s[n] == ',');
  }
  return RVHAL_OK;
}

static int resolve_options(const rvhal_board_desc_t *board, const rvhal_device_options_t *in,
                           rvhal_device_options_t *o) {
  if (in) *o = *in;
  else memset(o, 0, sizeof *o);
  if (!o->num_harts) {
    RVHAL_RETURN_IF_ERROR(env_u32("RVHAL_HARTS", &o->num_harts));
    if (!o->num_harts) o->num_harts = RVHAL_DEFAULT_HARTS < board->max_harts ? RVHAL_DEFAULT_HARTS : board->max_harts;
  }
  if (!o->profile) {
    /* A word of $RVHAL_PROFILE that is none: said once, and no profile
     * (a program the user did not write must not fail for it). */
    static int warned;
    const char *p = getenv("RVHAL_PROFILE");
    if (p && *p && rvhal_profile_check_spec(p) == RVHAL_OK) o->profile = p;
    else if (p && *p && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      fprintf(stderr, "rvhal: RVHAL_PROFILE ignored: %s\n", rvhal_last_error());
    rvhal_clear_error();
  }
  if (!o->counters) {
    uint32_t on = 0;
    RVHAL_RETURN_IF_ERROR(env_u32("RVHAL_COUNTERS", &on));
    o->counters = on || o->profile;
  }
  if (o->timing == RVHAL_TIMING_DEFAULT) {
    /* Counters asked for and no mode chosen: exact, so the numbers are. */
    const char *t = getenv("RVHAL_TIMING");
    if (!t || !*t) o->timing = o->counters ? RVHAL_TIMING_EXACT : RVHAL_TIMING_FAST;
    else if (!strcmp(t, "fast")) o->timing = RVHAL_TIMING_FAST;
    else if (!strcmp(t, "exact")) o->timing = RVHAL_TIMING_EXACT;
    else return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_TIMING=%s: use \"fast\" or \"exact\"", t);
  } else if (o->timing != RVHAL_TIMING_FAST && o->timing != RVHAL_TIMING_EXACT) {
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "timing mode %d is not fast (1) or exact (2)", (int)o->timing);
  }
  if (!o->launch_timeout_ms) {
    RVHAL_RETURN_IF_ERROR(env_u32("RVHAL_LAUNCH_TIMEOUT_MS", &o->launch_timeout_ms));
    if (!o->launch_timeout_ms) o->launch_timeout_ms = RVHAL_DEFAULT_LAUNCH_TIMEOUT_MS;
  }
  if (!o->ram_size) {
    uint32_t mib = 0;
    RVHAL_RETURN_IF_ERROR(env_u32("RVHAL_RAM_MIB", &mib));
    const uint64_t max_mib = (board->max_ram_size < (2048ull << 20) ? board->max_ram_size : 2048ull << 20) >> 20;
    if (mib && (mib < 32 || mib > max_mib)) /* as the layout checks it */
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_RAM_MIB=%u: board %s takes 32 to %llu MiB of RAM", mib,
                         board->name, (unsigned long long)max_mib);
    o->ram_size = mib ? (uint64_t)mib << 20 : board->default_ram_size;
  }
  if (!o->local_mem_size) o->local_mem_size = RVHAL_DEFAULT_LOCAL_MEM;
  if (!o->max_work_group_size) o->max_work_group_size = RVHAL_DEFAULT_MAX_WG;
  if (!o->item_stack_size) o->item_stack_size = RVHAL_DEFAULT_ITEM_STACK;
  if (!o->linger_us) o->linger_us = RVHAL_DEFAULT_LINGER_US;
  if (o->progress_fn && !o->progress_interval_ms) o->progress_interval_ms = 1000;
  if (!o->tlb_care_off) RVHAL_RETURN_IF_ERROR(env_tlb_care_off(&o->tlb_care_off));
  if (!o->vlen) RVHAL_RETURN_IF_ERROR(env_u32("RVHAL_VLEN", &o->vlen));
  if (!o->vlen) o->vlen = board->vlen; /* a vector board's own VLEN (qemu-virt-rvv) */
  if (o->vlen && (o->vlen < 128 || o->vlen > 1024 || (o->vlen & (o->vlen - 1))))
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "vlen %u: vector harts take a VLEN of 128, 256, 512 or 1024 bits (0: none)",
                       o->vlen);
  if (o->vlen && strchr(board->isa + 4, 'v') == NULL && strcmp(board->qemu_machine, "virt"))
    return rvhal_error(RVHAL_UNSUPPORTED, "vlen %u: vector harts are given on QEMU's virt machine (-cpu rvXX,v=true); "
                       "board %s runs %s", o->vlen, board->name, board->qemu_machine);
  /* A board that gives QEMU a CPU of its own (qemu-virt-imac: harts without
   * F/D) would keep it: the device would report vector harts whose first
   * vector instruction traps. And V needs F and D (Zve64d). */
  if (o->vlen && strchr(board->isa + 4, 'v') == NULL) {
    const char *cpu = strstr(board->qemu_args, "-cpu");
    if (cpu)
      return rvhal_error(RVHAL_UNSUPPORTED, "vlen %u: board %s gives QEMU its own CPU (%.*s): its harts cannot be "
                         "given V", o->vlen, board->name, (int)strcspn(cpu + 5, " ") + 5, cpu);
    if (!strpbrk(board->isa + 4, "dg"))
      return rvhal_error(RVHAL_UNSUPPORTED, "vlen %u: board %s's harts (%s) have no D, which V needs", o->vlen,
                         board->name, board->isa);
  }
  o->counters = o->counters != 0;
  return RVHAL_OK;
}

static void write_boot_config(rvhal_device_t *d) {
  const rvhal_layout_t *l = &d->layout;
  rvhal_boot_config_t *b = &d->ctrl->boot;
  memset(b, 0, sizeof *b);
  b->magic = RVHAL_CTRL_MAGIC;
  b->abi_version = RVHAL_ABI_VERSION;
  b->num_harts = d->info.num_harts;
  b->flags = d->options.timing == RVHAL_TIMING_EXACT ? RVHAL_BOOT_EXACT_TIMING : 0;
  b->ram_base = l->ram_base;
  b->ram_size = l->ram_size;
  b->stacks_base = l->stacks_base;
  b->hart_stack_size = l->hart_stack_size;
  b->fibers_base = l->fibers_base;
  b->fiber_pool_size = l->fiber_pool_size;
  b->fiber_stack_size = l->fiber_stack_size;
  b->program_base = l->program_base;
  b->program_size = l->program_size;
  b->staging_base = l->staging_base;
  b->staging_size = l->staging_size;
  b->local_mem_size = l->local_mem_size;
  b->timebase_hz = d->kind->board.timebase_hz;
  b->trace_base = l->trace_base;
  b->trace_size = l->trace_size;
  b->heap_base = l->heap_base;
  b->heap_size = l->heap_size;
  b->linger_ticks = d->options.linger_us == RVHAL_LINGER_OFF
                        ? 0
                        : (uint64_t)d->options.linger_us * d->kind->board.timebase_hz / 1000000u;
}

/* A restart keeps global memory. A non-coherent backend's device is reset
 * from the host's mirror (gdb_backend.c): what the kernels wrote is read
 * back first, from a device still there (else the host's last view stays). */
static int read_back(void *d, hal_addr_t addr, hal_size_t size) { return rvhal_dev_invalidate(d, addr, size); }

int rvhal_device_boot(rvhal_device_t *d) {
  rvhal_backend_t *be = d->backend;
  if (!rvhal_dev_coherent(d) && d->boots) {
    pthread_mutex_lock(&d->heap_lock);
    if (rvhal_allocator_for_each(d->heap, read_back, d)) rvhal_clear_error();
    pthread_mutex_unlock(&d->heap_lock);
  }
  be->vtable->stop(be);
  /* Fresh control block and print rings; global memory is left alone. So
   * are the plugin's instruction counts: a warm QEMU (qemu_backend.c) has
   * loaded it already, and every plugin zeroes them when it starts. */
  uint8_t *ctrl = be->ram + (d->layout.ctrl - d->layout.ram_base);
  const size_t insns = offsetof(rvhal_ctrl_t, insns), insns_end = insns + sizeof(rvhal_insn_counts_t);
  if (!be->ram_zero) { /* a first boot skips it: 1.5 MiB of page faults, ~1.1 ms of every create */
    memset(ctrl, 0, insns);
    memset(ctrl + insns_end, 0, RVHAL_FW_REGION_SIZE - RVHAL_CTRL_OFFSET - insns_end);
  }
  write_boot_config(d);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  be->ram_zero = 0;
  RVHAL_RETURN_IF_ERROR(be->vtable->start(be));
  d->boots++;
  rvhal_launch_device_booted(d);
  rvhal_print_reset_order(&d->print);
  /* Real time, not wake-ups: an SBI firmware's banner wakes the wait many
   * times before rvhal's firmware runs. Less the time QEMU waited for a CPU
   * on a loaded host, as a launch's deadline (cpu_wait.h: up to 5 times the
   * timeout in all). */
  const uint64_t t0 = rvhal_now_ns();
  rvhal_cpu_wait_t starved;
  const long pid = be->vtable->process_id ? be->vtable->process_id(be) : 0;
  const int watching = rvhal_cpu_wait_start(&starved, pid) == 0;
  uint64_t credit = 0;
  for (;;) {
    const uint64_t now = rvhal_now_ns();
    if (watching && now - starved.last_ns >= 10 * 1000000ull)
      credit = rvhal_cpu_wait_credit(rvhal_cpu_wait_sample(&starved, NULL), RVHAL_BOOT_TIMEOUT_MS * 1000000ull);
    int waited = (int)((now - t0 - (now - t0 < credit ? now - t0 : credit)) / 1000000u);
    RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate_ptr(d, &d->ctrl->fw, sizeof d->ctrl->fw));
    uint32_t state = __atomic_load_n(&d->ctrl->fw.state, __ATOMIC_ACQUIRE);
    if (state == RVHAL_FW_READY) {
      if (be->vtable->booted) be->vtable->booted(be);
      return RVHAL_OK;
    }
    if (state == RVHAL_FW_FAILED) {
      char msg[sizeof d->ctrl->fw.message + 1];
      memcpy(msg, d->ctrl->fw.message, sizeof d->ctrl->fw.message);
      msg[sizeof msg - 1] = '\0';
      be->vtable->stop(be);
      return rvhal_error(RVHAL_FIRMWARE, "firmware failed to start: %s (%s)", msg,
                         rvhal_status_name(d->ctrl->fw.error));
    }
    if (waited >= RVHAL_BOOT_TIMEOUT_MS) {
      /* What the firmware got to: nothing at all (no hart reached boot.c:
       * the image, the reset, or a trap in start.S) or some harts. */
      char msg[sizeof d->ctrl->fw.message + 1];
      memcpy(msg, d->ctrl->fw.message, sizeof d->ctrl->fw.message);
      msg[sizeof msg - 1] = '\0';
      const uint32_t up = d->ctrl->fw.harts_online;
      const char *qemu_said = be->vtable->diagnostics(be);
      char uncounted[80] = "";
      if (credit >= 1000000u)
        snprintf(uncounted, sizeof uncounted, " and %llu ms its QEMU waited for a CPU",
                 (unsigned long long)(credit / 1000000u));
      int rc = rvhal_error(RVHAL_TIMEOUT, "firmware not ready after %d ms%s (%u of %u harts up%s%s%s); %s said: %s",
                           waited, uncounted, up, d->info.num_harts,
                           up ? "" : ": none finished start-up; a trap before that, e.g. in start.S an FP CSR on "
                                     "harts without F/D, or an image the machine did not load",
                           msg[0] ? "; the firmware's last message: " : "", msg, rvhal_dev_coherent(d) ? "QEMU" : "the stub",
                           qemu_said[0] ? qemu_said : "nothing");
      be->vtable->stop(be);
      return rc;
    }
    RVHAL_RETURN_IF_ERROR(be->vtable->wait(be, rvhal_dev_coherent(d) ? 100 : 5)); /* a mirror is not woken by "ready" */
  }
}

static const char *env_nonempty(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

static void fill_info(rvhal_device_t *d) {
  d->info = d->kind->info;
  d->info.num_harts = d->options.num_harts;
  rvhal_layout_describe(&d->layout, &d->info);
  d->info.timing = d->options.timing;
  d->info.vlen = d->options.vlen;
  snprintf(d->isa, sizeof d->isa, "%s%s", d->kind->info.isa, d->options.vlen && !strchr(d->kind->info.isa + 4, 'v') ? "v" : "");
  d->info.isa = d->isa;
}

int rvhal_platform_device_info_for(uint32_t index, const rvhal_device_options_t *options,
                                   rvhal_device_info_t *out_info) {
  const rvhal_device_kind_t *kind = rvhal_device_kind(index);
  if (!kind) return rvhal_error(RVHAL_NOT_FOUND, "device index %u: the platform has %u devices", index,
                                rvhal_platform_info()->num_devices);
  if (!out_info) return rvhal_error(RVHAL_INVALID_ARGUMENT, "platform_device_info_for: out_info is NULL");
  rvhal_device_options_t o;
  RVHAL_RETURN_IF_ERROR(resolve_options(&kind->board, options, &o));
  rvhal_layout_request_t req = {o.num_harts, o.ram_size, o.local_mem_size, o.max_work_group_size, o.item_stack_size};
  rvhal_layout_t l;
  RVHAL_RETURN_IF_ERROR(rvhal_layout_compute(&kind->board, &req, &l));
  *out_info = kind->info;
  out_info->num_harts = o.num_harts;
  rvhal_layout_describe(&l, out_info);
  out_info->timing = o.timing;
  return RVHAL_OK;
}

int rvhal_device_create(uint32_t index, const rvhal_device_options_t *options, rvhal_device_t **out_device) {
  rvhal_clear_error();
  if (!out_device) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_create: out_device is NULL");
  *out_device = NULL;
  const rvhal_device_kind_t *kind = rvhal_device_kind(index);
  if (!kind)
    return rvhal_error(RVHAL_NOT_FOUND, "device index %u: the platform has %u devices (see rvhal info)", index,
                       rvhal_platform_info()->num_devices);
  rvhal_device_t *d = calloc(1, sizeof *d);
  if (!d) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&d->lock, &ma);
  pthread_mutex_init(&d->heap_lock, NULL);
  pthread_mutexattr_destroy(&ma);
  d->kind = kind;
  d->next_program = 1;
  d->next_kernel = 1;
  int rc = resolve_options(&kind->board, options, &d->options);
  if (!rc) rc = env_u32("RVHAL_HOST_SPIN_NS", &d->host_spin_ns); /* launch.c: 0 by default */
  if (rc) goto fail;
  rvhal_layout_request_t req = {d->options.num_harts, d->options.ram_size, d->options.local_mem_size,
                                d->options.max_work_group_size, d->options.item_stack_size};
  if ((rc = rvhal_layout_compute(&kind->board, &req, &d->layout))) goto fail;
  fill_info(d);
  /* A bad profile spec fails before any QEMU starts. */
  if (d->options.profile && (rc = rvhal_profile_open(d->options.profile, &d->profile))) goto fail;
  if (d->profile) {
    char pname[160];
    snprintf(pname, sizeof pname, "rvhal device %u: %s, %u harts", index, d->info.name, d->info.num_harts);
    rvhal_profile_name_process(d->profile, pname);
  }

  const char *env_qemu = getenv("RVHAL_QEMU");
  rvhal_qemu_config_t qc = {
      .qemu_path = d->options.qemu_path ? d->options.qemu_path
                                        : (env_qemu && *env_qemu ? env_qemu : kind->qemu_program),
      .firmware_path = d->options.firmware_path ? d->options.firmware_path : kind->firmware_path,
      .board = &kind->board,
      .num_harts = d->info.num_harts,
      .ram_base = d->layout.ram_base,
      .ram_size = d->layout.ram_size,
      .exact_timing = d->options.timing == RVHAL_TIMING_EXACT,
      .plugin_path = d->options.counters ? rvhal_qemu_plugin_path() : NULL,
      .plugin_offset = d->layout.ctrl - d->layout.ram_base + offsetof(rvhal_ctrl_t, insns),
      .vlen = d->options.vlen,
  };
  const char *backend = getenv("RVHAL_BACKEND");
  if (backend && *backend && strcmp(backend, "qemu") && strcmp(backend, "gdb")) {
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_BACKEND=%s: use \"qemu\" (shared memory, the default) or \"gdb\" "
                     "(GDB remote protocol)", backend);
    goto fail;
  }
  /* A stub rvhal does not start implies the GDB-remote backend. */
  qc.gdb_remote = options && options->gdb_remote ? options->gdb_remote : env_nonempty("RVHAL_GDB_REMOTE");
  qc.gdb_spawn = qc.gdb_remote ? NULL : env_nonempty("RVHAL_GDB_SPAWN");
  qc.uart = env_nonempty("RVHAL_UART");
  qc.gdb_reset = getenv("RVHAL_GDB_RESET"); /* "" too: no reset */
  if (qc.gdb_remote || qc.gdb_spawn) {
    if (backend && !strcmp(backend, "qemu")) {
      rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_BACKEND=qemu with a GDB stub to attach to (%s): the stub is "
                       "reached by the gdb backend", qc.gdb_remote ? qc.gdb_remote : qc.gdb_spawn);
      goto fail;
    }
    backend = "gdb";
  }
  if (backend && !strcmp(backend, "gdb")) rc = rvhal_gdb_backend_create(&qc, &d->backend);
  else rc = rvhal_qemu_backend_create(&qc, &d->backend);
  if (rc) goto fail;
  d->ctrl = (rvhal_ctrl_t *)(d->backend->ram + (d->layout.ctrl - d->layout.ram_base));
  if ((rc = rvhal_allocator_create(d->layout.heap_base, d->layout.heap_size, &d->heap))) goto fail;
  rvhal_allocator_set_colouring(d->heap, !(d->options.tlb_care_off & RVHAL_TLB_NO_COLOURING));
  if ((rc = rvhal_allocator_create(d->layout.staging_base, d->layout.staging_size, &d->staging))) goto fail;
  rvhal_print_init(&d->print, d->options.print_fn, d->options.print_user);
  rvhal_counters_init(d);
  if (d->counters.debug_link) rvhal_profile_debug_link(d->profile);
  d->created_ns = rvhal_now_ns();
  cpu_set_t cpus;
  d->host_cpus = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? (uint32_t)CPU_COUNT(&cpus) : 1;
  if (d->host_cpus < 1) d->host_cpus = 1;
  if ((rc = rvhal_device_boot(d))) goto fail;
  if ((rc = rvhal_progress_thread_start(d))) goto fail;
  *out_device = d;
  return RVHAL_OK;
fail:
  rvhal_device_delete(d);
  return rc;
}

void rvhal_device_delete(rvhal_device_t *d) {
  if (!d) return;
  rvhal_progress_thread_stop(d);
  rvhal_queues_device_deleted(d); /* before the lock: their threads may be waiting for it */
  rvhal_launch_release(d); /* deleted from a print callback: undefined, but not a loop here */
  while (d->programs) rvhal_program_free(d, d->programs->handle);
  rvhal_profile_close(d->profile);
  if (d->backend) d->backend->vtable->destroy(d->backend);
  rvhal_allocator_destroy(d->heap);
  rvhal_allocator_destroy(d->staging);
  rvhal_print_free(&d->print);
  pthread_mutex_destroy(&d->lock);
  pthread_mutex_destroy(&d->heap_lock);
  free(d);
}

int rvhal_device_host_pid(const rvhal_device_t *d, long *out_pid) {
  if (!d || !out_pid) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_host_pid: NULL argument");
  long pid = d->backend->vtable->process_id ? d->backend->vtable->process_id(d->backend) : 0;
  if (pid <= 0) return rvhal_error(RVHAL_NOT_FOUND, "device_host_pid: the device has no host process running");
  *out_pid = pid;
  return RVHAL_OK;
}

const rvhal_device_info_t *rvhal_device_get_info(const rvhal_device_t *d) { return d ? &d->info : NULL; }

void rvhal_device_set_print_fn(rvhal_device_t *d, rvhal_print_fn_t fn, void *user) {
  RVHAL_DEVICE_GUARD(d);
  if (!d) return;
  d->options.print_fn = fn;
  d->options.print_user = user;
  rvhal_print_set_output(&d->print, fn, user);
}

void rvhal_device_get_print_fn(const rvhal_device_t *d, rvhal_print_fn_t *out_fn, void **out_user) {
  if (out_fn) *out_fn = d ? d->options.print_fn : NULL;
  if (out_user) *out_user = d ? d->options.print_user : NULL;
}
