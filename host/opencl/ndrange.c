/* clEnqueueNDRangeKernel: the ND-range checked with the spec's codes, a
 * local size chosen when none is given, the launch described once (a
 * launch request: the kernel's arguments copied) and held or handed to the
 * rvhal queue (which packs and checks them again at launch). */
#include <string.h>

#include "icd.h"
#include "mem_coherence.h"
#include "rvhal/rvhal_launch_geometry.h"

const rvhal_launch_options_t rvcl_launch_options = {.non_uniform = 1};

/* With no local size: groups along dimension 0 only, as large as divides
 * the global size while leaving at least one group per hart. */
static void choose_local(const rvhal_device_info_t *in, cl_uint dim, const size_t *global, size_t *local) {
  size_t cap = global[0] / (in->num_harts ? in->num_harts : 1);
  if (cap < 1) cap = 1;
  if (cap > in->max_work_group_size) cap = in->max_work_group_size;
  size_t best = 1;
  for (size_t l = cap; l >= 1; l--)
    if (global[0] % l == 0) {
      best = l;
      break;
    }
  local[0] = best;
  for (cl_uint i = 1; i < dim; i++) local[i] = 1;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                       const size_t *offset, const size_t *global, const size_t *local,
                                                       cl_uint n, const cl_event *list, cl_event *out) {
  static const char *fn = "clEnqueueNDRangeKernel";
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p is not a queue", (void *)q);
  cl_context c = q->context;
  if (!RVCL_VALID(k, RVCL_MAGIC_KERNEL)) return rvcl_fail(c, fn, CL_INVALID_KERNEL, "%p is not a kernel", (void *)k);
  if (k->program->context != c) return rvcl_fail(c, fn, CL_INVALID_CONTEXT, "the kernel belongs to another context");
  if (dim < 1 || dim > 3) return rvcl_fail(c, fn, CL_INVALID_WORK_DIMENSION, "work_dim %u (1, 2 or 3)", dim);
  const rvhal_device_info_t *in = &q->device->info;
  uint64_t limit = in->word_size == 4 ? UINT32_MAX : UINT64_MAX;
  /* OpenCL 2.1 and later: a NULL or zero global size launches nothing. */
  int empty = global == NULL;
  static const size_t zeros[3] = {0, 0, 0};
  if (!global) global = zeros;
  for (cl_uint i = 0; i < dim; i++) {
    if (global[i] == 0) empty = 1;
    if ((uint64_t)global[i] > limit)
      return rvcl_fail(c, fn, CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size[%u]=%zu exceeds the device's %u-bit sizes",
                       i, global[i], in->word_size * 8);
    if (offset && ((uint64_t)offset[i] > limit - global[i]))
      return rvcl_fail(c, fn, CL_INVALID_GLOBAL_OFFSET, "global_work_offset[%u]=%zu + global_work_size[%u]=%zu overflows",
                       i, offset[i], i, global[i]);
  }
  for (uint32_t i = 0; i < k->ki->num_args; i++)
    if (!k->args[i].set) {
      const char *name = k->ki->args[i].name;
      return rvcl_fail(c, fn, CL_INVALID_KERNEL_ARGS, "kernel %s argument %u (%s) has not been set", k->name, i,
                       name ? name : "unnamed");
    }
  size_t loc[3] = {1, 1, 1};
  /* reqd_work_group_size(x, y, z): a given local size must be it, and a NULL
   * one is it (dimensions past work_dim must be 1). */
  const uint32_t *reqd = k->ki->reqd_work_group_size;
  if (reqd[0]) {
    for (cl_uint i = 0; i < 3; i++) {
      size_t want = reqd[i], have = local ? (i < dim ? local[i] : 1) : (i < dim ? want : 1);
      if (have != want)
        return rvcl_fail(c, fn, CL_INVALID_WORK_GROUP_SIZE,
                         "kernel %s has reqd_work_group_size(%u, %u, %u), but the %s local size is %zu in dimension %u",
                         k->name, reqd[0], reqd[1], reqd[2], local ? "given" : "work_dim's", have, i);
    }
    if (!local) {
      for (cl_uint i = 0; i < 3; i++) loc[i] = reqd[i];
      local = loc;
    }
  }
  if (local) {
    uint64_t items = 1;
    for (cl_uint i = 0; i < dim; i++) {
      if (local[i] == 0 || local[i] > in->max_work_group_size)
        return rvcl_fail(c, fn, CL_INVALID_WORK_ITEM_SIZE, "local_work_size[%u]=%zu (CL_DEVICE_MAX_WORK_ITEM_SIZES is %u)",
                         i, local[i], in->max_work_group_size);
      items *= local[i];
      loc[i] = local[i];
    }
    if (items > in->max_work_group_size)
      return rvcl_fail(c, fn, CL_INVALID_WORK_GROUP_SIZE, "%llu work-items per group (the device's maximum is %u)",
                       (unsigned long long)items, in->max_work_group_size);
    /* Non-uniform work-groups (a last, smaller group), unless the program
     * needs uniform ones (icd.h). */
    for (cl_uint i = 0; i < dim && !empty; i++)
      if (global[i] % local[i] && k->program->uniform_wg)
        return rvcl_fail(c, fn, CL_INVALID_WORK_GROUP_SIZE,
                         "global_work_size[%u]=%zu is not a multiple of local_work_size[%u]=%zu, and the program's "
                         "work-groups must be uniform (built with -cl-uniform-work-group-size, or as OpenCL C 1.x: "
                         "build with -cl-std=CL2.0 or CL3.0 for non-uniform work-groups)",
                         i, global[i], i, local[i]);
  } else if (!empty) {
    choose_local(in, dim, global, loc);
  }
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) return werr;
  rvhal_event_t *ev = NULL;
  int st;
  if (empty) {
    st = rvhal_enqueue_marker(q->q, &deps, out ? &ev : NULL);
    return rvcl_enqueue_done(q, fn, CL_COMMAND_NDRANGE_KERNEL, st, ev, CL_FALSE, out);
  }
  hal_ndrange_t nd;
  memset(&nd, 0, sizeof nd);
  for (cl_uint i = 0; i < 3; i++) {
    nd.global[i] = i < dim ? global[i] : 1;
    nd.local[i] = loc[i];
    nd.offset[i] = offset && i < dim ? offset[i] : 0;
  }
  uint32_t na = k->ki->num_args;
  hal_arg_t args[RVHAL_META_MAX_ARGS];
  /* A group's local memory, as the device carves it (each argument's block
   * aligned: rvhal_launch_geometry.h). */
  uint64_t local_total = 0, local_arg = 0;
  int local_fits = 1;
  for (uint32_t i = 0; i < na && i < RVHAL_META_MAX_ARGS; i++) {
    args[i] = k->args[i].arg;
    if (k->ki->args[i].kind == RVHAL_ARG_KIND_LOCAL) {
      local_arg += args[i].size;
      local_fits = local_fits && rvhal_launch_local_add(&local_total, args[i].size, in->local_mem_size);
    }
  }
  if (!local_fits || local_total > in->local_mem_size)
    return rvcl_fail(c, fn, CL_OUT_OF_RESOURCES, "kernel %s: %llu bytes of __local arguments (the device has %llu)",
                     k->name, (unsigned long long)local_arg, (unsigned long long)in->local_mem_size);
  /* Several devices: the kernel of q's device's program, and each buffer's
   * contents current on that device (mem_coherence.c). */
  cl_kernel kd = k;
  if (c->num_devices > 1) {
    if (!(kd = rvcl_kernel_on(k, q->device)))
      return rvcl_fail(c, fn, CL_INVALID_PROGRAM_EXECUTABLE, "kernel %s: its program is not built for device %s",
                       k->name, q->device->info.name);
    for (uint32_t i = 0; i < na && i < RVHAL_META_MAX_ARGS; i++) {
      cl_mem m = k->args[i].mem;
      hal_addr_t a;
      if (!m) continue;
      cl_int e = rvcl_mem_place(fn, q, m, !(m->flags & CL_MEM_READ_ONLY), &a);
      if (e != CL_SUCCESS) return e;
      args[i] = rvhal_arg_global(rvcl_mem_arg_addr(m, rvcl_context_slot(c, q->device), a));
    }
  }
  /* The launch, described once: held, or handed to the rvhal queue. */
  rvhal_launch_request_t *r;
  st = rvhal_launch_request_create(kd->program->hp, kd->hk, &nd, args, na, dim, &rvcl_launch_options, &r);
  if (st == RVHAL_INVALID_ARGUMENT) return rvcl_fail_rvhal(c, fn, CL_INVALID_KERNEL_ARGS, st);
  if (st != RVHAL_OK) return rvcl_fail_rvhal(c, fn, CL_OUT_OF_HOST_MEMORY, st);
  if (!out && n == 0) {
    rvcl_queue_hold_launch(q, k, r);
    rvhal_launch_request_release(r);
    return CL_SUCCESS;
  }
  st = rvhal_enqueue_launch(q->q, &deps, r, out ? &ev : NULL);
  atomic_store(&q->launched, 1);
  rvhal_launch_request_release(r);
  if (st == RVHAL_INVALID_ARGUMENT) return rvcl_fail_rvhal(c, fn, CL_INVALID_KERNEL_ARGS, st);
  return rvcl_enqueue_done(q, fn, CL_COMMAND_NDRANGE_KERNEL, st, ev, CL_FALSE, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *list,
                                              cl_event *out) {
  size_t one = 1;
  return clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, n, list, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK *fn)(void *), void *args,
                                                      size_t cb_args, cl_uint num_mem, const cl_mem *mems,
                                                      const void **locs, cl_uint n, const cl_event *list, cl_event *out) {
  (void)fn, (void)args, (void)cb_args, (void)num_mem, (void)mems, (void)locs, (void)n, (void)list, (void)out;
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, "clEnqueueNativeKernel", CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  return rvcl_fail(q->context, "clEnqueueNativeKernel", CL_INVALID_OPERATION,
                   "rvhal devices run no native kernels (CL_DEVICE_EXECUTION_CAPABILITIES lacks CL_EXEC_NATIVE_KERNEL)");
}
