/* Vector state across barrier(): tests/kernels/rvv_barrier.c keeps a vector
 * accumulator live around barrier() while the other work-items of its group
 * run on the same hart (each with a vl of its own) and use the vector unit,
 * then finishes and adds what its neighbour published before the barrier.
 * Every result is checked on the host, so a vector register, vl or vtype
 * that another item changed at the switch, or an item passing the barrier
 * early, shows as a wrong sum. This is the proof of the argument in
 * docs/architecture.md ("Vector state at barriers"): the RVV psABI makes all
 * vector state caller-saved across the call to barrier(), so the switch
 * saves none. Runs on a vector board at its own VLEN (qemu-virt-rvv), else
 * on qemu-virt at every VLEN from 128 to 1024 (device option vlen). */
#include "dev_util.h"

#define PER_ITEM 101u /* odd, and not a whole number of strips for any item's vl */

static void run(rvhal_device_t *d) {
  const rvhal_device_info_t *di = rvhal_device_get_info(d);
  const uint32_t local = di->max_work_group_size < 8 ? di->max_work_group_size : 8;
  const uint32_t groups = 2 * di->num_harts + 1, items = groups * local, n = items * PER_ITEM;
  uint32_t *in = malloc(n * sizeof *in), *out = malloc(items * sizeof *out);
  CHECK(in && out);
  for (uint32_t i = 0; i < n; i++) in[i] = i * 2654435761u ^ (i >> 3);
  hal_program_t p = fixture_program(d, "rvv_barrier");
  hal_addr_t din = dt_buffer(d, n * sizeof *in, in), dout = dt_buffer(d, items * sizeof *out, NULL);
  uint32_t per = PER_ITEM;
  hal_arg_t args[4] = {rvhal_arg_global(din), rvhal_arg_global(dout), rvhal_arg_local(local * sizeof(uint32_t)),
                       rvhal_arg_value(&per, 4)};
  hal_ndrange_t nd = {.global = {items}, .local = {local}};
  CHECK_OK(rvhal_kernel_exec(d, p, fixture_kernel(d, p, "rvv_barrier_entry"), &nd, args, 4, 1));
  CHECK_OK(rvhal_mem_read(d, out, dout, items * sizeof *out));
  uint32_t bad = 0;
  for (uint32_t g = 0; g < items; g++) {
    const uint32_t nb = g - g % local + (g % local + 1) % local; /* the neighbour in its group */
    uint32_t want = 0;
    for (uint32_t i = 0; i < PER_ITEM; i++) want += in[g * PER_ITEM + i];
    for (uint32_t i = 0; i < PER_ITEM / 2; i++) want += in[nb * PER_ITEM + i];
    if (out[g] != want && bad++ < 4)
      fprintf(stderr, "VLEN %u, %s: item %u: %u, expected %u\n", di->vlen, di->isa, g, out[g], want);
  }
  CHECK_MSG(bad == 0, "VLEN %u: rvv_barrier: %u of %u items wrong", di->vlen, bad, items);
  if (!bad)
    printf("  %s, VLEN %4u, %u harts: %u groups of %u items, vector accumulators live across barrier(): right\n",
           di->name, di->vlen, di->num_harts, groups, local);
  CHECK_OK(rvhal_program_free(d, p));
  free(in);
  free(out);
}

int main(void) {
  if (fixture_device_info()->vlen) { /* a vector board: its own VLEN */
    rvhal_device_t *d = fixture_device(2);
    run(d);
    rvhal_device_delete(d);
    return check_result("vector_barrier");
  }
  static const uint32_t vlens[] = {128, 256, 512, 1024};
  for (size_t i = 0; i < sizeof vlens / sizeof *vlens; i++) {
    rvhal_device_options_t o = {.vlen = vlens[i]};
    rvhal_device_t *d = fixture_device_opts(2, &o);
    run(d);
    rvhal_device_delete(d);
  }
  return check_result("vector_barrier");
}
