/* Helpers for the test kernels (device side only: needs kernel_if.h), used
 * by tests/kernels/ and tests/exec/ (whose kernels.cmake puts tests/kernels
 * on their include path). */
#ifndef RVHAL_TEST_KERNEL_H
#define RVHAL_TEST_KERNEL_H

#include "kernel_if.h"

/* The work-group's linear id: dimension 0 fastest. */
static inline size_t group_linear(exec_state_t *e) {
  return get_group_id(0, e) + get_num_groups(0, e) * (get_group_id(1, e) + get_num_groups(1, e) * get_group_id(2, e));
}

/* The work-item's linear position in the ND-range (global offset
 * subtracted): dimension 0 fastest. */
static inline size_t global_linear(exec_state_t *e) {
  return get_global_id(0, e) - get_global_offset(0, e) +
         get_global_size(0, e) * (get_global_id(1, e) - get_global_offset(1, e) +
                                  get_global_size(1, e) * (get_global_id(2, e) - get_global_offset(2, e)));
}

#endif /* RVHAL_TEST_KERNEL_H */
