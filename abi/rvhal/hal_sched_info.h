/* The schedule structure passed as the second argument of every kernel:
 *
 *     void kernel(void *args, const hal_sched_info_??_t *sched);
 *
 * Fields and order exactly as the oneAPI Construction Kit HAL's RISC-V kernel ABI
 * "Schedule Structure". Note the 64-bit
 * variant keeps local_size[3] and num_dim as uint32_t between uint64_t arrays;
 * the layout is the documented one, pinned below and in docs/abi.md. */
#ifndef RVHAL_ABI_HAL_SCHED_INFO_H
#define RVHAL_ABI_HAL_SCHED_INFO_H

#include "rvhal/rvhal_static_assert.h"
#include <stddef.h>
#include <stdint.h>

typedef struct hal_sched_info_32_t {
  uint32_t group_id_start[3];      /* first group of this call, per dimension */
  uint32_t num_groups_total[3];    /* groups in the whole ND-range */
  uint32_t global_offset[3];       /* global offset of the ND-range */
  uint32_t local_size[3];          /* work-items per group */
  uint32_t num_dim;                /* 1, 2 or 3 */
  uint32_t num_groups_per_call[3]; /* groups this call runs, per dimension */
  uint32_t hal_extra;              /* device pointer to rvhal_call_info_t */
} hal_sched_info_32_t;

typedef struct hal_sched_info_64_t {
  uint64_t group_id_start[3];
  uint64_t num_groups_total[3];
  uint64_t global_offset[3];
  uint32_t local_size[3];
  uint32_t num_dim;
  uint64_t num_groups_per_call[3];
  uint64_t hal_extra;
} hal_sched_info_64_t;

#define HAL_SCHED32_GROUP_ID_START 0
#define HAL_SCHED32_NUM_GROUPS_TOTAL 12
#define HAL_SCHED32_GLOBAL_OFFSET 24
#define HAL_SCHED32_LOCAL_SIZE 36
#define HAL_SCHED32_NUM_DIM 48
#define HAL_SCHED32_NUM_GROUPS_PER_CALL 52
#define HAL_SCHED32_HAL_EXTRA 64
#define HAL_SCHED32_SIZE 68

#define HAL_SCHED64_GROUP_ID_START 0
#define HAL_SCHED64_NUM_GROUPS_TOTAL 24
#define HAL_SCHED64_GLOBAL_OFFSET 48
#define HAL_SCHED64_LOCAL_SIZE 72
#define HAL_SCHED64_NUM_DIM 84
#define HAL_SCHED64_NUM_GROUPS_PER_CALL 88
#define HAL_SCHED64_HAL_EXTRA 112
#define HAL_SCHED64_SIZE 120

RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_32_t, group_id_start) == HAL_SCHED32_GROUP_ID_START, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_32_t, num_groups_total) == HAL_SCHED32_NUM_GROUPS_TOTAL, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_32_t, global_offset) == HAL_SCHED32_GLOBAL_OFFSET, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_32_t, local_size) == HAL_SCHED32_LOCAL_SIZE, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_32_t, num_dim) == HAL_SCHED32_NUM_DIM, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_32_t, num_groups_per_call) == HAL_SCHED32_NUM_GROUPS_PER_CALL, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_32_t, hal_extra) == HAL_SCHED32_HAL_EXTRA, "abi");
RVHAL_STATIC_ASSERT(sizeof(hal_sched_info_32_t) == HAL_SCHED32_SIZE, "abi");

RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_64_t, group_id_start) == HAL_SCHED64_GROUP_ID_START, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_64_t, num_groups_total) == HAL_SCHED64_NUM_GROUPS_TOTAL, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_64_t, global_offset) == HAL_SCHED64_GLOBAL_OFFSET, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_64_t, local_size) == HAL_SCHED64_LOCAL_SIZE, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_64_t, num_dim) == HAL_SCHED64_NUM_DIM, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_64_t, num_groups_per_call) == HAL_SCHED64_NUM_GROUPS_PER_CALL, "abi");
RVHAL_STATIC_ASSERT(offsetof(hal_sched_info_64_t, hal_extra) == HAL_SCHED64_HAL_EXTRA, "abi");
RVHAL_STATIC_ASSERT(sizeof(hal_sched_info_64_t) == HAL_SCHED64_SIZE, "abi");

/* On the device, the variant matching XLEN. */
#if defined(__riscv_xlen)
#if __riscv_xlen == 64
typedef hal_sched_info_64_t hal_sched_info_t;
#else
typedef hal_sched_info_32_t hal_sched_info_t;
#endif
/* The kernel entry point type of the ABI. */
typedef void (*hal_kernel_entry_t)(void *args, const hal_sched_info_t *sched);
#endif

#endif /* RVHAL_ABI_HAL_SCHED_INFO_H */
