/* The rvhal HAL in C (the oneAPI Construction Kit HAL's hal_t / hal_device_t): platform and device
 * information, device lifetime, device memory, programs and kernel launches.
 *
 * A device is a set of RISC-V harts in a QEMU process that belongs to the
 * rvhal_device_t: started by rvhal_device_create, stopped by
 * rvhal_device_delete, and never left running after the host program ends.
 * Its RAM is shared with this process, so memory copies are plain copies.
 *
 * Every function returning int returns RVHAL_OK (0) or a negative status,
 * with the reason in rvhal_last_error(). Output parameters come last. */
#ifndef RVHAL_DEVICE_H
#define RVHAL_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "rvhal/hal_sched_info.h"
#include "rvhal/hal_types.h"
#include "rvhal/rvhal_limits.h" /* RVHAL_MAX_HARTS, abi/ */
#include "rvhal/counters.h"
#include "rvhal/status.h"
#include "rvhal/version.h" /* RVHAL_VERSION_MAJOR/MINOR/PATCH, generated */

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* what librvhal exports: host/librvhal.map */

/* The version of this C API. (The oneAPI Construction Kit HAL interface,
 * version 6, is served by the adapter libhal_rvhal.so: ock/.) */
#define RVHAL_API_VERSION 4 /* 4: launch requests */

/* ---- platform ------------------------------------------------------- */

typedef struct rvhal_platform_info {
  const char *name;     /* "rvhal" */
  const char *version;  /* library version, "0.1.0" */
  uint32_t api_version; /* RVHAL_API_VERSION */
  uint32_t num_devices; /* device indices 0 .. num_devices-1 */
} rvhal_platform_info_t;

const rvhal_platform_info_t *rvhal_platform_info(void);
/* Why board descriptors found beside the firmware were left out of the
 * devices (one message per descriptor, "; "-separated), or "". */
const char *rvhal_platform_skipped(void);

/* ---- device information ------------------------------------------------ */

typedef enum rvhal_timing_mode {
  RVHAL_TIMING_DEFAULT = 0, /* fast, unless counters are requested (then exact) */
  RVHAL_TIMING_FAST = 1,    /* harts run in parallel; cycle/instruction counts approximate */
  RVHAL_TIMING_EXACT = 2,   /* QEMU -icount: counts exact and repeatable, harts take turns */
} rvhal_timing_mode_t;

typedef struct rvhal_device_info {
  const char *name;               /* "qemu-virt-rv64" */
  const char *board;              /* "qemu-virt" */
  const char *isa;                /* "rv64imafdc" */
  uint32_t word_size;             /* bytes in a device pointer: 4 or 8 */
  uint32_t num_harts;
  uint64_t ram_size;              /* all guest RAM */
  uint64_t global_mem_size;       /* memory mem_alloc manages */
  uint64_t local_mem_size;        /* local memory one work-group may use */
  uint64_t program_area_base;     /* where kernels are linked */
  uint64_t program_area_size;
  uint32_t max_work_group_size;   /* work-items per group */
  uint32_t max_args_size;         /* bytes of packed arguments */
  uint64_t timebase_hz;           /* device timer frequency */
  rvhal_timing_mode_t timing;     /* of a created device; DEFAULT in the catalogue */
  uint32_t max_harts;             /* harts the board can give a device */
  uint64_t fault_addr;            /* an address whose loads and stores fault on this board */
  const char *firmware_mode;      /* "M" (the firmware owns the machine) or "S" (under SBI) */
  uint32_t vlen;                  /* bits in a vector register (RVV, "v" in isa); 0: the harts have no vector unit */
  const char *kernel_abi;         /* the ABI its kernels are built for, from isa: "lp64d", "lp64" (no F/D: soft-float),
                                     "ilp32d", "ilp32"; a kernel of another float ABI is refused (docs/kernels.md) */
  uint64_t program_store_size;    /* device memory that keeps the loaded programs' copies (RAM/16, at least 1 MiB):
                                     program_load fails with RVHAL_NO_MEMORY when they would exceed it */
  uint64_t link_bytes_per_s;      /* of a created device reached through a debug link (the gdb backend): the
                                     link's rate measured by memory reads and writes as it started (bytes
                                     over the wire; a read's hex reply is twice its data). 0: no link (the
                                     host maps device memory) or in the catalogue. Tests size their buffers
                                     by it. */
} rvhal_device_info_t;

/* The name of the kernel set a device with this kernel ABI runs
 * (rvhal_device_info_t.kernel_abi): "rv64" and "rv32" for the hard-float
 * ABIs (lp64d, ilp32d), "rv64-lp64" and "rv32-ilp32" for soft-float; a
 * build tree keeps each in device-<set>/ (kernels/ in it), an install in
 * lib/rvhal/<set>/. NULL for an ABI with no set. */
const char *rvhal_kernel_set_name(const char *kernel_abi);

/* The index of the device called `name` ("qemu-virt-rv64", as rvhal_device_info_t.name and `rvhal info` say), or
 * of the only device of board `name` ("shakti-c"); also a decimal index. Names do not move when boards are
 * added; indices follow the build's list. RVHAL_NOT_FOUND names the devices there are. */
int rvhal_platform_find_device(const char *name, uint32_t *out_index);

/* Information about device `index` with default options. */
int rvhal_platform_device_info(uint32_t index, const rvhal_device_info_t **out_info);
/* Information about device `index` as rvhal_device_create would make it with `options` (NULL: defaults; zero
 * fields from the environment as there): harts, RAM, global and local memory, work-group size, timing. Nothing
 * is started. A vector device (vlen) keeps the catalogue's isa string here. */
struct rvhal_device_options;
int rvhal_platform_device_info_for(uint32_t index, const struct rvhal_device_options *options,
                                   rvhal_device_info_t *out_info);

/* Where the library reads device firmware and board descriptors for xlen
 * (32 or 64) from: $RVHAL_FIRMWARE_DIR if set (directories separated by
 * ':', scanned for every xlen); else share/rvhal/firmware/rvXLEN of the
 * install this library belongs to, found from where the library itself is
 * (an install tree moved elsewhere still works); else the build tree.
 * NULL for another xlen. A program linked statically with librvhal.a and
 * installed outside rvhal's prefix sets $RVHAL_FIRMWARE_DIR. */
const char *rvhal_firmware_dir(uint32_t xlen);
/* rvhal's QEMU plugin (exact instruction counts), found the same way
 * ($RVHAL_QEMU_PLUGIN, the install, the build tree); NULL if none. */
const char *rvhal_qemu_plugin_path(void);

/* ---- device lifetime -------------------------------------------------- */

typedef struct rvhal_device rvhal_device_t;

/* Receives kernel print() output, one whole line at a time (without the
 * newline), in the order the print() calls were made. */
typedef void (*rvhal_print_fn_t)(void *user, const char *line, size_t len);

/* Receives a running launch's progress (see rvhal_launch_progress_t)
 * every progress_interval_ms, from a thread of rvhal's own: a heartbeat
 * without polling. It must return quickly and call no rvhal function on
 * the device except rvhal_device_launch_progress. */
struct rvhal_launch_progress;
typedef void (*rvhal_progress_fn_t)(void *user, const struct rvhal_launch_progress *progress);

typedef struct rvhal_device_options {
  uint32_t num_harts;          /* 0: $RVHAL_HARTS or 4 */
  uint64_t ram_size;           /* all guest RAM, whole MiB, at most the board's maximum (2 GiB on qemu-virt; the
                                  host's memory is touched only where the device writes); 0: $RVHAL_RAM_MIB MiB or
                                  the board's default, 256 MiB */
  uint64_t local_mem_size;     /* per work-group; 0: 64 KiB */
  uint32_t max_work_group_size;/* 0: 1024 */
  uint64_t item_stack_size;    /* stack of each work-item that waits at a barrier; 0: 4 KiB */
  rvhal_timing_mode_t timing;  /* DEFAULT: $RVHAL_TIMING ("fast"/"exact") or fast */
  const char *qemu_path;       /* NULL: $RVHAL_QEMU or qemu-system-riscv64/32 on PATH */
  const char *firmware_path;   /* NULL: the image beside the device's board descriptor (rvhal_firmware_dir) */
  uint32_t launch_timeout_ms;  /* 0: $RVHAL_LAUNCH_TIMEOUT_MS or 60000; time the device's QEMU waits
                                  for a CPU on a loaded host does not count (up to 5 timeouts in all) */
  uint32_t linger_us;          /* hart 0 watches for the next launch this long; 0: 500; RVHAL_LINGER_OFF: never */
  rvhal_print_fn_t print_fn;   /* NULL: kernel output goes to stdout */
  void *print_user;
  int counters;                /* record per-hart counters (rvhal/counters.h); 0: $RVHAL_COUNTERS */
  const char *profile;         /* profile every launch: "table", "csv=FILE", "trace=FILE" (Chrome
                                  trace JSON), "svg=FILE", comma-separated; NULL: $RVHAL_PROFILE.
                                  Implies counters. docs/counters.md */
  rvhal_progress_fn_t progress_fn; /* NULL: none. Called while a launch runs, first once it has run
                                  progress_interval_ms, then every progress_interval_ms; turns on the
                                  launches' timeline when counters are on (fraction_done) */
  void *progress_user;
  uint32_t progress_interval_ms; /* 0: 1000 */
  uint32_t tlb_care_off;       /* for measuring only: RVHAL_TLB_NO_COLOURING and/or RVHAL_TLB_NO_FLUSH turn off
                                  what keeps QEMU's software TLB effective (docs/architecture.md, "Emulation
                                  speed"); 0: $RVHAL_TLB_CARE_OFF ("colouring", "flush" or "colouring,flush") */
  uint32_t vlen;               /* vector harts: the V extension with this VLEN in bits, a power of two from 128
                                  to 1024 (QEMU -cpu rvXX,v=true,vlen=N); 0: $RVHAL_VLEN, else none */
  const char *gdb_remote;      /* a GDB stub rvhal does not start, "host:port" or "unix:PATH" (a QEMU's -gdb,
                                  OpenOCD's gdb_port), or a comma-separated list of them (the first that no
                                  other device of the process holds): the device is reached through it (the GDB-remote
                                  backend, docs/porting.md); NULL: $RVHAL_GDB_REMOTE, or $RVHAL_GDB_SPAWN (a
                                  command speaking the protocol on stdin/stdout), or QEMU as usual */
} rvhal_device_options_t;

#define RVHAL_LINGER_OFF UINT32_MAX
/* rvhal_device_options_t.tlb_care_off */
#define RVHAL_TLB_NO_COLOURING 0x1u /* big buffers back to back, as they come (they may share TLB entries) */
#define RVHAL_TLB_NO_FLUSH 0x2u     /* no TLB flushes at launch start, which let QEMU grow its TLB past 256 pages
                                       when a launch's buffers need it */

/* Starts device `index` (see rvhal_platform_info) with `options` (NULL for
 * defaults) and waits until its firmware is ready. */
int rvhal_device_create(uint32_t index, const rvhal_device_options_t *options, rvhal_device_t **out_device);
/* Stops the device's QEMU process and frees everything. NULL is ignored.
 * (A program that created two devices with the same options also has one
 * paused QEMU kept ready for the next create; it uses no CPU and dies with
 * the program: qemu/README.md, RVHAL_NO_WARM_QEMU.) */
void rvhal_device_delete(rvhal_device_t *device);
const rvhal_device_info_t *rvhal_device_get_info(const rvhal_device_t *device);
/* Where kernel print() lines go from now on (NULL: stdout), and where they
 * go now (to put it back after a temporary change). */
void rvhal_device_set_print_fn(rvhal_device_t *device, rvhal_print_fn_t fn, void *user);
void rvhal_device_get_print_fn(const rvhal_device_t *device, rvhal_print_fn_t *out_fn, void **out_user);
/* The host process that runs the device's harts (QEMU), for measuring what
 * it costs the host (bench/, tests/device/idle.c). It changes when the
 * device is restarted. RVHAL_NOT_FOUND if there is none. */
int rvhal_device_host_pid(const rvhal_device_t *device, long *out_pid);

/* ---- device memory ------------------------------------------------------ */

/* alignment: a power of two, or 0 for 64. */
int rvhal_mem_alloc(rvhal_device_t *device, hal_size_t size, hal_size_t alignment, hal_addr_t *out_addr);
/* Frees an allocation made by rvhal_mem_alloc; hal_nullptr (0) is ignored. */
int rvhal_mem_free(rvhal_device_t *device, hal_addr_t addr);
/* Copies must stay inside one allocation. */
int rvhal_mem_write(rvhal_device_t *device, hal_addr_t dst, const void *src, hal_size_t size);
int rvhal_mem_read(rvhal_device_t *device, void *dst, hal_addr_t src, hal_size_t size);
int rvhal_mem_copy(rvhal_device_t *device, hal_addr_t dst, hal_addr_t src, hal_size_t size);
/* The longest pattern mem_fill, its queue and command-buffer forms take. */
#define RVHAL_FILL_PATTERN_MAX 128
/* Repeats the pattern (1..RVHAL_FILL_PATTERN_MAX bytes, dividing size) over
 * [dst, dst+size). */
int rvhal_mem_fill(rvhal_device_t *device, hal_addr_t dst, const void *pattern, hal_size_t pattern_size,
                   hal_size_t size);
/* Host view of [addr, addr+size) inside one allocation: writes through it
 * are seen by the next launch (zero copy). RVHAL_UNSUPPORTED on a device
 * the host cannot map (the GDB-remote backend, RVHAL_BACKEND=gdb). */
int rvhal_mem_map(rvhal_device_t *device, hal_addr_t addr, hal_size_t size, void **out_ptr);

/* ---- programs and kernels ------------------------------------------------ */

/* Validates a kernel ELF (RISC-V, the device's word size, segments inside
 * the program area) and keeps it; it is placed on the device when a launch
 * needs it. Its segments' bytes are kept in the device's program store
 * (rvhal_device_info_t.program_store_size) until rvhal_program_free:
 * RVHAL_NO_MEMORY, naming the store and what the loaded programs hold, when
 * they would not fit. */
int rvhal_program_load(rvhal_device_t *device, const void *elf, hal_size_t size, hal_program_t *out_program);
int rvhal_program_load_file(rvhal_device_t *device, const char *path, hal_program_t *out_program);
int rvhal_program_find_kernel(rvhal_device_t *device, hal_program_t program, const char *name,
                              hal_kernel_t *out_kernel);
int rvhal_program_free(rvhal_device_t *device, hal_program_t program);

/* How a launch uses the harts. Zero fields mean "choose". */
typedef struct rvhal_launch_options {
  uint32_t harts;           /* harts taking part (0: as many as useful) */
  uint32_t harts_per_group; /* harts cooperating on one work-group (0: fastest correct choice) */
  uint64_t chunk_groups;    /* work-groups a hart claims at once (0: balanced) */
  int counters_off;         /* 1: record no counters for this launch (on a device with counters) */
  const uint8_t *arg_types; /* NULL, or per argument the RVHAL_TYPE_* (rvhal/rvhal_kernel_meta.h) of the
                               value passed, 0 for "not said": a float given for an integer parameter, or
                               an integer for a float one, is refused (hal_arg_t carries sizes only) */
  int privileged;           /* 1: run the kernel in the firmware's mode, not isolated in U-mode: only for
                               trusted kernels (the tests that play a lying device use it) */
  int non_uniform;          /* 1: a global size that is not a multiple of the local size is allowed: the last
                               group along that dimension has the remainder of work-items (OpenCL 2.0
                               non-uniform work-groups; docs/execution-model.md); 0: such a launch is refused */
  uint32_t timeout_ms;      /* this launch's timeout, counted as the device's is (time QEMU waits for a CPU
                               does not count); 0: the device's (rvhal_device_options_t.launch_timeout_ms).
                               A command buffer runs as one launch, under the device's */
} rvhal_launch_options_t;

/* Runs `kernel` over the ND-range and returns when it has finished.
 * Arguments are packed as the kernel ABI says (docs/abi.md). */
int rvhal_kernel_exec(rvhal_device_t *device, hal_program_t program, hal_kernel_t kernel,
                      const hal_ndrange_t *ndrange, const hal_arg_t *args, uint32_t num_args, uint32_t work_dim);
int rvhal_kernel_exec_ex(rvhal_device_t *device, hal_program_t program, hal_kernel_t kernel,
                         const hal_ndrange_t *ndrange, const hal_arg_t *args, uint32_t num_args,
                         uint32_t work_dim, const rvhal_launch_options_t *options);

/* One launch, described once: program, kernel, ND-range, arguments (the
 * POD values they point to are copied in) and options (options->arg_types
 * too). Immutable and reference-counted: a queue's command, a command
 * buffer's recorded launch and the caller hold the same request, which is
 * freed with its last reference (created with one, the caller's). The
 * launch itself is checked when it runs, as rvhal_kernel_exec_ex checks. */
typedef struct rvhal_launch_request rvhal_launch_request_t;
int rvhal_launch_request_create(hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *ndrange,
                                const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                                const rvhal_launch_options_t *options, rvhal_launch_request_t **out_request);
void rvhal_launch_request_retain(const rvhal_launch_request_t *request);
void rvhal_launch_request_release(const rvhal_launch_request_t *request);
/* Runs a request on a device and returns when it has finished (as
 * rvhal_kernel_exec_ex). */
int rvhal_launch_exec(rvhal_device_t *device, const rvhal_launch_request_t *request);

/* What the last successful launch on a device did. */
typedef struct rvhal_launch_report {
  uint64_t seq;                          /* launch number on this device */
  uint64_t num_groups;                   /* work-groups in the ND-range */
  uint64_t chunk_groups;                 /* groups a hart claimed at once */
  uint32_t harts;                        /* harts that took part */
  uint32_t harts_per_group;
  uint64_t device_ns;                    /* first hart start to last hart end, device clock */
  uint64_t host_ns;                      /* kernel_exec call, host clock */
  uint64_t groups_per_hart[RVHAL_MAX_HARTS];
} rvhal_launch_report_t;

int rvhal_device_last_launch(const rvhal_device_t *device, rvhal_launch_report_t *out_report);

/* How far the launch now running on a device is: for a heartbeat on long
 * launches (or have it called: rvhal_device_options_t.progress_fn). May be called from another thread while rvhal_kernel_exec
 * waits (it only reads). Per hart: groups begun when the launch records a
 * timeline (a profile with trace= or svg=), instructions when counters are
 * on with rvhal's QEMU plugin. */
typedef struct rvhal_launch_progress {
  uint64_t seq;        /* the launch (0: none running) */
  uint64_t elapsed_ns; /* since it was submitted, host clock */
  uint64_t num_groups; /* work-groups in its ND-range */
  uint32_t harts;      /* harts taking part */
  int have_groups;     /* groups_begun is filled in */
  int have_instructions;
  uint64_t groups_begun[RVHAL_MAX_HARTS];
  uint64_t instructions[RVHAL_MAX_HARTS];
  uint64_t groups_done;   /* work-groups finished, when have_groups */
  double fraction_done;   /* groups_done / num_groups in [0, 1] when have_groups; else -1 */
} rvhal_launch_progress_t;

int rvhal_device_launch_progress(const rvhal_device_t *device, rvhal_launch_progress_t *out_progress);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif /* RVHAL_DEVICE_H */
