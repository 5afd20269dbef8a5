/* The device core (core.h): options, memory map, the backend, boot of the
 * firmware, the lock. rvhal_device_create (device_compose.c) builds the
 * rest of a device on it. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cpu_wait.h"
#include "base/profile_spec.h"
#include "device/device_internal.h"

/* Environment overrides for options left at 0, so any program can be
 * steered without code changes. */
#define env_u32 rvhal_env_u32

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
    if (p && *p && rvhal_profile_spec_each(p, NULL, NULL) == RVHAL_OK) o->profile = p;
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

/* A non-coherent backend's device starts from the host's mirror of global
 * memory: a restart reads back what the kernels wrote first (memory.h). */
int rvhal_device_boot(rvhal_device_t *d) {
  rvhal_backend_t *be = d->backend;
  be->vtable->stop(be);
  /* Fresh control block and print rings; global memory is left alone. So
   * are the plugin's instruction counts: a warm QEMU (qemu_backend.c) has
   * loaded it already, and every plugin zeroes them when it starts. */
  uint8_t *ctrl = be->ram + (d->layout.ctrl - d->layout.ram_base);
  const size_t insns = offsetof(rvhal_ctrl_t, insns), insns_end = insns + sizeof(rvhal_insn_counts_t);
  if (!be->ram_zero) { /* a first boot skips it: page faults in every create (docs/performance.md) */
    memset(ctrl, 0, insns);
    memset(ctrl + insns_end, 0, RVHAL_FW_REGION_SIZE - RVHAL_CTRL_OFFSET - insns_end);
  }
  write_boot_config(d);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  be->ram_zero = 0;
  RVHAL_RETURN_IF_ERROR(be->vtable->start(be));
  __atomic_store_n(&d->boots, d->boots + 1, __ATOMIC_RELEASE); /* modules that describe the firmware see it change */
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
      d->info.link_bytes_per_s = (uint64_t)be->link_bps;
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

int rvhal_device_core_create(uint32_t index, const rvhal_device_options_t *options, rvhal_device_t **out_device) {
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
  pthread_mutexattr_destroy(&ma);
  d->index = index;
  d->kind = kind;
  int rc = resolve_options(&kind->board, options, &d->options);
  if (rc) goto fail;
  rvhal_layout_request_t req = {d->options.num_harts, d->options.ram_size, d->options.local_mem_size,
                                d->options.max_work_group_size, d->options.item_stack_size};
  if ((rc = rvhal_layout_compute(&kind->board, &req, &d->layout))) goto fail;
  fill_info(d);
  *out_device = d;
  return RVHAL_OK;
fail:
  rvhal_device_core_destroy(d);
  return rc;
}

int rvhal_device_core_connect(rvhal_device_t *d) {
  const rvhal_device_kind_t *kind = d->kind;
  const rvhal_device_options_t *options = &d->options;
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
  if (backend && *backend && strcmp(backend, "qemu") && strcmp(backend, "gdb"))
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_BACKEND=%s: use \"qemu\" (shared memory, the default) or \"gdb\" "
                       "(GDB remote protocol)", backend);
  /* A stub rvhal does not start implies the GDB-remote backend. */
  qc.gdb_remote = options->gdb_remote ? options->gdb_remote : env_nonempty("RVHAL_GDB_REMOTE");
  qc.gdb_spawn = qc.gdb_remote ? NULL : env_nonempty("RVHAL_GDB_SPAWN");
  qc.uart = env_nonempty("RVHAL_UART");
  qc.gdb_reset = getenv("RVHAL_GDB_RESET"); /* "" too: no reset */
  if (qc.gdb_remote || qc.gdb_spawn) {
    if (backend && !strcmp(backend, "qemu"))
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_BACKEND=qemu with a GDB stub to attach to (%s): the stub is "
                         "reached by the gdb backend", qc.gdb_remote ? qc.gdb_remote : qc.gdb_spawn);
    backend = "gdb";
  }
  if (backend && !strcmp(backend, "gdb")) RVHAL_RETURN_IF_ERROR(rvhal_gdb_backend_create(&qc, &d->backend));
  else RVHAL_RETURN_IF_ERROR(rvhal_qemu_backend_create(&qc, &d->backend));
  d->ctrl = (rvhal_ctrl_t *)(d->backend->ram + (d->layout.ctrl - d->layout.ram_base));
  return RVHAL_OK;
}

void rvhal_device_core_destroy(rvhal_device_t *d) {
  if (!d) return;
  if (d->backend) d->backend->vtable->destroy(d->backend);
  pthread_mutex_destroy(&d->lock);
  free(d);
}

void rvhal_device_set_modules(rvhal_device_t *d, const rvhal_device_modules_t *modules) { d->modules = *modules; }
const rvhal_device_modules_t *rvhal_device_modules(const rvhal_device_t *d) { return &d->modules; }
uint32_t rvhal_device_index(const rvhal_device_t *d) { return d->index; }
const rvhal_device_options_t *rvhal_device_options(const rvhal_device_t *d) { return &d->options; }
const rvhal_layout_t *rvhal_device_layout(const rvhal_device_t *d) { return &d->layout; }
rvhal_backend_t *rvhal_device_backend(const rvhal_device_t *d) { return d->backend; }
rvhal_ctrl_t *rvhal_device_ctrl(const rvhal_device_t *d) { return d->ctrl; }
uint64_t rvhal_device_boots(const rvhal_device_t *d) { return __atomic_load_n(&d->boots, __ATOMIC_ACQUIRE); }

void rvhal_device_lock(const rvhal_device_t *d) { pthread_mutex_lock((pthread_mutex_t *)&d->lock); }
void rvhal_device_unlock(const rvhal_device_t *d) { pthread_mutex_unlock((pthread_mutex_t *)&d->lock); }
int rvhal_device_trylock(const rvhal_device_t *d) { return pthread_mutex_trylock((pthread_mutex_t *)&d->lock) == 0; }
int rvhal_device_hold(const rvhal_device_t *d) {
  return !__atomic_exchange_n((int *)&d->busy, 1, __ATOMIC_ACQUIRE);
}
void rvhal_device_release(const rvhal_device_t *d) { __atomic_store_n((int *)&d->busy, 0, __ATOMIC_RELEASE); }
int rvhal_device_busy(const rvhal_device_t *d) { return __atomic_load_n(&d->busy, __ATOMIC_ACQUIRE); }

int rvhal_device_host_pid(const rvhal_device_t *d, long *out_pid) {
  if (!d || !out_pid) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_host_pid: NULL argument");
  long pid = d->backend->vtable->process_id ? d->backend->vtable->process_id(d->backend) : 0;
  if (pid <= 0) return rvhal_error(RVHAL_NOT_FOUND, "device_host_pid: the device has no host process running");
  *out_pid = pid;
  return RVHAL_OK;
}

const rvhal_device_info_t *rvhal_device_get_info(const rvhal_device_t *d) { return d ? &d->info : NULL; }
