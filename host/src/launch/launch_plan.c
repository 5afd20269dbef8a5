/* Check and plan (launch_plan.h): pure functions of the request, the
 * device's limits and the kernel's metadata. */
#include <stdio.h>
#include <string.h>

#include "launch/launch_plan.h"
#include "program/program.h"
#include "rvhal/rvhal_launch_geometry.h"
#include "rvhal/rvhal_launch_rules.h"

static const char *arg_kind_name(uint32_t kind) {
  switch (kind) {
  case RVHAL_ARG_KIND_GLOBAL: return "a global buffer";
  case RVHAL_ARG_KIND_LOCAL: return "a local buffer";
  case RVHAL_ARG_KIND_VALUE: return "a POD value";
  }
  return "an unknown kind";
}

static uint32_t arg_kind_of(const hal_arg_t *a) {
  if (a->kind == hal_arg_value) return RVHAL_ARG_KIND_VALUE;
  return a->space == hal_space_local ? RVHAL_ARG_KIND_LOCAL : RVHAL_ARG_KIND_GLOBAL;
}

/* "argument 2 'alpha' (float)" when the kernel recorded its parameters. */
static const char *describe_arg(const rvhal_kernel_entry_t *k, uint32_t i, char *buf, size_t cap) {
  const char *t = k->arg_text;
  for (uint32_t j = 0; t && j < i; j++) t += strlen(t) + 1, t += strlen(t) + 1;
  if (t) snprintf(buf, cap, "argument %u '%s' (%s)", i, t + strlen(t) + 1, t);
  else snprintf(buf, cap, "argument %u", i);
  return buf;
}

/* A value of type `given` for a parameter declared `want`: integers for
 * integers (sizes are checked apart), the same float for floats. */
static int types_clash(uint32_t want, uint32_t given) {
  if (!want || !given || want == RVHAL_TYPE_POD || given == RVHAL_TYPE_POD) return 0;
  if (rvhal_type_is_int(want) && rvhal_type_is_int(given)) return 0;
  return want != given;
}

/* The launch's arguments against what the kernel declared: count, kinds,
 * sizes, and where its argument struct keeps each one. */
static int check_against_meta(const char *kname, const rvhal_kernel_entry_t *k, const hal_arg_t *args,
                              uint32_t num_args, uint32_t word_size, const rvhal_arg_layout_t *layout, uint32_t total,
                              const uint8_t *types) {
  const rvhal_kernel_meta_t *m = &k->meta;
  if (num_args != m->num_args)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s takes %u arguments, %u given", kname, m->num_args, num_args);
  for (uint32_t i = 0; i < num_args; i++) {
    uint32_t want = RVHAL_ARG_DESC_KIND(m->args[i].desc), got = arg_kind_of(&args[i]);
    uint32_t member = RVHAL_ARG_DESC_SIZE(m->args[i].desc);
    if (want != got)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: argument %u must be %s, got %s", kname, i,
                         arg_kind_name(want), arg_kind_name(got));
    uint32_t declared = RVHAL_ARG_DESC_TYPE(m->args[i].desc);
    if (want == RVHAL_ARG_KIND_VALUE && types && types_clash(declared, types[i])) {
      char what[160];
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %s is declared %s, given a %s value", kname,
                         describe_arg(k, i, what, sizeof what), rvhal_type_name(declared), rvhal_type_name(types[i]));
    }
    if (want == RVHAL_ARG_KIND_VALUE && member != args[i].size)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: argument %u is a POD value of %u bytes, got %llu bytes",
                         kname, i, member, (unsigned long long)args[i].size);
    if (want != RVHAL_ARG_KIND_VALUE && member != word_size)
      return rvhal_error(RVHAL_INVALID_ARGUMENT,
                         "kernel %s: argument %u (%s) is packed as a %u-byte device word but its struct member is %u "
                         "bytes; declare it %s",
                         kname, i, arg_kind_name(want), word_size, member,
                         want == RVHAL_ARG_KIND_LOCAL ? "uintptr_t" : "a pointer");
    if (m->args[i].offset != layout[i].offset)
      return rvhal_error(RVHAL_INVALID_ARGUMENT,
                         "kernel %s: argument %u is at offset %u of the pack (aligned to %u) but at offset %u of the "
                         "kernel's argument struct; declare that member with RVHAL_PACKED_ARG (docs/abi.md)",
                         kname, i, layout[i].offset, layout[i].align, m->args[i].offset);
  }
  if (num_args && m->args_size < total)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: its argument struct is %u bytes, the pack %u", kname,
                       m->args_size, total);
  return RVHAL_OK;
}

int rvhal_launch_plan(const rvhal_launch_limits_t *lim, const rvhal_kernel_entry_t *kobj, uint64_t tls_size,
                      const rvhal_launch_request_t *r, int counting, int tracing, rvhal_launch_plan_t *out) {
  const char *kname = kobj->name;
  const hal_ndrange_t *nd = &r->ndrange;
  const hal_arg_t *args = r->args;
  const uint32_t num_args = r->num_args, work_dim = r->work_dim;
  const rvhal_launch_options_t *opts = r->options;
  memset(out, 0, sizeof *out);
  out->kname = kname;
  out->work_dim = work_dim;

  /* The ND-range: dimensions past work_dim are 1 group of 1 item. */
  if (!rvhal_launch_work_dim_ok(work_dim))
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: work_dim %u is not 1, 2 or 3", kname, work_dim);
  uint64_t *global = out->global, *local = out->local, *offset = out->offset, *groups = out->groups;
  const int non_uniform = opts && opts->non_uniform;
  uint64_t word_max = lim->word_size == 4 ? UINT32_MAX : UINT64_MAX;
  for (uint32_t i = 0; i < 3; i++) {
    global[i] = i < work_dim ? nd->global[i] : 1;
    local[i] = i < work_dim ? nd->local[i] : 1;
    offset[i] = i < work_dim ? nd->offset[i] : 0;
    if (global[i] == 0) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange global[%u] is 0", kname, i);
    if (local[i] == 0) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange local[%u] is 0", kname, i);
    if (global[i] % local[i] && !non_uniform)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange global[%u]=%llu is not a multiple of local[%u]=%llu "
                         "(rvhal_launch_options_t.non_uniform allows a last, smaller group)",
                         kname, i, (unsigned long long)global[i], i, (unsigned long long)local[i]);
    if (global[i] > word_max || offset[i] > word_max - global[i])
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange offset[%u]+global[%u] exceeds the %u-bit device",
                         kname, i, i, lim->word_size * 8);
    /* Non-uniform: the last group has the remainder (global < local: one
     * group of global items). */
    groups[i] = rvhal_launch_groups(global[i], local[i]);
    out->last[i] = rvhal_launch_last_size(global[i], local[i], groups[i]);
    if (out->last[i] != local[i]) out->flags |= RVHAL_LAUNCH_NON_UNIFORM;
  }
  /* Products and sums of caller-given sizes are checked: one that wraps
   * would pass every later check (a work-group count of 0, a local-memory
   * total smaller than one buffer). */
  uint64_t items = rvhal_launch_group_items_checked(local), total_groups;
  if (!items) items = UINT64_MAX; /* (each local size is at least 1) */
  if (__builtin_mul_overflow(groups[0], groups[1], &total_groups) ||
      __builtin_mul_overflow(total_groups, groups[2], &total_groups) || total_groups > word_max)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: ndrange of %llux%llux%llu work-groups: more than the %u-bit "
                       "device can count (%llu)", kname, (unsigned long long)groups[0], (unsigned long long)groups[1],
                       (unsigned long long)groups[2], lim->word_size * 8, (unsigned long long)word_max);
  if (local[0] > lim->max_work_group_size || local[1] > lim->max_work_group_size ||
      local[2] > lim->max_work_group_size || items > lim->max_work_group_size)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: work-group of %llux%llux%llu items exceeds the device's %u",
                       kname, (unsigned long long)local[0], (unsigned long long)local[1],
                       (unsigned long long)local[2], lim->max_work_group_size);
  out->total_groups = total_groups;
  out->items_per_group = items;
  /* A team's harts each need a work-item of every group, the smallest too. */
  const uint64_t smallest = rvhal_launch_group_items_checked(out->last); /* each <= its local size */

  /* Arguments: layout, kernel metadata, local memory. */
  if (num_args && !args) return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u arguments but args is NULL", kname,
                                            num_args);
  if (num_args > RVHAL_META_MAX_ARGS)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u arguments, at most %u supported", kname, num_args,
                       RVHAL_META_MAX_ARGS);
  out->num_args = num_args;
  int rc = rvhal_arg_layout(args, num_args, lim->word_size, out->layout, &out->args_size);
  if (rc) return rvhal_error_annotate(rc, "kernel %s", kname);
  if (kobj->has_meta)
    RVHAL_RETURN_IF_ERROR(check_against_meta(kname, kobj, args, num_args, lim->word_size, out->layout,
                                             out->args_size, opts ? opts->arg_types : NULL));
  uint64_t local_bytes = 0;
  for (uint32_t i = 0; i < num_args; i++) {
    const hal_arg_t *a = &args[i];
    if (a->kind != hal_arg_address || a->space != hal_space_local) continue;
    if (out->num_local_args == RVHAL_MAX_LOCAL_ARGS)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: more than %u local-buffer arguments", kname,
                         RVHAL_MAX_LOCAL_ARGS);
    /* A kernel given no memory would use address 0 (and trap there). */
    if (a->size == 0) {
      char what[160];
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %s is a local buffer of 0 bytes; give it a size",
                         kname, kobj->has_meta ? describe_arg(kobj, i, what, sizeof what) : "an argument");
    }
    out->local_arg_offset[out->num_local_args++] = out->layout[i].offset;
    /* (its size against the device's comes with the total's, below) */
    if (!rvhal_launch_local_add(&local_bytes, a->size, UINT64_MAX - RVHAL_LOCAL_ALIGN))
      return rvhal_error(RVHAL_LOCAL_MEMORY, "kernel %s: argument %u: a local buffer of %llu bytes, the device has "
                         "%llu bytes of local memory", kname, i, (unsigned long long)a->size,
                         (unsigned long long)lim->local_mem_size);
  }
  uint64_t tls = rvhal_launch_local_block(tls_size), group_bytes = local_bytes;
  if (!rvhal_launch_local_add(&group_bytes, tls_size, UINT64_MAX - RVHAL_LOCAL_ALIGN) ||
      group_bytes > lim->local_mem_size)
    return rvhal_error(RVHAL_LOCAL_MEMORY,
                       "kernel %s: a work-group needs %llu bytes of local memory (%llu in local-buffer arguments, "
                       "%llu in __local_variable), the device has %llu",
                       kname, (unsigned long long)group_bytes, (unsigned long long)local_bytes,
                       (unsigned long long)tls, (unsigned long long)lim->local_mem_size);
  out->local_bytes = local_bytes;
  out->group_bytes = group_bytes;

  /* How the harts share the work. */
  uint32_t harts = lim->num_harts;
  if (opts && opts->harts) {
    if (opts->harts > lim->num_harts)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u harts requested, the device has %u", kname,
                         opts->harts, lim->num_harts);
    harts = opts->harts;
  }
  /* Harts per group (a team): given, or chosen (docs/execution-model.md has
   * the measurements): one per group while there are groups for every hart;
   * with fewer groups, the harts are shared among them, but never more
   * harts in all than the host has cores (in fast timing a hart is a host
   * thread; beyond the cores, cross-hart barriers only wait longer), and
   * never in exact timing (harts run in turn there). */
  uint32_t team = 1;
  if (opts && opts->harts_per_group) {
    team = opts->harts_per_group;
    if (!rvhal_launch_team_ok(harts, team, UINT64_MAX))
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u harts per work-group must divide the %u harts taking part",
                         kname, team, harts);
    if (!rvhal_launch_team_ok(harts, team, smallest))
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "kernel %s: %u harts per work-group but a group has only %llu "
                         "work-items", kname, team, (unsigned long long)smallest);
  } else if (total_groups < harts && !lim->exact_timing) {
    uint32_t usable = harts < lim->host_cpus ? harts : lim->host_cpus;
    team = (uint32_t)(usable / total_groups);
    if (team < 1) team = 1;
    if (team > smallest) team = (uint32_t)smallest;
  }
  uint64_t teams = harts / team;
  uint64_t chunk = opts && opts->chunk_groups ? opts->chunk_groups : total_groups / (teams * 8);
  if (chunk < 1) chunk = 1;
  if (chunk > groups[0]) chunk = groups[0];
  /* the firmware's count (launch_owner.c): a last, smaller group along
   * dimension 0 is a claim of its own; the product is at most total_groups */
  const uint64_t full_x = rvhal_launch_full_groups(groups[0], local[0], out->last[0]);
  uint64_t chunks = rvhal_launch_chunks_per_row(groups[0], full_x, chunk) * groups[1] * groups[2];
  if (teams > chunks) teams = chunks;
  out->harts = (uint32_t)(teams * team);
  out->team = team;
  out->chunk = chunk;

  counting = counting && !(opts && opts->counters_off);
  if (counting) out->flags |= RVHAL_LAUNCH_COUNTERS;
  if (counting && tracing) out->flags |= RVHAL_LAUNCH_TRACE;
  if (opts && opts->privileged) out->flags |= RVHAL_LAUNCH_PRIVILEGED;
  return RVHAL_OK;
}
