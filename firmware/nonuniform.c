/* A non-uniform launch's geometry (fw_claim.h), once per launch: which
 * groups have the enqueued size, and the sizes and shifted offsets of the
 * last group along each dimension. */
#include "fw_launch.h"
#include "rvhal/rvhal_launch_geometry.h"

void fw_nonuniform_setup(fw_nonuniform_t *nu, const rvhal_launch_desc_t *d) {
  for (int i = 0; i < 3; i++) {
    const uintptr_t local = d->local_size[i], last = d->last_local_size[i]; /* checked: 1 <= last <= local */
    nu->local[i] = local;
    nu->last[i] = last;
    nu->offset[i] = (uintptr_t)d->global_offset[i];
    /* group_id * last + last_offset == group_id * local + offset, for the
     * last group (id num_groups - 1); modulo 2^XLEN, as the SDK adds */
    nu->last_offset[i] = (uintptr_t)rvhal_launch_last_offset(d->global_offset[i], d->num_groups[i], local, last);
  }
  nu->full_x = (uintptr_t)rvhal_launch_full_groups(d->num_groups[0], nu->local[0], nu->last[0]);
  nu->ngy = (uintptr_t)d->num_groups[1];
  nu->ngz = (uintptr_t)d->num_groups[2];
}
