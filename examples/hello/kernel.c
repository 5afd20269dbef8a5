/* hello: every work-item prints one line with its ids. The kernel takes no
 * arguments. */
#include "kernel_if.h"

__kernel void hello(exec_state_t *ctx) {
  print(ctx, "hello from work-item %u (group %u, local %u)\n", (uint)get_global_id(0, ctx), (uint)get_group_id(0, ctx),
        (uint)get_local_id(0, ctx));
}

typedef struct {
} hello_args;

static void hello_item(const hello_args *a, exec_state_t *e) {
  (void)a;
  hello(e);
}

RVHAL_KERNEL(hello_entry, hello_args, hello_item)
