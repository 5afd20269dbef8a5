/* A kernel that does nothing: launch overhead, counter baselines. */
#include "kernel_if.h"

typedef struct {
  char unused;
} empty_args;

static void empty_item(const empty_args *a, exec_state_t *e) {
  (void)a;
  (void)e;
}

RVHAL_KERNEL(empty, empty_args, empty_item)
