/* What the firmware hands a kernel beyond the oneAPI Construction Kit HAL's RISC-V kernel ABI: the structure that
 * hal_sched_info_t.hal_extra points to, and the firmware services a kernel
 * (through the SDK) may call. Device-side only: the host never reads these,
 * so they may hold device pointers. */
#ifndef RVHAL_ABI_KERNEL_ABI_H
#define RVHAL_ABI_KERNEL_ABI_H

/* What a compiled kernel depends on beyond the HAL's ABI: the structures
 * below, the services, and the fields of the launch descriptor
 * (rvhal_launch_desc_t, rvhal_protocol.h) the SDK reads through
 * rvhal_call_info_t.launch: the sizes, offsets, flags and local-argument
 * table. Raise it when any of them changes. Every kernel linked with
 * rvhal's kernel.ld records the version it was built for, two words at
 * __rvhal_kernel_abi (RVHAL_KERNEL_ABI_MAGIC, then the version), and
 * program_load refuses a kernel built for another. */
#define RVHAL_KERNEL_ABI_VERSION 2
#define RVHAL_KERNEL_ABI_MAGIC 0x4b564852 /* "RHVK" in memory (no suffix: the linker script takes it) */

#ifndef __ASSEMBLER__ /* (the kernel linker script takes the version) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "rvhal/rvhal_protocol.h"
#include "rvhal/rvhal_status.h"

struct rvhal_call_info;

/* Shared by the harts of one team (the harts that run one work-group
 * together). The leader publishes the group's local memory through it. */
typedef struct rvhal_team {
  void *local_base; /* leader's local memory block for the call */
} rvhal_team_t;

typedef struct rvhal_services {
  uint32_t abi_version; /* RVHAL_KERNEL_ABI_VERSION */
  uint32_t size;        /* sizeof(rvhal_services_t) */
  /* Sleep until every hart of the caller's team has called it. */
  void (*team_barrier)(const struct rvhal_call_info *ci);
  /* Append one print record (whole text) for work-item `item` (global linear
   * id) to this hart's print ring; flags are RVHAL_PRINT_*. */
  void (*print)(const struct rvhal_call_info *ci, uint64_t item, const char *text, uint32_t len, uint32_t flags);
  /* Format like vsnprintf (the firmware's formatter, so kernels need none). */
  int (*vformat)(char *buf, size_t cap, const char *fmt, va_list ap);
  /* Stop the launch with an error (rvhal_status_t) that the host reports;
   * `detail` is a short explanation. Does not return. */
  void (*fail)(const struct rvhal_call_info *ci, int32_t status, const char *detail, uint64_t value)
      __attribute__((noreturn));
} rvhal_services_t;

/* hal_sched_info_t.hal_extra points to one of these, per hart and call. */
typedef struct rvhal_call_info {
  uint32_t abi_version;               /* RVHAL_KERNEL_ABI_VERSION */
  uint32_t hart_index;                /* 0 .. num_harts-1 */
  uint32_t team_rank;                 /* this hart's rank in its team; 0 leads */
  uint32_t team_size;                 /* harts cooperating on each group */
  /* NULL: the kernel runs in U-mode and reaches the firmware through ecall
   * (rvhal_ecall.h); otherwise it runs in the firmware's mode and calls. */
  const rvhal_services_t *services;
  rvhal_team_t *team;                 /* shared by the team */
  const rvhal_launch_desc_t *launch;  /* the launch (local-argument table) */
  uint64_t *counters;                 /* this hart's RVHAL_HART_COUNTER_* block */
  uint64_t local_mem_size;            /* local memory one group may use */
  uintptr_t fiber_pool;               /* this hart's work-item stacks */
  uintptr_t fiber_pool_size;
  uintptr_t fiber_stack_size;         /* bytes per work-item stack */
  /* U-mode: the firmware sets it to 1 once the kernel used the FPU in this
   * launch (its FS state, which U-mode cannot read). */
  volatile uint32_t fp_live;
  uint32_t reserved0;
} rvhal_call_info_t;

#endif /* !__ASSEMBLER__ */
#endif /* RVHAL_ABI_KERNEL_ABI_H */
