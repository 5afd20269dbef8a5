/* The device object shared by the host library's files. */
#ifndef RVHAL_HOST_DEVICE_INTERNAL_H
#define RVHAL_HOST_DEVICE_INTERNAL_H

#include <pthread.h>
#include <time.h>

#include "memory/allocator.h"
#include "backend/backend.h"
#include "base/elf_loader.h"
#include "base/internal.h"
#include "device/layout.h"
#include "launch/launch_plan.h"
#include "observe/launch_record.h"
#include "observe/print_drain.h"
#include "rvhal/counters.h"
#include "rvhal/device.h"
#include "rvhal/rvhal_kernel_meta.h"
#include "rvhal/rvhal_protocol.h"

/* A kernel of a program, with its metadata when the SDK emitted it. Its
 * handle is given when program_find_kernel first names it, unique on the
 * device, so a handle can never be mistaken for another program's. */
typedef struct rvhal_kernel_entry {
  hal_kernel_t handle; /* 0 until found */
  char *name;
  uint64_t entry;
  int has_meta;
  rvhal_kernel_meta_t meta;
  const char *arg_text; /* declared "type\0name\0" per argument (in the ELF image); NULL if not recorded */
  const rvhal_opencl_meta_t *opencl; /* an OpenCL C kernel's qualifiers (in the ELF image); NULL for C SDK kernels */
} rvhal_kernel_entry_t;

/* The SDK kernels of an image (program_info.c): out has room for one per
 * symbol; *out_num is set also on failure (names to free). */
int rvhal_elf_kernels(const rvhal_elf_image_t *img, rvhal_kernel_entry_t *out, uint32_t *out_num);

typedef struct rvhal_program_obj {
  hal_program_t handle;
  rvhal_elf_image_t *elf;
  hal_addr_t staging;     /* segments' file bytes, in global memory */
  uint32_t num_installs;  /* what a launch that (re)installs the program copies into its descriptor */
  rvhal_install_t install[RVHAL_MAX_INSTALLS];
  uint32_t num_kernels;
  uint32_t num_sdk_kernels; /* kernels[0 .. num_sdk_kernels) have SDK metadata; others are added when named */
  rvhal_kernel_entry_t *kernels;
  struct rvhal_program_obj *next;
} rvhal_program_obj_t;

/* The SDK kernel a caller most likely meant by `name` (program.c); NULL if none is close. */
const char *rvhal_closest_kernel(const rvhal_program_obj_t *p, const char *name);

/* Defaults of rvhal_device_options_t. */
#define RVHAL_DEFAULT_HARTS 4u
#define RVHAL_DEFAULT_LOCAL_MEM (64u * 1024u)
#define RVHAL_DEFAULT_MAX_WG 1024u
#define RVHAL_DEFAULT_ITEM_STACK (4u * 1024u)
#define RVHAL_DEFAULT_LAUNCH_TIMEOUT_MS 60000u
#define RVHAL_DEFAULT_LINGER_US 500u
#define RVHAL_BOOT_TIMEOUT_MS 20000

/* A catalogue entry: one of the platform's devices (platform.c). */
typedef struct rvhal_device_kind {
  rvhal_device_info_t info; /* with default options */
  rvhal_board_desc_t board; /* from the descriptor */
  uint32_t xlen;
  const char *qemu_program; /* qemu-system-riscv64 / 32 */
  char name[80];            /* "qemu-virt-rv64" */
  char desc_path[4096];
  char firmware_path[4096];
} rvhal_device_kind_t;

/* Counter values of the last launch / memory operation, and whether each
 * was read (counters.c). */
typedef struct rvhal_counter_state {
  uint32_t num;                                     /* 0: counters off */
  int debug_link;                                   /* the DEBUG_* hart counters are read (backend.h: hart_counters) */
  rvhal_counter_description_t desc[RVHAL_NUM_HART_COUNTERS + RVHAL_NUM_DEVICE_COUNTERS];
  uint64_t hart[RVHAL_NUM_HART_COUNTERS][RVHAL_MAX_HARTS];
  uint8_t hart_fresh[RVHAL_NUM_HART_COUNTERS][RVHAL_MAX_HARTS];
  uint64_t dev[RVHAL_NUM_DEVICE_COUNTERS]; /* by id - RVHAL_HART_COUNTER_SLOTS */
  uint8_t dev_fresh[RVHAL_NUM_DEVICE_COUNTERS];
} rvhal_counter_state_t;

struct rvhal_device {
  rvhal_device_info_t info;
  const rvhal_device_kind_t *kind;
  rvhal_device_options_t options;
  char isa[96]; /* info.isa: the board's, with "v" for vector harts */
  rvhal_layout_t layout;
  rvhal_backend_t *backend;
  rvhal_ctrl_t *ctrl;        /* host view of the control block */
  rvhal_allocator_t *heap;    /* global memory for mem_alloc */
  rvhal_allocator_t *staging; /* program copies, out of the user's reach */
  rvhal_program_obj_t *programs;
  hal_program_t next_program;
  hal_kernel_t next_kernel;
  hal_program_t resident;    /* program installed in the program area (0: none) */
  uint64_t seq;              /* last launch submitted */
  uint64_t retired;          /* last launch whose completion the host has read (seq - retired: on the device) */
  uint64_t boots;            /* device (re)boots: a launch submitted before the last one is lost */
  int lost;                  /* the device stopped and could not be restarted */
  int busy;                  /* a launch is under way (launch.c): re-entry gets RVHAL_BUSY */
  rvhal_print_state_t print;
  rvhal_launch_report_t last;  /* the last successful launch */
  rvhal_counter_state_t counters;
  struct rvhal_profile *profile; /* NULL unless profiling */
  uint64_t created_ns;           /* host clock when created: profile time zero */
  uint32_t host_cpus;            /* cores this process may run on */
  uint32_t host_spin_ns;         /* $RVHAL_HOST_SPIN_NS: spin before sleeping on a launch (launch.c) */
  pthread_mutex_t lock;          /* one call at a time uses the device (recursive: queues call the API) */
  pthread_mutex_t heap_lock;     /* global memory's allocator and transfer counters: copies need only this, so
                                    they run while a launch holds `lock` (order: lock, then heap_lock) */
  struct rvhal_queue *queues;    /* queues on this device (queue.c) */
  /* The launch being waited for, for rvhal_device_launch_progress (read
   * from another thread: seq is written last / cleared first). */
  struct {
    uint64_t seq; /* 0: none */
    uint64_t start_ns, groups;
    uint32_t harts, trace, team;
  } inflight;
  struct rvhal_progress_thread *progress_thread; /* calls options.progress_fn (observe/progress.c) */
  uint64_t recent_launch_ns;     /* running average of launches' device times: how long to spin (launch.c) */
  uint64_t recent_wake_ns;       /* the same of a doorbell's wake-up: round trip minus device time (launch.c) */
  uint64_t tlb_entries;          /* what the harts' TLBs were grown to (launch.c; 0: not yet) */
  int placed_cpu;                /* host CPU hart 0 was last kept off (launch.c; -1: none) */
  /* Command lists in the firmware region (command_list_encode.c): bytes handed out,
   * and a count bumped whenever they are all thrown away (area full). */
  uint32_t cmdlist_used;
  uint64_t cmdlist_epoch;
};

static inline void rvhal_device_lock(rvhal_device_t *d) { pthread_mutex_lock(&d->lock); }
static inline void rvhal_device_unlock(rvhal_device_t *d) { pthread_mutex_unlock(&d->lock); }

/* First line of every public call on a device: holds the device's lock until
 * the call returns, whichever way it returns (NULL devices pass through to
 * the call's own check). */
static inline rvhal_device_t *rvhal_device_guard_acquire_(const rvhal_device_t *d) {
  if (d) rvhal_device_lock((rvhal_device_t *)d);
  return (rvhal_device_t *)d;
}
static inline void rvhal_device_guard_release_(rvhal_device_t **d) {
  if (*d) rvhal_device_unlock(*d);
}
#define RVHAL_DEVICE_GUARD(d)                                                                \
  rvhal_device_t *rvhal_device_guard_ __attribute__((cleanup(rvhal_device_guard_release_), unused)) = \
      rvhal_device_guard_acquire_(d)
/* A launch in two halves (launch.c): submitted, then completed. Several
 * can be on the device at once, up to the ring's depth (queue.c does);
 * they complete in the order they were submitted. */
typedef struct rvhal_launch {
  uint64_t seq, boot;
  hal_program_t program;
  const char *kname;
  uint64_t t0, total_groups, chunk, global[3], local[3];
  uint32_t harts, team, work_dim;
  int counting;
  int rang; /* the submission rang the doorbell: hart 0 was asleep (launch.c's spin) */
  int debug_counted; /* debug_start holds every hart's mcycle, minstret at submission (a debug link) */
  uint64_t debug_start[RVHAL_MAX_HARTS][2];
  rvhal_launch_times_t times; /* set when it completed (rvhal_launch_wait) */
} rvhal_launch_t;

/* Checks, packs and submits; the device lock must be held until complete.
 * after_ok: the device cancels it if the launch before it failed. */
int rvhal_launch_submit(rvhal_device_t *d, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                        const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                        const rvhal_launch_options_t *opts, int after_ok, rvhal_launch_t *out);
/* Waits for it and reports as kernel_exec does; more: later launches are on
 * the device (their print output waits). */
int rvhal_launch_complete(rvhal_device_t *d, rvhal_launch_t *l, int more);
/* The blocking call (kernel_exec): submit and complete, device lock and
 * the launch hold taken; *out_times (may be NULL) when it ran. */
int rvhal_launch_run(rvhal_device_t *d, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                     const hal_arg_t *args, uint32_t num_args, uint32_t work_dim, const rvhal_launch_options_t *opts,
                     rvhal_launch_times_t *out_times);
/* The launch state (d->busy, d->resident, d->seq, ...) is written by the
 * launch module alone (launch/): these are its entries for the others.
 * hold: 0 if a launch is under way already (a print callback launching). */
int rvhal_launch_hold(rvhal_device_t *d);
void rvhal_launch_release(rvhal_device_t *d);
void rvhal_launch_device_booted(rvhal_device_t *d);           /* a new QEMU: nothing installed, no launches */
void rvhal_launch_program_freed(rvhal_device_t *d, hal_program_t program);
void rvhal_launch_install_unknown(rvhal_device_t *d);         /* whether the program area holds a program is not known */
/* The steps before a slot is written, for command lists too
 * (command_list_encode.c): the program and kernel looked up, the launch
 * checked and planned (launch_plan.h), its buffers found in global memory.
 * Nothing on the device is written. */
typedef struct rvhal_launch_prepared {
  rvhal_launch_plan_t plan;
  hal_program_t program;
  uint64_t entry;        /* the kernel's device address */
  uint64_t buffer_bytes; /* of the allocations its buffer arguments are in */
} rvhal_launch_prepared_t;
int rvhal_launch_prepare(rvhal_device_t *d, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                         const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                         const rvhal_launch_options_t *opts, rvhal_launch_prepared_t *out);
/* Writes a prepared launch into desc and args_buf (at device address
 * args_dev), filling all of out but t0; desc->seq is d->seq + 1, nothing is
 * installed or published. Cannot fail: every check was made. */
void rvhal_launch_encode(rvhal_device_t *d, const rvhal_launch_prepared_t *pr, const hal_arg_t *args,
                         rvhal_launch_desc_t *desc, uint8_t *args_buf, uint64_t args_dev, rvhal_launch_t *out);
/* A kernel's own fail call stopped launch seq on one of harts [first,
 * end): its error (RVHAL_KERNEL_FAILED with the kernel's code, or one of
 * the codes a kernel may report), else RVHAL_OK. status: the completion's
 * (RVHAL_OK: a fail call with code 0 stops the launch, which then
 * completes with RVHAL_OK; else the report must carry that code). */
int rvhal_launch_kernel_report(const rvhal_device_t *d, uint64_t seq, int32_t status, uint32_t first, uint32_t end,
                               const char *kname);
/* The ring's next slot, unless the ring is full (RVHAL_BUSY naming `who`). */
int rvhal_launch_next_slot(rvhal_device_t *d, const char *who, rvhal_launch_slot_t **out_slot);
/* The program's staged copy written again unless it is the one the device
 * will have installed; then (nothing can fail after) its installs put in
 * desc, or none when it is resident, and it is resident from here on. */
int rvhal_launch_stage(rvhal_device_t *d, hal_program_t program);
void rvhal_launch_install(rvhal_device_t *d, hal_program_t program, rvhal_launch_desc_t *desc);
/* Puts ring slot desc (filled in, desc->seq == d->seq + 1) on the device. */
int rvhal_launch_publish(rvhal_device_t *d, const rvhal_launch_desc_t *desc, rvhal_launch_t *out);
/* Waits for launch l; *out_done is its completion record, checked. */
int rvhal_launch_wait(rvhal_device_t *d, rvhal_launch_t *l, int more, rvhal_completion_t *out_done,
                      uint64_t *out_t1);
/* What a checked completion record means for launch l, as kernel_exec reports it. */
int rvhal_launch_outcome(rvhal_device_t *d, const rvhal_launch_t *l, const rvhal_completion_t *checked, uint64_t t1);

/* The same for the memory calls (memory.c): global memory only. */
static inline pthread_mutex_t *rvhal_heap_guard_acquire_(const rvhal_device_t *d) {
  if (!d) return NULL;
  pthread_mutex_lock((pthread_mutex_t *)&d->heap_lock);
  return (pthread_mutex_t *)&d->heap_lock;
}
static inline void rvhal_heap_guard_release_(pthread_mutex_t **m) {
  if (*m) pthread_mutex_unlock(*m);
}
#define RVHAL_HEAP_GUARD(d)                                                                  \
  pthread_mutex_t *rvhal_heap_guard_ __attribute__((cleanup(rvhal_heap_guard_release_), unused)) = \
      rvhal_heap_guard_acquire_(d)

/* memory.c: [addr, addr+size) inside one allocation, or the error mem_<op>
 * gives ("mem_copy: source address ... is not inside any allocation"). */
int rvhal_mem_check(rvhal_device_t *d, const char *op, const char *what, hal_addr_t addr, hal_size_t size);

/* progress.c: the thread that calls options.progress_fn while launches
 * run (started when the device has one; stop is idempotent). */
int rvhal_progress_thread_start(rvhal_device_t *d);
void rvhal_progress_thread_stop(rvhal_device_t *d);

/* queue.c: stops the device's queues, cancelling what has not started. */
void rvhal_queues_device_deleted(rvhal_device_t *d);


/* Host pointer for a device address range known to be inside RAM. */
static inline void *rvhal_dev_ptr(const rvhal_device_t *d, hal_addr_t addr) {
  return d->backend->ram + (addr - d->backend->ram_base);
}

/* Sync points for a non-coherent backend, whose ram is a mirror
 * (backend.h): after the host writes device memory through rvhal_dev_ptr,
 * flush the range; before it reads, invalidate it. Nothing to do, and one
 * test of a NULL pointer, on a backend that maps the device's RAM. */
static inline int rvhal_dev_coherent(const rvhal_device_t *d) { return !d->backend->vtable->flush; }
static inline int rvhal_dev_flush(const rvhal_device_t *d, hal_addr_t addr, uint64_t len) {
  rvhal_backend_t *b = d->backend;
  return b->vtable->flush ? b->vtable->flush(b, addr, len) : RVHAL_OK;
}
static inline int rvhal_dev_invalidate(const rvhal_device_t *d, hal_addr_t addr, uint64_t len) {
  rvhal_backend_t *b = d->backend;
  return b->vtable->invalidate ? b->vtable->invalidate(b, addr, len) : RVHAL_OK;
}
/* The same for a host pointer into ram (a field of the control block). */
static inline hal_addr_t rvhal_dev_addr(const rvhal_device_t *d, const void *p) {
  return d->backend->ram_base + (hal_addr_t)((const uint8_t *)p - d->backend->ram);
}
static inline int rvhal_dev_flush_ptr(const rvhal_device_t *d, const void *p, uint64_t len) {
  return d->backend->vtable->flush ? rvhal_dev_flush(d, rvhal_dev_addr(d, p), len) : RVHAL_OK;
}
static inline int rvhal_dev_invalidate_ptr(const rvhal_device_t *d, const void *p, uint64_t len) {
  return d->backend->vtable->invalidate ? rvhal_dev_invalidate(d, rvhal_dev_addr(d, p), len) : RVHAL_OK;
}

const rvhal_device_kind_t *rvhal_device_kind(uint32_t index);

/* (Re)boot the device process and wait for its firmware. */
int rvhal_device_boot(rvhal_device_t *d);
rvhal_program_obj_t *rvhal_program_get(rvhal_device_t *d, hal_program_t handle);
rvhal_kernel_entry_t *rvhal_kernel_get(rvhal_program_obj_t *p, hal_kernel_t handle);
/* Writes the program's segments into its staged copy (program.c). */
int rvhal_program_stage(rvhal_device_t *d, const rvhal_program_obj_t *p);

static inline uint64_t rvhal_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* counters.c */
void rvhal_counters_init(rvhal_device_t *d);
void rvhal_counters_after_transfer(rvhal_device_t *d, uint64_t written, uint64_t read);

#endif /* RVHAL_HOST_DEVICE_INTERNAL_H */
