/* The HAL counter API: descriptions built from the shared counter tables,
 * values taken from the harts' blocks after each launch and from the host's
 * own memory operations, each readable once (seed 004 semantics). */
#include <stdlib.h>
#include <string.h>

#include "observe/counters_internal.h"
#include "observe/observe_state.h"

static const struct {
  uint32_t id;
  const char *name, *description;
  rvhal_counter_unit_t unit;
} hart_counters[] = {
#define X(id, name, unit, desc) {RVHAL_HART_COUNTER_##id, name, desc, unit},
    RVHAL_HART_COUNTER_MAP(X)
#undef X
}, device_counters[] = {
#define X(id, num, name, unit, desc) {num, name, desc, unit},
    RVHAL_DEVICE_COUNTER_MAP(X)
#undef X
};

#define NUM_HART (sizeof hart_counters / sizeof *hart_counters)
#define NUM_DEVICE (sizeof device_counters / sizeof *device_counters)

static int is_debug(uint32_t id) {
  return id == RVHAL_HART_COUNTER_DEBUG_CYCLES || id == RVHAL_HART_COUNTER_DEBUG_INSTRET;
}

void rvhal_counters_init(rvhal_counter_state_t *c, const rvhal_device_t *d) {
  if (!rvhal_device_options(d)->counters) return; /* (c is zeroed when made) */
  const uint32_t num_harts = rvhal_device_get_info(d)->num_harts;
  /* the debug-link counters only where there is one */
  const rvhal_backend_t *be = rvhal_device_backend(d);
  c->debug_link = be && be->vtable->hart_counters != NULL;
  for (uint32_t i = 0; i < NUM_HART; i++)
    if (c->debug_link || !is_debug(hart_counters[i].id))
      c->desc[c->num++] = (rvhal_counter_description_t){hart_counters[i].id, hart_counters[i].name,
                                                        hart_counters[i].description, "hart", num_harts,
                                                        hart_counters[i].unit,
                                                        {RVHAL_VERBOSITY_MEDIUM, RVHAL_VERBOSITY_LOW}};
  for (uint32_t i = 0; i < NUM_DEVICE; i++)
    c->desc[c->num++] = (rvhal_counter_description_t){device_counters[i].id, device_counters[i].name,
                                                      device_counters[i].description, NULL, 1,
                                                      device_counters[i].unit,
                                                      {RVHAL_VERBOSITY_NONE, RVHAL_VERBOSITY_LOW}};
}

static int device_slot(uint32_t id) {
  return id >= RVHAL_HART_COUNTER_SLOTS ? (int)(id - RVHAL_HART_COUNTER_SLOTS) : -1;
}

void rvhal_counters_after_launch(rvhal_counter_state_t *c, const rvhal_launch_record_t *r) {
  if (!c->num) return;
  const uint64_t host_ns = r->host_ns;
  for (uint32_t h = 0; h < r->num_harts && h < RVHAL_MAX_HARTS; h++) {
    const rvhal_launch_hart_record_t *b = &r->hart[h];
    for (uint32_t i = 0; i < NUM_HART; i++) {
      /* harts that sat out report zeros; a debug link sees every hart */
      c->hart[i][h] = b->took_part || (is_debug(i) && r->debug_counts) ? b->counters[i] : 0;
      c->hart_fresh[i][h] = 1;
    }
  }
  pthread_mutex_lock(&c->dev_lock);
  c->dev[device_slot(RVHAL_COUNTER_LAUNCHES)]++;
  c->dev_fresh[device_slot(RVHAL_COUNTER_LAUNCHES)] = 1;
  c->dev[device_slot(RVHAL_COUNTER_LAUNCH_TIME)] = host_ns;
  c->dev_fresh[device_slot(RVHAL_COUNTER_LAUNCH_TIME)] = 1;
  pthread_mutex_unlock(&c->dev_lock);
}

void rvhal_observe_transfer(const rvhal_device_t *d, uint64_t written, uint64_t read) {
  rvhal_counter_state_t *c = &rvhal_observe_of(d)->counters;
  if (!c->num) return;
  pthread_mutex_lock(&c->dev_lock);
  if (written) {
    c->dev[device_slot(RVHAL_COUNTER_BYTES_WRITTEN)] = written;
    c->dev_fresh[device_slot(RVHAL_COUNTER_BYTES_WRITTEN)] = 1;
  }
  if (read) {
    c->dev[device_slot(RVHAL_COUNTER_BYTES_READ)] = read;
    c->dev_fresh[device_slot(RVHAL_COUNTER_BYTES_READ)] = 1;
  }
  pthread_mutex_unlock(&c->dev_lock);
}

int rvhal_device_counters(const rvhal_device_t *d, uint32_t *out_num, const rvhal_counter_description_t **out_desc) {
  RVHAL_DEVICE_GUARD(d);
  if (!d || !out_num || !out_desc) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_counters: NULL argument");
  const rvhal_counter_state_t *c = &rvhal_observe_of(d)->counters;
  *out_num = c->num;
  *out_desc = c->desc;
  return RVHAL_OK;
}

int rvhal_counter_read(rvhal_device_t *d, uint32_t id, uint64_t *out_value, uint32_t index) {
  RVHAL_DEVICE_GUARD(d);
  if (!d || !out_value) return rvhal_error(RVHAL_INVALID_ARGUMENT, "counter_read: NULL device or out_value");
  rvhal_counter_state_t *c = &rvhal_observe_of(d)->counters;
  const uint32_t num_harts = rvhal_device_get_info(d)->num_harts;
  if (!c->num)
    return rvhal_error(RVHAL_UNSUPPORTED, "counter_read: counters are off on this device (device option counters, "
                       "or RVHAL_COUNTERS=1)");
  if (id < NUM_HART) {
    if (is_debug(id) && !c->debug_link)
      return rvhal_error(RVHAL_NOT_FOUND, "counter_read: counter %s needs a debug link (the GDB-remote backend)",
                         hart_counters[id].name);
    if (index >= num_harts)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "counter_read: counter %s has %u values (harts), index %u",
                         hart_counters[id].name, num_harts, index);
    if (!c->hart_fresh[id][index]) return 0;
    c->hart_fresh[id][index] = 0;
    *out_value = c->hart[id][index];
    return 1;
  }
  int slot = device_slot(id);
  if (slot < 0 || slot >= (int)NUM_DEVICE)
    return rvhal_error(RVHAL_NOT_FOUND, "counter_read: no counter has id %u (see rvhal_device_counters)", id);
  if (index != 0)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "counter_read: counter %s has one value, index %u",
                       device_counters[slot].name, index);
  pthread_mutex_lock(&c->dev_lock); /* copies update the transfer counters beside launches */
  const int fresh = c->dev_fresh[slot];
  c->dev_fresh[slot] = 0;
  if (fresh) *out_value = c->dev[slot];
  pthread_mutex_unlock(&c->dev_lock);
  return fresh;
}

int rvhal_counters_exact(const rvhal_device_t *d, const char **out_why) {
  const rvhal_observe_t *o = rvhal_observe_of(d);
  return rvhal_counters_exactness(o->counters.num != 0,
                                  __atomic_load_n(&rvhal_device_ctrl(d)->insns.active, __ATOMIC_ACQUIRE) != 0,
                                  rvhal_device_options(d)->timing == RVHAL_TIMING_EXACT, o->last.harts_per_group,
                                  out_why);
}

int rvhal_counters_exactness(int counters_on, int plugin_counts, int exact_timing, uint32_t harts_per_group,
                             const char **out_why) {
  const char *why = NULL;
  const int fast = !exact_timing;
  if (!counters_on) why = "counters are off";
  else if (!plugin_counts)
    why = fast ? "fast timing mode without rvhal's QEMU plugin: cycles follow host time and instruction counts "
                 "are QEMU's minstret"
               : "rvhal's QEMU plugin is not loaded: instruction counts are QEMU's minstret (all harts together "
                 "under -icount)";
  else if (fast) why = "fast timing mode: cycle counts follow host time; instruction counts are exact per hart";
  /* The same team launch gives a few different splits of its
   * instructions and slightly different cycles from run to run
   * (docs/counters.md). */
  if (!why && harts_per_group > 1)
    why = "exact timing, but the last launch ran teams of several harts per group: they share QEMU's one "
          "thread in slices QEMU chooses, so which hart waits at a barrier, and how long, varies a little from run "
          "to run (one hart per group, the default in exact timing, repeats exactly)";
  if (out_why) *out_why = why ? why : "cycles and instructions are exact and repeatable";
  return why == NULL;
}

int rvhal_device_instructions(const rvhal_device_t *d, uint32_t hart, uint64_t *out_count) {
  RVHAL_DEVICE_GUARD(d);
  if (!d || !out_count) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_instructions: NULL argument");
  const rvhal_ctrl_t *ctrl = rvhal_device_ctrl(d);
  if (hart >= rvhal_device_get_info(d)->num_harts)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_instructions: hart %u, the device has %u", hart,
                       rvhal_device_get_info(d)->num_harts);
  if (!__atomic_load_n(&ctrl->insns.active, __ATOMIC_ACQUIRE))
    return rvhal_error(RVHAL_UNSUPPORTED, "device_instructions: rvhal's QEMU plugin is not loaded (device option "
                       "counters, and the plugin built: $RVHAL_QEMU_PLUGIN)");
  *out_count = __atomic_load_n(&ctrl->insns.hart[hart].count, __ATOMIC_ACQUIRE);
  return RVHAL_OK;
}

int rvhal_device_debug_counters(rvhal_device_t *d, uint32_t hart, uint64_t *out_mcycle, uint64_t *out_minstret) {
  RVHAL_DEVICE_GUARD(d);
  if (!d || !out_mcycle || !out_minstret)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_debug_counters: NULL argument");
  rvhal_backend_t *be = rvhal_device_backend(d);
  if (hart >= rvhal_device_get_info(d)->num_harts)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_debug_counters: hart %u, the device has %u", hart,
                       rvhal_device_get_info(d)->num_harts);
  if (!be->vtable->hart_counters)
    return rvhal_error(RVHAL_UNSUPPORTED, "device_debug_counters: the device has no debug link (the GDB-remote "
                       "backend has: RVHAL_BACKEND=gdb or RVHAL_GDB_REMOTE)");
  return be->vtable->hart_counters(be, hart, out_mcycle, out_minstret);
}
