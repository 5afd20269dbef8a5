/* Command buffers on the device (rvhal_cmdlist.h): a recorded buffer is
 * encoded once into the firmware region's command-list area, every launch
 * checked and packed as kernel_exec would; each submission then only
 * re-checks and patches the buffer arguments (rewriting the words whose
 * binding changed), stamps the ring sequence number and puts one ring entry
 * on the device. The firmware runs the commands back to back and writes a
 * status per command; the host reads them as untrusted input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/command_list.h"
#include "launch/launcher.h"
#include "memory/memory.h"
#include "observe/observe.h"
#include "program/program.h"
#include "rvhal/arg_pack.h"
#include "rvhal/rvhal_cmdlist.h"

#define LIST_KNAME "(a command buffer's launches)"

/* A recorded fill's pattern fits a command record's. */
RVHAL_STATIC_ASSERT(RVHAL_FILL_PATTERN_MAX <= RVHAL_CMD_MAX_PATTERN, "fill patterns outgrew command lists");

static uint64_t area_dev(const rvhal_device_t *d) { return rvhal_device_layout(d)->fw_base + RVHAL_CMDLIST_OFFSET; }
static uint8_t *area(const rvhal_device_t *d) { return rvhal_dev_ptr(d, area_dev(d)); }
static uint32_t align64(uint64_t n) { return (uint32_t)((n + 63) / 64 * 64); }

static void forget(rvhal_cb_encoding_t *enc) {
  free(enc->rec);
  free(enc->launch);
  free(enc->patches);
  memset(enc, 0, sizeof *enc);
}

void rvhal_cmdlist_forget(rvhal_command_list_t *list) {
  forget(&list->enc[0]);
  forget(&list->enc[1]);
}

/* Launch op `o` with its bindings applied (args: room for its arguments). */
static rvhal_launch_request_t bind_args(const rvhal_cb_op_t *o, const hal_addr_t *bindings, hal_arg_t *args) {
  return rvhal_launch_request_bind(o->launch, o->bindings, bindings, args);
}

static uint32_t record_size(const rvhal_cb_op_t *o, uint32_t args_size) {
  switch (o->kind) {
  case RVHAL_CB_KERNEL: return align64(sizeof(rvhal_cmd_t) + RVHAL_CMD_DESC_SPACE + (uint64_t)args_size);
  case RVHAL_CB_FILL: return align64(sizeof(rvhal_cmd_t) + o->pattern_size);
  default: return sizeof(rvhal_cmd_t);
  }
}

/* Encodes the list for d with these bindings. RVHAL_OK; RVHAL_UNSUPPORTED when it
 * does not fit (the host runs it); else a launch's error (nothing cached). */
static int encode(rvhal_device_t *d, rvhal_command_list_t *cb, rvhal_cb_encoding_t *enc, const hal_addr_t *bindings) {
  rvhal_launcher_t *L = rvhal_launcher(d);
  forget(enc);
  const uint32_t n = cb->num_ops;
  /* Each launch checked and planned once: its plan sizes its record and
   * places its arguments. */
  rvhal_launch_prepared_t *plans = calloc(n + 1, sizeof *plans);
  uint32_t patches = 0;
  uint64_t bytes = sizeof(rvhal_cmdlist_t) + align64((uint64_t)n * sizeof(rvhal_cmd_status_t));
  hal_arg_t args[RVHAL_META_MAX_ARGS];
  if (!plans) return rvhal_error(RVHAL_HOST_IO, "out of host memory for a command list");
  for (uint32_t i = 0; i < n; i++) {
    const rvhal_cb_op_t *o = &cb->ops[i];
    if (o->kind == RVHAL_CB_KERNEL) {
      const rvhal_launch_request_t r = bind_args(o, bindings, args);
      if (rvhal_launch_prepare(d, &r, &plans[i]) != RVHAL_OK) {
        free(plans);
        return RVHAL_UNSUPPORTED; /* the host's run gives the launch's error, in its turn */
      }
      for (uint32_t a = 0; a < r.num_args; a++)
        patches += args[a].kind == hal_arg_address && args[a].space != hal_space_local;
    }
    bytes += record_size(o, plans[i].plan.args_size);
  }
  if (bytes > RVHAL_CMDLIST_SIZE) {
    free(plans);
    return RVHAL_UNSUPPORTED;
  }
  if (L->cmdlist_used + bytes > RVHAL_CMDLIST_SIZE) { /* full: every list is encoded again when next used */
    L->cmdlist_epoch++;
    L->cmdlist_used = 0;
  }
  enc->rec = calloc(n + 1, sizeof *enc->rec);
  enc->launch = calloc(n + 1, sizeof *enc->launch);
  enc->patches = calloc(patches + 1, sizeof *enc->patches);
  if (!enc->rec || !enc->launch || !enc->patches) {
    free(plans);
    forget(enc);
    return rvhal_error(RVHAL_HOST_IO, "out of host memory for a command list");
  }
  const uint32_t base = L->cmdlist_used;
  uint8_t *list = area(d) + base;
  rvhal_cmdlist_t *h = (rvhal_cmdlist_t *)list;
  memset(h, 0, sizeof *h);
  uint32_t off = (uint32_t)(sizeof *h + align64((uint64_t)n * sizeof(rvhal_cmd_status_t)));
  memset(list + sizeof *h, 0, off - sizeof *h);
  enc->first_launch = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    const rvhal_cb_op_t *o = &cb->ops[i];
    rvhal_cmd_t *c = (rvhal_cmd_t *)(list + off);
    uint32_t size = record_size(o, plans[i].plan.args_size);
    memset(c, 0, sizeof *c);
    c->size = size;
    switch (o->kind) {
    case RVHAL_CB_KERNEL: {
      c->kind = RVHAL_CMD_LAUNCH;
      rvhal_launch_desc_t *desc = (rvhal_launch_desc_t *)(c + 1);
      uint8_t *pack = (uint8_t *)desc + RVHAL_CMD_DESC_SPACE;
      memset(desc, 0, RVHAL_CMD_DESC_SPACE);
      const rvhal_launch_request_t r = bind_args(o, bindings, args);
      plans[i].request = &r; /* (prepared from the same view, now gone) */
      rvhal_launch_encode(d, &plans[i], desc, pack, area_dev(d) + ((uint8_t *)pack - area(d)), &enc->launch[i]);
      const rvhal_arg_layout_t *layout = plans[i].plan.layout;
      enc->rec[i] = (uint32_t)((uint8_t *)desc - area(d));
      if (enc->first_launch == UINT32_MAX) enc->first_launch = enc->rec[i];
      for (uint32_t a = 0; a < r.num_args; a++)
        if (args[a].kind == hal_arg_address && args[a].space != hal_space_local)
          enc->patches[enc->num_patches++] =
              (rvhal_cb_patch_t){.op = i, .arg = a, .slot = o->bindings ? o->bindings[a] : -1,
                                 .at = (uint32_t)(pack + layout[a].offset - area(d)), .value = args[a].address};
      break;
    }
    case RVHAL_CB_COPY:
      c->kind = RVHAL_CMD_COPY;
      c->dst = o->dst;
      c->src = o->src;
      c->bytes = o->size;
      break;
    case RVHAL_CB_FILL:
      c->kind = RVHAL_CMD_FILL;
      c->dst = o->dst;
      c->bytes = o->size;
      c->pattern_size = (uint32_t)o->pattern_size;
      memcpy(c + 1, o->pattern, (size_t)o->pattern_size);
      break;
    case RVHAL_CB_BARRIER: c->kind = RVHAL_CMD_BARRIER; break;
    }
    off += size;
  }
  free(plans);
  h->magic = RVHAL_CMDLIST_MAGIC;
  h->capacity = n;
  h->bytes = off;
  enc->device = d;
  enc->boots = L->boots;
  enc->epoch = L->cmdlist_epoch;
  enc->offset = base;
  enc->bytes = off;
  L->cmdlist_used = base + off;
  return RVHAL_OK;
}

/* The host runs the commands in turn (what the firmware would do). */
static int host_run(rvhal_device_t *d, rvhal_command_list_t *cb, const hal_addr_t *bindings, uint32_t *out_failed,
                    rvhal_launch_times_t *out_times) {
  hal_arg_t args[RVHAL_META_MAX_ARGS];
  uint64_t first = 0, last = 0;
  for (uint32_t i = 0; i < cb->num_ops; i++) {
    const rvhal_cb_op_t *o = &cb->ops[i];
    int rc = RVHAL_OK;
    *out_failed = i;
    switch (o->kind) {
    case RVHAL_CB_KERNEL: {
      const rvhal_launch_request_t r = bind_args(o, bindings, args);
      rvhal_launch_times_t t;
      rc = rvhal_launch_run(d, &r, &t);
      if (rc == RVHAL_OK && !first) first = t.start_ns;
      if (rc == RVHAL_OK) last = t.end_ns;
      break;
    }
    case RVHAL_CB_COPY: rc = rvhal_mem_copy(d, o->dst, o->src, o->size); break;
    case RVHAL_CB_FILL: rc = rvhal_mem_fill(d, o->dst, o->pattern, o->pattern_size, o->size); break;
    case RVHAL_CB_BARRIER: break;
    }
    if (rc != RVHAL_OK) return rc;
  }
  *out_times = (rvhal_launch_times_t){.start_ns = first, .end_ns = last, .device_ns = last - first};
  return RVHAL_OK;
}

/* Submission checks: every buffer argument, copy and fill against the
 * device's allocations now, as the blocking calls check them; the words
 * whose binding changed are rewritten. The first command that fails its
 * checks: its index (the list runs up to it), the error set; else n. */
static uint32_t check_and_patch(rvhal_device_t *d, rvhal_command_list_t *cb, rvhal_cb_encoding_t *enc,
                                const hal_addr_t *bindings, int *out_rc) {
  uint8_t *a = area(d);
  uint32_t bad = cb->num_ops;
  for (uint32_t i = 0; i < enc->num_patches; i++) {
    rvhal_cb_patch_t *p = &enc->patches[i];
    if (p->op >= bad) break;
    hal_addr_t v = p->slot >= 0 ? bindings[p->slot] : cb->ops[p->op].launch->args[p->arg].address;
    if (v != hal_nullptr && rvhal_mem_check(d, "kernel", "buffer", v, 1) != RVHAL_OK) {
      bad = p->op;
      *out_rc = rvhal_error(RVHAL_OUT_OF_RANGE, "kernel %s: argument %u: buffer address 0x%llx is not inside any "
                            "allocation of device global memory", enc->launch[p->op].kname, p->arg,
                            (unsigned long long)v);
      break;
    }
    if (v == p->value) continue;
    if (rvhal_device_get_info(d)->word_size == 4) {
      uint32_t w = (uint32_t)v;
      memcpy(a + p->at, &w, 4);
    } else {
      uint64_t w = v;
      memcpy(a + p->at, &w, 8);
    }
    p->value = v;
  }
  for (uint32_t i = 0; i < bad; i++) {
    const rvhal_cb_op_t *o = &cb->ops[i];
    int rc = RVHAL_OK;
    if (o->kind == RVHAL_CB_COPY && o->size &&
        ((rc = rvhal_mem_check(d, "mem_copy", "destination", o->dst, o->size)) == RVHAL_OK))
      rc = rvhal_mem_check(d, "mem_copy", "source", o->src, o->size);
    if (o->kind == RVHAL_CB_FILL && o->size % o->pattern_size)
      rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "mem_fill: size %llu is not a multiple of the pattern size %llu",
                       (unsigned long long)o->size, (unsigned long long)o->pattern_size);
    else if (o->kind == RVHAL_CB_FILL && o->size)
      rc = rvhal_mem_check(d, "mem_fill", "destination", o->dst, o->size);
    if (rc != RVHAL_OK) {
      *out_rc = rc;
      return i;
    }
  }
  return bad;
}

static int valid_encoding(const rvhal_device_t *d, const rvhal_cb_encoding_t *e) {
  const rvhal_launcher_t *L = rvhal_launcher(d);
  return e->device == d && e->boots == L->boots && e->epoch == L->cmdlist_epoch;
}

/* The firmware can run it (else the host does). */
static int for_the_device(const rvhal_device_t *d, const rvhal_command_list_t *cb) {
  static int host_env = -1; /* RVHAL_HOST_COMMAND_BUFFERS, read once */
  if (host_env < 0) host_env = getenv("RVHAL_HOST_COMMAND_BUFFERS") != NULL;
  return !rvhal_device_options(d)->counters && !rvhal_observe_profiling(d) && !cb->several_programs && cb->num_ops &&
         !host_env && (!cb->program || rvhal_program_get(d, cb->program));
}

int rvhal_cmdlist_ready(rvhal_device_t *d, const rvhal_command_list_t *cb) {
  if (!for_the_device(d, cb)) return 0;
  for (int i = 0; i < 2; i++)
    if (!cb->enc_busy[i] && valid_encoding(d, &cb->enc[i])) return 1;
  return 0;
}

int rvhal_cmdlist_submit(rvhal_device_t *d, rvhal_command_list_t *cb, const hal_addr_t *bindings, int after_ok,
                         rvhal_cmdlist_flight_t *f) {
  memset(f, 0, sizeof *f);
  if (!for_the_device(d, cb)) return RVHAL_UNSUPPORTED;
  /* a copy of the list the device is not running: a submission behind
   * another of the same buffer patches its own */
  if (!after_ok) /* nothing on the device: lists may be encoded (the area reused); both copies at once */
    for (int i = 0; i < 2; i++)
      if (!valid_encoding(d, &cb->enc[i]) && encode(d, cb, &cb->enc[i], bindings) != RVHAL_OK)
        return RVHAL_UNSUPPORTED;
  int e = -1;
  for (int i = 0; i < 2 && e < 0; i++)
    if (!cb->enc_busy[i] && valid_encoding(d, &cb->enc[i])) e = i;
  if (e < 0) return RVHAL_UNSUPPORTED;
  rvhal_cb_encoding_t *enc = &cb->enc[e];
  f->enc = (uint32_t)e;
  f->n = check_and_patch(d, cb, enc, bindings, &f->bad_rc);
  if (f->n < cb->num_ops) snprintf(f->bad, sizeof f->bad, "%s", rvhal_last_error());
  if (f->n == 0) {
    f->nothing = 1;
    return RVHAL_OK;
  }
  rvhal_launch_slot_t *slot;
  RVHAL_RETURN_IF_ERROR(rvhal_launch_next_slot(d, "command buffer", &slot));
  uint8_t *a = area(d);
  const uint64_t seq = rvhal_launcher(d)->seq + 1;
  for (uint32_t i = 0; i < f->n; i++)
    if (cb->ops[i].kind == RVHAL_CB_KERNEL) ((rvhal_launch_desc_t *)(a + enc->rec[i]))->seq = seq;
  if (enc->first_launch != UINT32_MAX) {
    /* the program's install rides on the first launch, when not resident */
    RVHAL_RETURN_IF_ERROR(rvhal_launch_stage(d, cb->program));
    rvhal_launch_install(d, cb->program, (rvhal_launch_desc_t *)(a + enc->first_launch));
  }
  rvhal_cmdlist_t *h = (rvhal_cmdlist_t *)(a + enc->offset);
  h->num_cmds = f->n;
  h->seq = seq;
  h->ran = 0;
  h->status = RVHAL_OK;
  memset(&slot->done, 0, sizeof slot->done);
  memset(&slot->desc, 0, sizeof slot->desc);
  slot->desc.seq = seq;
  slot->desc.flags = RVHAL_LAUNCH_CMDLIST | (after_ok ? RVHAL_LAUNCH_AFTER_OK : 0);
  slot->desc.args = area_dev(d) + enc->offset;
  /* A non-coherent backend: the list as the host wrote and patched it. */
  RVHAL_RETURN_IF_ERROR(rvhal_dev_flush_ptr(d, h, enc->bytes));
  f->l = (rvhal_launch_t){.seq = seq, .boot = rvhal_device_boots(d), .program = cb->program, .kname = LIST_KNAME};
  RVHAL_RETURN_IF_ERROR(rvhal_launch_publish(d, &slot->desc, &f->l));
  cb->enc_busy[e]++;
  return RVHAL_OK;
}

/* What the list's records say (read once, range-checked): RVHAL_OK, or the
 * first failure as the blocking call gives it, *out_failed its index. */
static int list_outcome(rvhal_device_t *d, rvhal_command_list_t *cb, const rvhal_cb_encoding_t *enc, uint32_t n,
                        const rvhal_completion_t *done, uint64_t t1, uint32_t *out_failed) {
  const uint64_t seq = done->seq;
  const rvhal_cmdlist_t *h = (const rvhal_cmdlist_t *)(area(d) + enc->offset);
  const rvhal_cmd_status_t *st = (const rvhal_cmd_status_t *)(h + 1);
  RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate_ptr(d, h, sizeof *h + (uint64_t)n * sizeof *st));
  const rvhal_cmdlist_t hdr = *h;
  if (done->status == RVHAL_OK) {
    if (hdr.status != RVHAL_OK || hdr.ran != n || hdr.seq != seq)
      return rvhal_error(RVHAL_FIRMWARE, "command list of launch %llu: completed but its header says %u of %u "
                         "commands ran, status %d", (unsigned long long)seq, hdr.ran, n, (int)hdr.status);
    /* a kernel's fail call with code 0 stopped its command (the list went on) */
    *out_failed = UINT32_MAX;
    return rvhal_launch_kernel_report(d, seq, RVHAL_OK, 0, rvhal_device_get_info(d)->num_harts, LIST_KNAME);
  }
  rvhal_launch_forget_resident(d); /* the install may not have happened */
  if (done->status == RVHAL_CANCELLED)
    return rvhal_error(RVHAL_CANCELLED, "command buffer: launch %llu did not run: the launch before it on the "
                       "device failed", (unsigned long long)seq);
  if (done->status == RVHAL_BAD_LAUNCH && hdr.status != RVHAL_BAD_LAUNCH)
    return rvhal_error(RVHAL_BAD_LAUNCH, "the firmware rejected command list %llu, which the host had written",
                       (unsigned long long)seq);
  /* (done->status passed check_completion: the header must equal it) */
  if (hdr.failed >= n || hdr.status != done->status)
    return rvhal_error(RVHAL_FIRMWARE, "command list of launch %llu failed (%s) but its header names command %u of "
                       "%u, status %d", (unsigned long long)seq, rvhal_status_name(done->status), hdr.failed, n,
                       (int)hdr.status);
  const uint32_t k = hdr.failed;
  const rvhal_cmd_status_t s = st[k];
  *out_failed = k;
  if (s.seq != seq || s.status != hdr.status || s.fault_hart >= rvhal_device_get_info(d)->num_harts ||
      s.end_mtime < s.start_mtime)
    return rvhal_error(RVHAL_FIRMWARE, "command list of launch %llu: status record of command %u is not its failure "
                       "(seq %llu, status %d, hart %u)", (unsigned long long)seq, k, (unsigned long long)s.seq,
                       (int)s.status, s.fault_hart);
  if (cb->ops[k].kind == RVHAL_CB_KERNEL) {
    rvhal_launch_t kl = enc->launch[k];
    kl.seq = seq; /* the trap report carries the list's seq */
    kl.boot = rvhal_device_boots(d);
    rvhal_completion_t kd = {.seq = seq, .status = s.status, .fault_hart = s.fault_hart,
                             .start_mtime = s.start_mtime, .end_mtime = s.end_mtime};
    int rc = rvhal_launch_outcome(d, &kl, &kd, t1);
    return rc != RVHAL_OK ? rc : rvhal_error(RVHAL_FIRMWARE, "command %u failed on the device with no cause", k);
  }
  return rvhal_error(s.status, "%s of %llu bytes: the firmware refused it (%s)",
                     cb->ops[k].kind == RVHAL_CB_COPY ? "mem_copy" : "mem_fill",
                     (unsigned long long)cb->ops[k].size, rvhal_status_string(s.status));
}

/* The error naming the command (UINT32_MAX: not known). */
static int name_command(int rc, uint32_t failed, uint32_t n) {
  if (failed == UINT32_MAX) return rvhal_error_annotate(rc, "{} (in a command buffer of %u commands)", n);
  return rvhal_error_annotate(rc, "{} (command %u of %u of the command buffer)", failed, n);
}

int rvhal_cmdlist_complete(rvhal_device_t *d, rvhal_command_list_t *cb, const rvhal_cmdlist_flight_t *f, int more,
                           rvhal_launch_times_t *out_times) {
  uint32_t failed = 0;
  int rc = RVHAL_OK;
  *out_times = (rvhal_launch_times_t){0};
  if (!f->nothing) {
    rvhal_cb_encoding_t *enc = &cb->enc[f->enc];
    rvhal_completion_t done;
    uint64_t t1;
    rvhal_launch_t l = f->l;
    rc = rvhal_launch_wait(d, &l, more, &done, &t1);
    *out_times = l.times;
    cb->enc_busy[f->enc]--;
    if (rc != RVHAL_OK) {
      rvhal_launch_forget_resident(d);
      enc->device = NULL; /* a restarted device: encoded again next time */
      return name_command(rc, UINT32_MAX, cb->num_ops); /* a restart cleared the list's records */
    }
    rc = list_outcome(d, cb, enc, f->n, &done, t1, &failed);
    if (rc == RVHAL_FIRMWARE) enc->device = NULL; /* a list the device wrote over is encoded again */
    if (rc == RVHAL_CANCELLED) return rc;
  }
  if (rc == RVHAL_OK && f->n < cb->num_ops) { /* refused at submission: the commands before it ran */
    failed = f->n;
    rc = rvhal_error(f->bad_rc, "%s", f->bad);
  }
  return rc == RVHAL_OK ? RVHAL_OK : name_command(rc, failed, cb->num_ops);
}

int rvhal_cmdlist_run(rvhal_device_t *d, rvhal_command_list_t *cb, const hal_addr_t *bindings,
                      rvhal_launch_times_t *out_times) {
  *out_times = (rvhal_launch_times_t){0};
  if (!rvhal_device_hold(d))
    return rvhal_error(RVHAL_BUSY, "command buffer: the device is running launch %llu (called from its print "
                       "callback?)", (unsigned long long)rvhal_launcher(d)->seq);
  rvhal_cmdlist_flight_t f;
  int rc = rvhal_cmdlist_submit(d, cb, bindings, 0, &f);
  if (rc == RVHAL_OK) rc = rvhal_cmdlist_complete(d, cb, &f, 0, out_times);
  rvhal_device_release(d);
  if (rc != RVHAL_UNSUPPORTED) return rc;
  uint32_t failed = 0;
  rc = host_run(d, cb, bindings, &failed, out_times); /* (its launches hold the device themselves) */
  return rc == RVHAL_OK ? RVHAL_OK : name_command(rc, failed, cb->num_ops);
}
