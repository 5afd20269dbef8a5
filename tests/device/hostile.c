/* Hostile kernels (dt_hostile) and every status code a launch can end with.
 * A kernel that forges its completion record (fault_hart 0x7fffffff), moves
 * its print ring's head to an impossible position, prints for ever,
 * overwrites every staged program or the boot configuration, traps (ecall,
 * ebreak, a jump to 0x10, a misaligned AMO), or whose work-items reach
 * different barriers, gets an error naming what was wrong — never a crash or
 * a hang of the host — and after each one a good launch of another program
 * works with every other buffer intact. Also: RVHAL_DEVICE_LOST (the
 * device's QEMU killed during a launch, its pid from the library),
 * RVHAL_BUSY (a print callback that launches on its own device),
 * RVHAL_MISSING_TOOL (no such QEMU) and RVHAL_BAD_LAUNCH.
 *
 * With the argument "stack": frames of several sizes, up to past the whole
 * stack region, touched only at their lowest byte. With "probe": every page
 * of the firmware image and pages of every region of the layout a kernel
 * must not reach, stored to and loaded from. Arguments name the parts to
 * run (forged print wiped traps wild isolated lost busy missing stack
 * probe).
 * Kernels run isolated (U-mode on M-mode boards); those that play a lying
 * device (forged records, print heads, staging and boot configuration
 * overwritten) run privileged (rvhal_launch_options_t.privileged). */
#include <pthread.h>
#include <signal.h>

#include "dev_util.h"
#include "rvhal/queue.h"
#include "rvhal/rvhal_cmdlist.h"  /* RVHAL_CMDLIST_OFFSET */
#include "rvhal/rvhal_protocol.h" /* RVHAL_PRINT_RING_SIZE */
#include "dt_shared.h"

#define N 64
/* The launches that may hang wait this long (their own timeout_ms); the
 * others, HEALTHY()'s among them, have the device's launch timeout, long
 * enough for a loaded host (time QEMU waits for a CPU does not count, up
 * to 5 timeouts: a 2 s one ran out where QEMU got 1-7 % of a CPU). */
#define TIMEOUT_MS 2000

typedef struct {
  rvhal_device_t *d;
  hal_program_t hostile, good;
  hal_addr_t keep, marks, out;
  uint8_t keep_host[65536];
  size_t keep_size; /* of keep_host, checked after each case: less over a slow debug link */
  uint32_t k;
  int printed;
  int busy_rc;
  char busy_msg[512];
} ctx_t;

static ctx_t c;

/* trap_good of dt_trap (another program: it is installed again after every
 * hostile launch) gives the right result, the host's buffer is intact, and
 * this process has exactly one QEMU. */
static void healthy_at(int line) {
  dt_check_healthy(c.d, c.good, c.out, N, ++c.k, c.keep, c.keep_host, c.keep_size, line);
}
#define HEALTHY() healthy_at(__LINE__)

static int act_opts(uint64_t what, uint64_t value, uint64_t items, uint64_t local,
                    const rvhal_launch_options_t *o) {
  const uint8_t z = 0;
  CHECK_OK(rvhal_mem_fill(c.d, c.marks, &z, 1, N * 4));
  hal_arg_t args[3] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8), rvhal_arg_value(&value, 8)};
  hal_ndrange_t nd = {.global = {items}, .local = {local}};
  return rvhal_kernel_exec_ex(c.d, c.hostile, fixture_kernel(c.d, c.hostile, "hostile_act"), &nd, args, 3, 1, o);
}
static int act(uint64_t what, uint64_t value, uint64_t items, uint64_t local) {
  return act_opts(what, value, items, local, NULL);
}
/* A launch that may never end: it times out after TIMEOUT_MS. */
static int act_may_hang(uint64_t what, uint64_t value, uint64_t items, uint64_t local) {
  const rvhal_launch_options_t o = {.timeout_ms = TIMEOUT_MS};
  return act_opts(what, value, items, local, &o);
}
/* The kernel in the firmware's mode, not isolated: it plays a lying device
 * (an isolated kernel can no longer write device records). */
static int act_priv(uint64_t what, uint64_t value, uint64_t items, uint64_t local) {
  rvhal_launch_options_t o = {.privileged = 1};
  return act_opts(what, value, items, local, &o);
}

/* The launch ends with `status` and a message holding each needle. */
static void expect_at(int line, int rc, int status, const char *n1, const char *n2) {
  const char *msg = rvhal_last_error();
  CHECK_MSG(rc == status, "line %d: got %s, expected %s: %s", line, rvhal_status_name(rc), rvhal_status_name(status),
            msg);
  if (n1) CHECK_MSG(strstr(msg, n1) != NULL, "line %d: message \"%s\" lacks \"%s\"", line, msg, n1);
  if (n2) CHECK_MSG(strstr(msg, n2) != NULL, "line %d: message \"%s\" lacks \"%s\"", line, msg, n2);
  if (getenv("RVHAL_TEST_VERBOSE")) printf("  line %d: %s: %s\n", line, rvhal_status_name(rc), msg);
}
#define EXPECT(rc, status, n1, n2) expect_at(__LINE__, rc, status, n1, n2)

static void forged_records(void) {
  /* hart 0x7fffffff used to index the hart blocks: SIGSEGV */
  EXPECT(act_priv(HOSTILE_FORGE_COMPLETION, 0x7fffffff, N, 4), RVHAL_FIRMWARE, "fault_hart 2147483647",
         "device was restarted");
  HEALTHY();
  char want[64];
  uint32_t harts = rvhal_device_get_info(c.d)->num_harts;
  snprintf(want, sizeof want, "fault_hart %u", harts); /* the first hart number past the last */
  EXPECT(act_priv(HOSTILE_FORGE_COMPLETION, harts, N, 4), RVHAL_FIRMWARE, want, "hostile_act");
  HEALTHY();
  /* The record's other fields: a seq not the launch's, a status the
   * firmware never reports (one that would blame the device or the host),
   * an end before the start. Each is the firmware's fault, never taken. */
  EXPECT(act_priv(HOSTILE_FORGE_FIELD, 1, N, 4), RVHAL_FIRMWARE, "seq is", "device was restarted");
  HEALTHY();
  const int32_t forged[] = {RVHAL_DEVICE_LOST, RVHAL_TIMEOUT, 3, RVHAL_KERNEL_FAILED, INT32_MIN};
  for (size_t i = 0; i < sizeof forged / sizeof *forged; i++) {
    snprintf(want, sizeof want, "status %d (", (int)forged[i]);
    EXPECT(act_priv(HOSTILE_FORGE_FIELD, 2 | (uint64_t)(uint32_t)forged[i] << 32, N, 4), RVHAL_FIRMWARE, want,
           "is not one the firmware reports");
    HEALTHY();
  }
  EXPECT(act_priv(HOSTILE_FORGE_FIELD, 3, N, 4), RVHAL_FIRMWARE, "end_mtime 5 is before start_mtime 1000", NULL);
  HEALTHY();
}

/* A kernel's fail call with every status code, 0 and positive ones too:
 * the launch fails with RVHAL_KERNEL_FAILED naming the code, never with a
 * status about the device or the host (a kernel reporting
 * RVHAL_DEVICE_LOST once made the host say QEMU stopped), nor RVHAL_OK, and
 * the device stays up (no restart: the next launch finds the same QEMU).
 * The codes that describe the kernel itself stay what they are. */
static void fail_codes(void) {
  int32_t codes[40];
  size_t n = 0;
  for (int32_t s = 0; s >= RVHAL_BUILD_FAILED - 1; s--) codes[n++] = s;
  codes[n++] = 1;
  codes[n++] = 19;
  codes[n++] = INT32_MAX;
  codes[n++] = INT32_MIN;
  for (size_t i = 0; i < n; i++) {
    pid_t before[8], after[8];
    CHECK_EQ_U64(dt_find_qemu(getpid(), NULL, before, 8), 1);
    const int32_t code = codes[i];
    const int kept = code == RVHAL_KERNEL_FAILED || code == RVHAL_BARRIER_DIVERGENCE || code == RVHAL_LOCAL_MEMORY ||
                     code == RVHAL_STACK_OVERFLOW;
    char want[64];
    snprintf(want, sizeof want, kept ? "code %d)" : "code %d (", (int)code);
    int rc = act(HOSTILE_FAIL_CODE, (uint64_t)(int64_t)code, N, 4);
    EXPECT(rc, kept ? code : RVHAL_KERNEL_FAILED, want, "hostile fail (value 4660");
    CHECK_EQ_U64(dt_find_qemu(getpid(), NULL, after, 8), 1);
    CHECK_MSG(after[0] == before[0], "code %d: the device was restarted (QEMU %d, then %d)", (int)code, (int)before[0],
              (int)after[0]);
    HEALTHY();
  }
  /* The same in a command buffer the firmware runs (0: the list goes on,
   * the fail is found in the kernel's report; -8: the list stops). */
  const int32_t list_codes[] = {0, RVHAL_DEVICE_LOST, 7};
  for (size_t i = 0; i < sizeof list_codes / sizeof *list_codes; i++) {
    rvhal_queue_t *q;
    rvhal_command_buffer_t *cb;
    CHECK_OK(rvhal_queue_create(c.d, &q));
    CHECK_OK(rvhal_command_buffer_create(c.d, &cb));
    uint64_t what = HOSTILE_FAIL_CODE, value = (uint64_t)(int64_t)list_codes[i];
    hal_arg_t args[3] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8), rvhal_arg_value(&value, 8)};
    hal_ndrange_t nd = {.global = {N}, .local = {4}};
    CHECK_OK(rvhal_command_buffer_kernel(cb, c.hostile, fixture_kernel(c.d, c.hostile, "hostile_act"), &nd, args, 3,
                                         1, NULL, NULL));
    CHECK_OK(rvhal_command_buffer_end(cb));
    rvhal_event_t *e = NULL;
    CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, NULL, 0, &e));
    char want[64];
    snprintf(want, sizeof want, "code %d (", (int)list_codes[i]);
    EXPECT(rvhal_event_wait(e, RVHAL_WAIT_FOREVER), RVHAL_KERNEL_FAILED, want, "command buffer");
    rvhal_event_release(e);
    (void)rvhal_queue_finish(q, RVHAL_WAIT_FOREVER); /* reports the failure, puts the queue back */
    rvhal_queue_destroy(q);
    rvhal_command_buffer_destroy(cb);
    HEALTHY();
  }
}

static void count_lines(void *user, const char *line, size_t len) {
  (void)user;
  (void)line;
  (void)len;
  c.printed++;
}

static void print_bombs(void) {
  /* A head far past the host's tail used to keep the host in the drain
   * loop for ever (the launch timeout never fired). */
  const uint64_t heads[] = {UINT64_MAX, 1ull << 40, RVHAL_PRINT_RING_SIZE + 64};
  for (size_t i = 0; i < sizeof heads / sizeof *heads; i++) {
    char want[64];
    snprintf(want, sizeof want, "head %llu", (unsigned long long)heads[i]);
    EXPECT(act_priv(HOSTILE_PRINT_HEAD, heads[i], N, 4), RVHAL_FIRMWARE, "print ring of hart", want);
    HEALTHY();
  }
  /* Printing for ever: the launch times out, the host is not held by the
   * output, and the device restarts. */
  rvhal_device_set_print_fn(c.d, count_lines, NULL);
  c.printed = 0;
  char want[96];
  snprintf(want, sizeof want, "did not finish within %d ms (the launch timeout: this launch's", TIMEOUT_MS);
  EXPECT(act_may_hang(HOSTILE_PRINT_LOOP, 0, N, 4), RVHAL_TIMEOUT, want, "restarted");
  CHECK_MSG(c.printed > 0, "the print bomb printed %d lines", c.printed);
  rvhal_device_set_print_fn(c.d, NULL, NULL);
  HEALTHY();
}

/* A kernel that overwrote every staged program copy (a privileged one can;
 * an isolated one traps, see isolated_stores) used to break the other programs for good: their next install
 * copied the garbage. They are staged again from the host's copy. */
static void wiped_programs(void) {
  const uint64_t bytes[] = {0x00, 0xff, 0x13 /* addi: runs off the end */};
  for (size_t i = 0; i < sizeof bytes / sizeof *bytes; i++) {
    EXPECT(act_priv(HOSTILE_WIPE_STAGING, bytes[i], N, 4), RVHAL_OK, NULL, NULL);
    HEALTHY();
    EXPECT(act(HOSTILE_PRINT_ONCE, i, 1, 1), RVHAL_OK, NULL, NULL); /* its own program too */
    HEALTHY();
  }
  /* The boot configuration overwritten: the firmware rejects the next
   * (checked) descriptor; the device restarts and works. */
  EXPECT(act_priv(HOSTILE_BOOT_CONFIG, 0, N, 4), RVHAL_OK, NULL, NULL);
  int rc = act(HOSTILE_PRINT_ONCE, 7, 1, 1);
  EXPECT(rc, RVHAL_BAD_LAUNCH, "rejected launch", "device was restarted");
  HEALTHY();
}

/* Wild stores into the firmware, the control block, other harts' stacks:
 * the launch fails in some way the host notices (the firmware stops
 * answering, or reports nonsense) within the launch timeout, never a crash
 * or hang of the host, and the restarted device works. */
static void wild_stores(void) {
  static const struct {
    uint64_t what, value;
  } w[] = {{HOSTILE_WIPE_CTRL, 0}, {HOSTILE_WIPE_STACKS, 0}, {HOSTILE_WIPE_FIRMWARE, 4096},
           {HOSTILE_WIPE_FIRMWARE, 64 * 1024}};
  for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
    int rc = act_may_hang(w[i].what, w[i].value, N, 4);
    if (getenv("RVHAL_TEST_VERBOSE")) printf("  wild store %zu: %s: %s\n", i, rvhal_status_name(rc), rvhal_last_error());
    /* what the damage does depends on where the firmware is when it lands;
     * a success is possible (the kernel's own hart finished first) but then
     * the next launch must still work */
    CHECK_MSG(rc == RVHAL_OK || rc == RVHAL_TIMEOUT || rc == RVHAL_FIRMWARE || rc == RVHAL_BAD_LAUNCH ||
                  rc == RVHAL_KERNEL_TRAP || rc == RVHAL_STACK_OVERFLOW || rc == RVHAL_DEVICE_LOST,
              "wild store %zu: %s: %s", i, rvhal_status_name(rc), rvhal_last_error());
    HEALTHY();
  }
}

/* hostile_claims on device d with teams of `team` harts: every group runs
 * once, the kernel returns into the firmware (not its own program), and a
 * store there traps naming the address; then the device is healthy. */
static void claims_on(rvhal_device_t *d, hal_program_t p, uint32_t team) {
  const rvhal_device_info_t *info = rvhal_device_get_info(d);
  const uint8_t z = 0;
  CHECK_OK(rvhal_mem_fill(d, c.marks, &z, 1, N * 4));
  uint64_t what = 0;
  hal_arg_t args[2] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8)};
  hal_ndrange_t nd = {.global = {(N - 2) * team}, .local = {team}}; /* an item per hart of a team */
  rvhal_launch_options_t o = {.harts_per_group = team, .chunk_groups = 1};
  hal_kernel_t k = fixture_kernel(d, p, "hostile_claims");
  CHECK_OK(rvhal_kernel_exec_ex(d, p, k, &nd, args, 2, 1, &o));
  uint32_t m[N];
  CHECK_OK(rvhal_mem_read(d, m, c.marks, sizeof m));
  unsigned bad = 0;
  for (uint32_t g = 0; g < N - 2; g++) bad += m[2 + g] != g + 1;
  CHECK_MSG(bad == 0, "hostile_claims, teams of %u: %u groups did not run once", team, bad);
  const uint64_t ra = m[0] | (uint64_t)m[1] << 32;
  CHECK_MSG(ra < info->program_area_base || ra >= info->program_area_base + info->program_area_size,
            "hostile_claims returns into its own program (0x%llx)", (unsigned long long)ra);
  what = 1;
  char want[64];
  snprintf(want, sizeof want, "address 0x%llx", (unsigned long long)ra);
  int rc = rvhal_kernel_exec_ex(d, p, k, &nd, args, 2, 1, &o);
  const char *msg = rvhal_last_error();
  CHECK_MSG(rc == RVHAL_KERNEL_TRAP && strstr(msg, want) && strstr(msg, "store"),
            "a store into the firmware's code at 0x%llx (teams of %u): %s: %s", (unsigned long long)ra, team,
            rvhal_status_name(rc), msg);
  if (getenv("RVHAL_TEST_VERBOSE")) printf("  claim loop code (teams of %u): %s\n", team, msg);
  if (d == c.d) HEALTHY();
}

/* A kernel that makes the return ecall itself (RVHAL_ECALL_RETURN) ends its
 * hart's share: on one hart the launch completes without the groups after
 * the first, no error, no hang, and the device is healthy after it. */
static void own_return(void) {
  const uint8_t z = 0;
  CHECK_OK(rvhal_mem_fill(c.d, c.marks, &z, 1, N * 4));
  uint64_t what = 3;
  hal_arg_t args[2] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8)};
  hal_ndrange_t nd = {.global = {N - 2}, .local = {1}};
  rvhal_launch_options_t o = {.harts = 1, .chunk_groups = 1};
  CHECK_OK(rvhal_kernel_exec_ex(c.d, c.hostile, fixture_kernel(c.d, c.hostile, "hostile_claims"), &nd, args, 2, 1, &o));
  uint32_t m[N];
  CHECK_OK(rvhal_mem_read(c.d, m, c.marks, sizeof m));
  unsigned ran = 0;
  for (uint32_t g = 0; g < N - 2; g++) ran += m[2 + g] == g + 1;
  CHECK_MSG(m[2] == 1 && ran == 1, "return ecall made by the kernel: group 0 %s, %u of %u groups ran (expected 1)",
            m[2] == 1 ? "ran" : "did not run", ran, N - 2);
  HEALTHY();
}

/* Code is read-only after a program change too (issue 16, item 1): dt_hostile
 * writes its data page at `data` on hart 0 and returns (hostile_claims what
 * 4: no trap, whose return to the firmware would flush QEMU's TLB), then
 * dt_trap, whose code spans that page (its text is longer and it has no
 * data segment), is installed; its trap_store on hart 0 into that page must
 * trap. QEMU 7.2 kept the page's writable translation across the PMP
 * rewrite of the program change (no flush on a pmpaddr write): the store
 * succeeded. */
static void code_after_program_change(uint32_t data) {
  const uint8_t z = 0;
  CHECK_OK(rvhal_mem_fill(c.d, c.marks, &z, 1, N * 4));
  uint64_t what = 4;
  hal_arg_t hargs[2] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8)};
  hal_ndrange_t one_item = {.global = {1}, .local = {1}};
  rvhal_launch_options_t hart0 = {.harts = 1};
  int rc = rvhal_kernel_exec_ex(c.d, c.hostile, fixture_kernel(c.d, c.hostile, "hostile_claims"), &one_item, hargs, 2,
                                1, &hart0);
  CHECK_MSG(rc == RVHAL_OK, "hostile_claims what 4: %s: %s", rvhal_status_name(rc), rvhal_last_error());
  uint32_t m[2];
  CHECK_OK(rvhal_mem_read(c.d, m, c.marks, sizeof m));
  CHECK_MSG(m[1] == data, "dt_hostile's data at 0x%x, then 0x%x", data, m[1]);
  uint64_t info[8] = {0};
  info[TRAP_INFO_FAULT_ADDR] = data;
  hal_addr_t ib = dt_buffer(c.d, sizeof info, info);
  uint64_t bad = 0;
  hal_arg_t targs[3] = {rvhal_arg_global(ib), rvhal_arg_global(c.marks), rvhal_arg_value(&bad, 8)};
  rc = rvhal_kernel_exec_ex(c.d, c.good, fixture_kernel(c.d, c.good, "trap_store"), &one_item, targs, 3, 1, &hart0);
  const char *msg = rvhal_last_error();
  char want[64];
  snprintf(want, sizeof want, "address 0x%llx", (unsigned long long)data);
  CHECK_MSG(rc == RVHAL_KERNEL_TRAP && strstr(msg, "store") && strstr(msg, want),
            "a store into dt_trap's code at 0x%x after dt_hostile wrote its data there: %s: %s", data,
            rvhal_status_name(rc), msg);
  if (getenv("RVHAL_TEST_VERBOSE")) printf("  code after a program change: %s\n", msg);
  CHECK_OK(rvhal_mem_free(c.d, ib));
  HEALTHY();
}

/* Nothing of one program is left for the next (issue 16, item 3): dt_hostile
 * fills every hart's stack below its frame, and the work-item stacks its
 * groups may use, with RESIDUE_MARK; then dt_trap's kernel on each hart
 * counts the marks it can read there: none.
 * `stacks` and `stack_size` come from HOSTILE_LAYOUT. */
static void residue(uint64_t stacks, uint64_t stack_size) {
  const uint32_t harts = rvhal_device_get_info(c.d)->num_harts;
  CHECK_MSG(stacks % 65536 == 0 && stack_size % 65536 == 0 && stack_size >> 16 < 65536,
            "stacks at 0x%llx, %llu bytes each: not in 64 KiB units", (unsigned long long)stacks,
            (unsigned long long)stack_size);
  uint64_t value = stacks | stack_size >> 16;
  EXPECT(act(HOSTILE_MARK_STACK, value, harts * 4, 4), RVHAL_OK, NULL, NULL); /* groups of 4: 3 work-item stacks */
  /* a count per hart, and at least the two words of mem_code_tail below (one-hart boards) */
  hal_addr_t out = dt_buffer(c.d, (harts < 2 ? 2 : harts) * 4, NULL);
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&value, 8)};
  hal_ndrange_t nd = {.global = {harts}, .local = {1}};
  rvhal_launch_options_t o = {.chunk_groups = 1};
  uint32_t n[RVHAL_MAX_HARTS] = {0};
  for (int restarted = 0; restarted < 2; restarted++) {
    if (restarted) {
      /* Again across a device restart (a forged completion record makes
       * one): RAM survives it, the firmware's record of how much of each
       * pool was used does not, so the first program after it clears
       * every hart's whole pool. */
      EXPECT(act(HOSTILE_MARK_STACK, value, harts * 4, 4), RVHAL_OK, NULL, NULL);
      EXPECT(act_priv(HOSTILE_FORGE_COMPLETION, 0x7fffffff, N, 4), RVHAL_FIRMWARE, "fault_hart 2147483647",
             "device was restarted");
    }
    CHECK_OK(rvhal_kernel_exec_ex(c.d, c.good, fixture_kernel(c.d, c.good, "trap_residue"), &nd, args, 2, 1, &o));
    CHECK_OK(rvhal_mem_read(c.d, n, out, harts * 4));
    uint64_t total = 0;
    for (uint32_t h = 0; h < harts; h++) total += n[h];
    CHECK_MSG(total == 0, "the next program read %llu marker words the previous one left on the stacks%s",
              (unsigned long long)total, restarted ? " (after a device restart)" : "");
  }
  /* The program area: dt_mem, shorter than dt_hostile and without a data
   * segment, finds nothing of dt_hostile's code after its own on its last
   * code page (and cannot reach dt_hostile's data page above it). */
  EXPECT(act(HOSTILE_PRINT_ONCE, 0, 1, 1), RVHAL_OK, NULL, NULL); /* dt_hostile installed */
  hal_program_t mem = fixture_program(c.d, "dt_mem");
  hal_arg_t targ = rvhal_arg_global(out);
  hal_ndrange_t one = {.global = {1}, .local = {1}};
  CHECK_OK(rvhal_kernel_exec(c.d, mem, fixture_kernel(c.d, mem, "mem_code_tail"), &one, &targ, 1, 1));
  CHECK_OK(rvhal_mem_read(c.d, n, out, 8));
  CHECK_MSG(n[1] > 0, "dt_mem's code ends on a page boundary: no tail to check");
  CHECK_MSG(n[0] == 0, "the next program read %u nonzero words of the previous one's code after its own (of %u)",
            n[0], n[1]);
  CHECK_OK(rvhal_program_free(c.d, mem));
  CHECK_OK(rvhal_mem_free(c.d, out));
  HEALTHY();
}

/* One probe: an isolated kernel on hart 0 stores to (store) or loads from
 * `addr`; it must fault naming the address, or (allowed) succeed. */
static unsigned probe_at(uint64_t addr, int store, int allowed, const char *what) {
  rvhal_launch_options_t one = {.harts = 1};
  int rc = act_opts(store ? HOSTILE_STORE_AT : HOSTILE_LOAD_AT, addr, 1, 1, &one);
  const char *msg = rvhal_last_error();
  char want[64];
  snprintf(want, sizeof want, "address 0x%llx", (unsigned long long)addr);
  if (allowed) {
    CHECK_MSG(rc == RVHAL_OK, "%s of %s at 0x%llx (a kernel's own memory): %s: %s", store ? "store" : "load", what,
              (unsigned long long)addr, rvhal_status_name(rc), msg);
    return rc != RVHAL_OK;
  }
  const int ok = rc == RVHAL_KERNEL_TRAP && strstr(msg, want) && strstr(msg, store ? "store" : "load");
  CHECK_MSG(ok, "%s of %s at 0x%llx did not fault: %s: %s", store ? "store" : "load", what, (unsigned long long)addr,
            rvhal_status_name(rc), msg);
  return !ok;
}

/* Issue 16, item 13: every page of the firmware image, and the first,
 * middle and last page of every other region of the device's layout a
 * kernel is not meant to reach, faults for an isolated kernel's stores and
 * loads (PMP on M-mode boards, page tables under SBI); a few pages it is
 * meant to reach do not (so the probe can tell). Run on hart 0: the other
 * harts' stacks and pools are not its own. Then the device is healthy. */
static void probe_layout(void) {
  EXPECT(act_priv(HOSTILE_LAYOUT, 0, 1, 1), RVHAL_OK, NULL, NULL);
  uint32_t m[2 * HOSTILE_LAYOUT_VALUES];
  CHECK_OK(rvhal_mem_read(c.d, m, c.marks, sizeof m));
  uint64_t v[HOSTILE_LAYOUT_VALUES];
  for (int i = 0; i < HOSTILE_LAYOUT_VALUES; i++) v[i] = m[2 * i] | (uint64_t)m[2 * i + 1] << 32;
  const uint64_t fw = v[0], ctrl = v[1], staging = v[2], stacks = v[3], S = v[4], harts = v[5], pools = v[6], P = v[7];
  const uint64_t traces = v[8], T = v[9], heap = v[10], heap_size = v[11], staging_size = v[12], prog = v[13];
  const uint64_t prog_size = v[14], ram = v[15], ram_size = v[16];
  const uint64_t pg = 4096;
  CHECK_MSG(harts >= 1 && harts <= RVHAL_MAX_HARTS && S % pg == 0 && P % pg == 0 && fw % pg == 0,
            "layout: %llu harts, stacks of %llu, pools of %llu, firmware at 0x%llx", (unsigned long long)harts,
            (unsigned long long)S, (unsigned long long)P, (unsigned long long)fw);
  if (harts < 1 || harts > RVHAL_MAX_HARTS || S % pg || P % pg || fw % pg) return;
  /* The firmware's pages a kernel is meant to reach: its U-mode claim loop
   * (executable and readable: where a kernel alone in its team returns to,
   * hostile_claims) and the claim page after it (read and write). */
  const uint8_t z = 0;
  CHECK_OK(rvhal_mem_fill(c.d, c.marks, &z, 1, N * 4));
  uint64_t what = 0;
  hal_arg_t cargs[2] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8)};
  hal_ndrange_t cnd = {.global = {N - 2}, .local = {1}};
  rvhal_launch_options_t alone = {.harts = 1, .chunk_groups = 1};
  CHECK_OK(rvhal_kernel_exec_ex(c.d, c.hostile, fixture_kernel(c.d, c.hostile, "hostile_claims"), &cnd, cargs, 2, 1,
                                &alone));
  uint32_t ra[2];
  CHECK_OK(rvhal_mem_read(c.d, ra, c.marks, sizeof ra));
  const uint64_t loop_page = (ra[0] | (uint64_t)ra[1] << 32) & ~(pg - 1), shared_page = loop_page + pg;
  CHECK_MSG(loop_page >= fw && loop_page < fw + RVHAL_CMDLIST_OFFSET, "the U-mode claim loop at 0x%llx",
            (unsigned long long)loop_page);
  unsigned probes = 0, missed = 0;
  /* every page of the firmware image (RVHAL_CMDLIST_OFFSET: where the image's room ends) */
  for (uint64_t a = fw; a < fw + RVHAL_CMDLIST_OFFSET; a += pg, probes += 2) {
    missed += probe_at(a + 8, 1, a == shared_page, "the firmware image");
    missed += probe_at(a + 8, 0, a == shared_page || a == loop_page, "the firmware image");
  }
  struct {
    const char *what;
    uint64_t lo, hi;
  } r[4 * RVHAL_MAX_HARTS + 16];
  size_t n = 0;
#define REGION(w, l, h) \
  do {                    \
    r[n].what = (w);      \
    r[n].lo = (l);        \
    r[n].hi = (h);        \
    n++;                  \
  } while (0)
  REGION("the command-list area", fw + RVHAL_CMDLIST_OFFSET, fw + RVHAL_CTRL_OFFSET);
  REGION("the control block", ctrl, ctrl + sizeof(rvhal_ctrl_t));
  REGION("the print rings", fw + RVHAL_PRINT_OFFSET, fw + RVHAL_PRINT_OFFSET + harts * RVHAL_PRINT_RING_SIZE);
  REGION("the rest of the firmware region", fw + RVHAL_PT_OFFSET, fw + RVHAL_FW_REGION_SIZE);
  if (fw > ram) REGION("RAM below the firmware", ram, fw);
  REGION("the program area between firmware and programs", fw + RVHAL_FW_REGION_SIZE, prog);
  REGION("the program area above the program", prog + prog_size - 64 * pg, prog + prog_size);
  for (uint64_t h = 0; h < harts; h++) {
    REGION("a stack guard", stacks + h * S, stacks + h * S + RVHAL_STACK_GUARD);
    REGION("a work-item stack pool's guard", pools + h * P, pools + h * P + RVHAL_STACK_GUARD);
    if (h == 0) continue;
    REGION("another hart's stack", stacks + h * S + RVHAL_STACK_GUARD, stacks + (h + 1) * S);
    REGION("another hart's work-item stacks", pools + h * P + RVHAL_STACK_GUARD, pools + (h + 1) * P);
  }
  REGION("the timeline buffers", traces, traces + harts * T);
  if (heap > traces + harts * T) REGION("between the timelines and global memory", traces + harts * T, heap);
  REGION("the staged program copies", staging, staging + staging_size);
  if (ram + ram_size > staging + staging_size) REGION("RAM above the staging area", staging + staging_size, ram + ram_size);
#undef REGION
  for (size_t i = 0; i < n; i++) {
    const uint64_t lo = r[i].lo & ~(pg - 1), hi = (r[i].hi + pg - 1) & ~(pg - 1);
    if (hi <= lo) continue;
    const uint64_t at[3] = {lo, lo + (hi - lo) / 2 / pg * pg, hi - pg};
    for (int k = 0; k < 3; k++, probes += 2) {
      missed += probe_at(at[k] + 16, 1, 0, r[i].what);
      missed += probe_at(at[k] + 16, 0, 0, r[i].what);
    }
  }
  /* what a kernel is meant to reach: global memory, its own stack */
  missed += probe_at(c.marks + 64, 1, 1, "global memory");
  missed += probe_at(heap + heap_size - 64, 0, 1, "global memory");
  missed += probe_at(stacks + RVHAL_STACK_GUARD + 64, 0, 1, "its own stack");
  if (getenv("RVHAL_TEST_VERBOSE")) printf("  probed %u pages of %zu regions and the firmware image: %u wrong\n", probes, n, missed);
  HEALTHY();
}

/* An isolated (U-mode) kernel's store into the firmware, the control block,
 * a staged program copy or another hart's stack traps at once, naming the
 * address, and the next launch is correct with every other buffer intact. */
static void isolated_stores(void) {
  EXPECT(act_priv(HOSTILE_LAYOUT, 0, 1, 1), RVHAL_OK, NULL, NULL);
  uint32_t m[12];
  CHECK_OK(rvhal_mem_read(c.d, m, c.marks, sizeof m));
  uint64_t v[6];
  for (int i = 0; i < 6; i++) v[i] = m[2 * i] | (uint64_t)m[2 * i + 1] << 32;
  const uint64_t harts = v[5], last = harts - 1;
  residue(v[3], v[4]);
  struct {
    const char *what;
    uint64_t addr;
  } t[] = {{"firmware image", v[0] + 256},
           {"control block", v[1] + 64},
           {"staged program copy", v[2] + 16},
           {"another hart's stack", v[3] + last * v[4] + v[4] / 2}};
  rvhal_launch_options_t one = {.harts = 1}; /* runs on hart 0; the stack is the last hart's */
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    if (i == 3 && harts < 2) continue;
    char want[64];
    snprintf(want, sizeof want, "address 0x%llx", (unsigned long long)t[i].addr);
    int rc = act_opts(HOSTILE_STORE_AT, t[i].addr, N, 4, &one);
    const char *msg = rvhal_last_error();
    CHECK_MSG(rc == RVHAL_KERNEL_TRAP, "store into the %s: %s: %s", t[i].what, rvhal_status_name(rc), msg);
    /* PMP (M-mode firmware): an access fault; page tables (S-mode): a page fault */
    const char *fault = strcmp(rvhal_device_get_info(c.d)->firmware_mode, "S") ? "store access fault (mcause 7)"
                                                                              : "store page fault (mcause 15)";
    CHECK_MSG(strstr(msg, fault) && strstr(msg, want), "store into the %s: message \"%s\" lacks \"%s\" or \"%s\"",
              t[i].what, msg, fault, want);
    if (i == 3) CHECK_MSG(strstr(msg, "on hart 0:") != NULL, "store into another hart's stack: %s", msg);
    if (getenv("RVHAL_TEST_VERBOSE")) printf("  %s: %s\n", t[i].what, msg);
    HEALTHY();
    /* The same address handed to the firmware as print text: the ecall
     * stops the launch naming it, and the firmware does not read it. */
    rc = act_opts(HOSTILE_ECALL_PRINT_AT, t[i].addr, N, 4, &one);
    msg = rvhal_last_error();
    CHECK_MSG(rc == RVHAL_KERNEL_TRAP && strstr(msg, "(mcause 8)") && strstr(msg, want) &&
                  strstr(msg, "print: text at address") && strstr(msg, "outside its memory"),
              "print ecall with text in the %s: %s: %s", t[i].what, rvhal_status_name(rc), msg);
    HEALTHY();
  }
  /* The firmware's code a kernel returns to (its U-mode claim loop, when it
   * claims its groups itself; a team goes through the firmware's loop). */
  const rvhal_device_info_t *info = rvhal_device_get_info(c.d);
  claims_on(c.d, c.hostile, 1);
  claims_on(c.d, c.hostile, info->num_harts);
  own_return();
  /* Its own program: the data segment is writable, the code is not. */
  {
    uint64_t what = 2;
    const uint8_t z = 0;
    CHECK_OK(rvhal_mem_fill(c.d, c.marks, &z, 1, N * 4));
    hal_arg_t args[2] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8)};
    hal_ndrange_t nd = {.global = {1}, .local = {1}};
    int rc = rvhal_kernel_exec(c.d, c.hostile, fixture_kernel(c.d, c.hostile, "hostile_claims"), &nd, args, 2, 1);
    const char *msg = rvhal_last_error();
    uint32_t m[4];
    CHECK_OK(rvhal_mem_read(c.d, m, c.marks, sizeof m));
    CHECK_MSG(m[0] == 42, "a store into the kernel's own data segment (at 0x%x): read back %u", m[1], m[0]);
    const uint64_t code = m[2] | (uint64_t)m[3] << 32;
    char want[64];
    snprintf(want, sizeof want, "address 0x%llx", (unsigned long long)code);
    CHECK_MSG(code >= info->program_area_base && code < info->program_area_base + info->program_area_size,
              "hostile_claims at 0x%llx", (unsigned long long)code);
    CHECK_MSG(rc == RVHAL_KERNEL_TRAP && strstr(msg, "store") && strstr(msg, want),
              "a store into the kernel's own code (%s): %s: %s", want, rvhal_status_name(rc), msg);
    if (getenv("RVHAL_TEST_VERBOSE")) printf("  own code: %s\n", msg);
    HEALTHY();
    code_after_program_change(m[1]);
  }
  /* Privileged state is not the kernel's to read (the S-mode firmware's
   * sstatus; an M-mode one's too, sstatus being a view of mstatus). */
  EXPECT(act(HOSTILE_READ_STATUS, 0, N, 4), RVHAL_KERNEL_TRAP, "illegal instruction", "(mcause 2)");
  HEALTHY();
  /* Text the kernel may read prints. */
  EXPECT(act(HOSTILE_PRINT_ONCE, 5, 1, 1), RVHAL_OK, NULL, NULL);
  HEALTHY();
}

/* The most harts the board gives, 16 MiB of local memory each, in one
 * team and then alone: every hart's stack spans several 2 MiB pages (page
 * tables: the most 4 KiB tables a hart needs), and the map changes with
 * the team at each launch. */
static void big_teams(void) {
  const rvhal_device_info_t *info = rvhal_device_get_info(c.d);
  rvhal_device_options_t o = {.num_harts = info->max_harts, .local_mem_size = 16u << 20, .ram_size = 1ull << 30,
                              .launch_timeout_ms = TIMEOUT_MS * 4};
  rvhal_device_t *d = NULL;
  CHECK_OK(rvhal_device_create(fixture_device_index(), &o, &d));
  if (!d) return;
  hal_program_t p = fixture_program(d, "dt_hostile");
  hal_addr_t saved = c.marks;
  c.marks = dt_buffer(d, N * 4, NULL);
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  claims_on(d, p, harts);
  claims_on(d, p, 1);
  claims_on(d, p, harts);
  c.marks = saved;
  rvhal_device_delete(d);
  HEALTHY();
}

static void traps(void) {
  static const struct {
    uint64_t what;
    const char *cause;
  } t[] = {{HOSTILE_ECALL, "environment call from U-mode"},
           {HOSTILE_EBREAK, "breakpoint"},
           {HOSTILE_JUMP_WILD, NULL}, /* instruction access fault (1), or page fault (12) under page tables */
           /* store/AMO address misaligned (6); QEMU running one hart (no parallel TCG) does an AMO as a load
              and a store, and the load traps first: load address misaligned (4) */
           {HOSTILE_AMO_MISALIGNED, "address misaligned (mcause "}};
  const int paged = strcmp(rvhal_device_get_info(c.d)->firmware_mode, "S") == 0;
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    const char *cause = t[i].cause ? t[i].cause : paged ? "(mcause 12)" : "(mcause 1)";
    EXPECT(act(t[i].what, 0, N, 4), RVHAL_KERNEL_TRAP, "hostile_act trapped on hart", cause);
    if (t[i].what == HOSTILE_AMO_MISALIGNED) {
      const char *msg = rvhal_last_error();
      CHECK_MSG(strstr(msg, "(mcause 6)") || strstr(msg, "(mcause 4)"), "misaligned AMO: \"%s\": mcause 6 or 4 "
                "expected", msg);
    }
    /* the firmware's own reason for an ecall it refuses */
    if (t[i].what == HOSTILE_ECALL)
      CHECK_MSG(strstr(rvhal_last_error(), "unknown environment call number -1 (a7)") != NULL, "unknown ecall: %s",
                rvhal_last_error());
    HEALTHY();
  }
  /* work-items 1..3 of each group call barrier(), item 0 does not */
  EXPECT(act(HOSTILE_DIVERGE, 0, N, 4), RVHAL_BARRIER_DIVERGENCE, "hostile_act", "out of step");
  HEALTHY();
  /* in the last group only, the first, a middle or the last work-item skips
   * the second of two barriers: each is caught, however the items' turns
   * reach it */
  static const uint64_t skips[] = {0, 1, 3};
  for (size_t i = 0; i < sizeof skips / sizeof *skips; i++) {
    EXPECT(act(HOSTILE_DIVERGE_LATE, skips[i], N, 4), RVHAL_BARRIER_DIVERGENCE, "hostile_act", "out of step");
    HEALTHY();
  }
  /* and the same kernel with every item in step runs */
  CHECK_OK(act(HOSTILE_DIVERGE_LATE, 4, N, 4));
}

/* QEMU killed by its pid (from the library) during a launch. */
static void *killer(void *arg) {
  long pid = *(long *)arg;
  struct timespec ts = {0, 300 * 1000000L};
  nanosleep(&ts, NULL);
  kill((pid_t)pid, SIGKILL);
  return NULL;
}

static void device_lost(void) {
  long pid = 0;
  CHECK_OK(rvhal_device_host_pid(c.d, &pid));
  CHECK_MSG(pid > 0, "device process id %ld", pid);
  if (pid <= 0) return;
  pthread_t th;
  pthread_create(&th, NULL, killer, &pid);
  int rc = act_may_hang(HOSTILE_SPIN, 0, N, 4);
  pthread_join(th, NULL);
  EXPECT(rc, RVHAL_DEVICE_LOST, "QEMU exited (signal 9)", "device was restarted");
  long pid2 = 0;
  CHECK_OK(rvhal_device_host_pid(c.d, &pid2));
  CHECK_MSG(pid2 != pid, "the restarted device still has pid %ld", pid);
  HEALTHY();
}

/* A print callback that launches on the device it prints for. */
static void busy_print(void *user, const char *line, size_t len) {
  (void)user;
  (void)line;
  (void)len;
  c.printed++;
  uint64_t what = HOSTILE_PRINT_ONCE, value = 0;
  hal_arg_t args[3] = {rvhal_arg_global(c.marks), rvhal_arg_value(&what, 8), rvhal_arg_value(&value, 8)};
  hal_ndrange_t nd = {.global = {1}, .local = {1}};
  c.busy_rc = rvhal_kernel_exec(c.d, c.hostile, fixture_kernel(c.d, c.hostile, "hostile_act"), &nd, args, 3, 1);
  snprintf(c.busy_msg, sizeof c.busy_msg, "%s", rvhal_last_error());
}

static void busy(void) {
  rvhal_print_fn_t fn;
  void *user;
  rvhal_device_get_print_fn(c.d, &fn, &user);
  rvhal_device_set_print_fn(c.d, busy_print, NULL);
  c.busy_rc = 1;
  c.printed = 0;
  EXPECT(act(HOSTILE_PRINT_ONCE, 1, 1, 1), RVHAL_OK, NULL, NULL);
  CHECK_EQ_U64(c.printed, 1);
  CHECK_MSG(c.busy_rc == RVHAL_BUSY, "launch from the print callback: %s: %s", rvhal_status_name(c.busy_rc),
            c.busy_msg);
  CHECK_MSG(strstr(c.busy_msg, "is running launch") != NULL, "BUSY message: %s", c.busy_msg);
  rvhal_device_set_print_fn(c.d, fn, user);
  HEALTHY();
}

static void missing_tool(void) {
  rvhal_device_options_t o = {.num_harts = 1, .qemu_path = "/nonexistent/qemu-system-riscv64"};
  rvhal_device_t *d = NULL;
  CHECK_FAILS(rvhal_device_create(0, &o, &d), RVHAL_MISSING_TOOL, "/nonexistent/qemu-system-riscv64 not found");
  CHECK(d == NULL);
  /* RVHAL_QEMU, a name not on PATH */
  setenv("RVHAL_QEMU", "rvhal-no-such-qemu", 1);
  o.qemu_path = NULL;
  CHECK_FAILS(rvhal_device_create(0, &o, &d), RVHAL_MISSING_TOOL, "rvhal-no-such-qemu not found");
  unsetenv("RVHAL_QEMU");
  /* and a new device works */
  CHECK_OK(rvhal_device_create(0, &o, &d));
  rvhal_device_delete(d);
  HEALTHY();
}

/* Frames of these sizes, touched only at their lowest byte, on every hart:
 * each is caught (a trap or a stack overflow), never a silent success or a
 * hang, and the next launch works. */
static void stack_frames(void) {
  const rvhal_device_info_t *info = rvhal_device_get_info(c.d);
  const uint64_t kib = 1024, sizes[] = {80 * kib, 128 * kib, 192 * kib, 200 * kib, 256 * kib, 1024 * kib};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    uint64_t bytes = sizes[i] + info->local_mem_size;
    /* one work-item, then one per hart (the same case on a one-hart device) */
    const uint64_t item_counts[2] = {1, info->num_harts};
    for (size_t ic = 0; ic < (info->num_harts > 1 ? 2u : 1u); ic++) {
      const uint64_t items = item_counts[ic];
      int rc = act(HOSTILE_STACK_BOTTOM, bytes, items, 1);
      /* a probed frame stops in the guard below the stack: named as such,
       * under either isolation scheme (access fault or page fault) */
      if (rc == RVHAL_KERNEL_TRAP && items == 1)
        CHECK_MSG(strstr(rvhal_last_error(), "in the guard below hart 0's stack") != NULL,
                  "a %llu-byte frame on hart 0: no guard hint: %s", (unsigned long long)bytes, rvhal_last_error());
      CHECK_MSG(rc == RVHAL_KERNEL_TRAP || rc == RVHAL_STACK_OVERFLOW,
                "a %llu-byte frame on %llu work-item(s): %s: %s", (unsigned long long)bytes,
                (unsigned long long)items, rvhal_status_name(rc), rvhal_last_error());
      if (getenv("RVHAL_TEST_VERBOSE")) printf("  %llu bytes: %s\n", (unsigned long long)bytes, rvhal_last_error());
      HEALTHY();
    }
    /* An unprobed frame of the same size on hart 0 (a kernel built without
     * -fstack-clash-protection): below hart 0's guard lies the program
     * area, of which a kernel may reach only the installed program. */
    rvhal_launch_options_t hart0 = {.harts = 1};
    int urc = act_opts(HOSTILE_SP_BELOW, bytes, 1, 1, &hart0);
    CHECK_MSG(urc == RVHAL_KERNEL_TRAP || urc == RVHAL_STACK_OVERFLOW,
              "an unprobed %llu-byte frame on hart 0: %s: %s", (unsigned long long)bytes, rvhal_status_name(urc),
              rvhal_last_error());
    if (getenv("RVHAL_TEST_VERBOSE")) printf("  unprobed %llu bytes: %s\n", (unsigned long long)bytes, rvhal_last_error());
    HEALTHY();
    /* the same frame on a work-item stack (after a barrier: item 1 runs on
     * its own small stack in the hart's pool) */
    int rc = act(HOSTILE_FIBER_STACK, bytes, 4, 4);
    CHECK_MSG(rc == RVHAL_KERNEL_TRAP || rc == RVHAL_STACK_OVERFLOW, "a %llu-byte frame on a work-item stack: %s: %s",
              (unsigned long long)bytes, rvhal_status_name(rc), rvhal_last_error());
    if (getenv("RVHAL_TEST_VERBOSE")) printf("  fiber %llu bytes: %s\n", (unsigned long long)bytes, rvhal_last_error());
    HEALTHY();
  }
}

int main(int argc, char **argv) {
  rvhal_device_options_t o = {0}; /* the device's launch timeout: the suite's, for a loaded host */
  c.d = fixture_device_opts(2, &o);
  c.hostile = fixture_program(c.d, "dt_hostile");
  c.good = fixture_program(c.d, "dt_trap");
  c.keep_size = fixture_link_bytes(c.d, sizeof c.keep_host, 1024, 64, 2.0); /* read back after every case */
  dt_fill_random(c.keep_host, c.keep_size, 77);
  c.keep = dt_buffer(c.d, c.keep_size, c.keep_host);
  c.marks = dt_buffer(c.d, N * 4, NULL);
  c.out = dt_buffer(c.d, N * 4, NULL);
  HEALTHY();
  /* no argument: all but "stack"; or the parts named */
  static const struct {
    const char *name;
    void (*fn)(void);
  } parts[] = {{"forged", forged_records}, {"codes", fail_codes}, {"print", print_bombs}, {"wiped", wiped_programs}, {"traps", traps}, {"wild", wild_stores}, {"isolated", isolated_stores}, {"teams", big_teams},
               {"lost", device_lost},      {"busy", busy},         {"missing", missing_tool}, {"stack", stack_frames}, {"probe", probe_layout}};
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
    int run = argc == 1 && strcmp(parts[i].name, "stack") != 0 && strcmp(parts[i].name, "probe") != 0;
    for (int a = 1; a < argc; a++) run |= !strcmp(argv[a], parts[i].name);
    if (run) parts[i].fn();
  }
  rvhal_device_delete(c.d);
  pid_t pids[8];
  CHECK_EQ_U64(dt_find_qemu(getpid(), NULL, pids, 8), 0);
  return check_result("hostile");
}
