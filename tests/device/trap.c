/* Kernels that fault or never end (dt_trap). A fault (illegal instruction,
 * load from and store to the address the board reports as faulting, also while the other
 * work-items of the group wait at a barrier) makes kernel_exec return
 * RVHAL_KERNEL_TRAP with a message naming the kernel, the hart, the cause,
 * the pc with its symbol, and the address; a kernel that loops forever with
 * launch_timeout_ms = TIMEOUT_MS gets RVHAL_TIMEOUT and a restarted device. In
 * every case global memory written before (by the host and by the kernel)
 * is intact, the device keeps exactly one QEMU process, and the next
 * launches work. A work-item overflowing its stack is reported
 * (RVHAL_STACK_OVERFLOW); with the argument "stack", every hart overflows
 * into its neighbour's stack, and the device must still work after. */
#include "base/cpu_wait.h" /* host/src: how long QEMU waited for a CPU */
#include "dev_util.h"
#include "dt_shared.h"

#define N 64
/* Faults must be reported well before it: generous, for a loaded 2-core
 * machine running the sanitizer build (one sanitize run failed at 1500).
 * Time QEMU waited for a CPU counts neither in the library's deadline nor
 * in this test's bounds (base/cpu_wait.h). */
#define TIMEOUT_MS 3000

typedef struct {
  rvhal_device_t *d;
  hal_program_t prog;
  hal_addr_t keep, info, marks, out;
  uint8_t keep_host[65536];
  size_t keep_size; /* of keep_host, checked after each case: less over a slow debug link */
  double create_s;  /* how long creating the device took */
  uint32_t k;
} ctx_t;

static ctx_t c;

static hal_kernel_t kern(const char *name) { return fixture_kernel(c.d, c.prog, name); }

/* The device still works: trap_good gives the right result, the host's
 * buffer is intact, and this process has exactly one QEMU. */
static void healthy_at(int line) {
  dt_check_healthy(c.d, c.prog, c.out, N, ++c.k, c.keep, c.keep_host, c.keep_size, line);
}
#define HEALTHY() healthy_at(__LINE__)

static void reset_marks(void) {
  const uint8_t z = 0;
  CHECK_OK(rvhal_mem_fill(c.d, c.info, &z, 1, 8 * 8));
  CHECK_OK(rvhal_mem_fill(c.d, c.marks, &z, 1, N * 4));
  const uint64_t fault_addr = rvhal_device_get_info(c.d)->fault_addr;
  CHECK_OK(rvhal_mem_write(c.d, c.info + 8 * TRAP_INFO_FAULT_ADDR, &fault_addr, 8));
}

static int launch(const char *name, uint64_t items, uint64_t local, uint64_t bad_item,
                  const rvhal_launch_options_t *opt) {
  hal_arg_t args[3] = {rvhal_arg_global(c.info), rvhal_arg_global(c.marks), rvhal_arg_value(&bad_item, 8)};
  hal_ndrange_t nd = {.global = {items}, .local = {local}};
  return rvhal_kernel_exec_ex(c.d, c.prog, kern(name), &nd, args, 3, 1, opt);
}

/* One faulting launch and everything its message must say. */
static void fault(const char *name, const char *cause, int mcause, int64_t addr, uint64_t items, uint64_t local,
                  uint64_t bad_item, const rvhal_launch_options_t *opt) {
  reset_marks();
  long pid = 0;
  rvhal_cpu_wait_t starved;
  /* under a stub rvhal did not start (external_stub.c) the device has no
   * process of this program's: no CPU wait to subtract */
  if (!getenv("RVHAL_GDB_REMOTE")) CHECK_OK(rvhal_device_host_pid(c.d, &pid));
  rvhal_cpu_wait_start(&starved, pid);
  double t0 = dt_now();
  int rc = launch(name, items, local, bad_item, opt);
  double dt = dt_now() - t0 - (double)rvhal_cpu_wait_since(&starved) / 1e9; /* QEMU's own time */
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", rvhal_last_error());
  CHECK_MSG(rc == RVHAL_KERNEL_TRAP, "%s (%llu items / %llu, item %llu): %s: %s", name, (unsigned long long)items,
            (unsigned long long)local, (unsigned long long)bad_item, rvhal_status_name(rc), msg);
  /* over a slow debug link the launch's own traffic takes seconds too */
  const double most = TIMEOUT_MS / 1000.0 + fixture_link_launch_s(c.d);
  CHECK_MSG(dt < most, "%s: took %.2f s (bound %.2f s), the fault was not reported at once", name, dt, most);
  uint64_t info[8];
  CHECK_OK(rvhal_mem_read(c.d, info, c.info, sizeof info));
  uint32_t marks[N];
  CHECK_OK(rvhal_mem_read(c.d, marks, c.marks, sizeof marks));
  /* Global memory the kernel wrote before faulting is there. */
  CHECK_MSG(info[2] == TRAP_REACHED, "%s: the faulting item did not record reaching the fault", name);
  CHECK_EQ_U64(marks[bad_item], bad_item + 1);
  char want[160];
  const char *needles[6];
  char hart[32], pc[48], mc[32], ad[48], sym[64], kn[80];
  snprintf(kn, sizeof kn, "kernel %s ", name);
  snprintf(hart, sizeof hart, "on hart %llu:", (unsigned long long)info[1]);
  snprintf(mc, sizeof mc, "%s (mcause %d)", cause, mcause);
  snprintf(pc, sizeof pc, "at pc 0x%llx (", (unsigned long long)info[0]);
  snprintf(sym, sizeof sym, "(%s", name); /* the kernel's entry or its item function */
  snprintf(ad, sizeof ad, "address 0x%llx", (unsigned long long)addr);
  needles[0] = kn;
  needles[1] = hart;
  needles[2] = mc;
  needles[3] = pc;
  needles[4] = sym;
  needles[5] = addr >= 0 ? ad : NULL;
  for (int i = 0; i < 6; i++) {
    if (!needles[i]) continue;
    snprintf(want, sizeof want, "%s", needles[i]);
    CHECK_MSG(strstr(msg, want) != NULL, "%s: message \"%s\" lacks \"%s\"", name, msg, want);
  }
  if (getenv("RVHAL_TEST_VERBOSE")) printf("  %s: %s (%.3f s)\n", name, msg, dt);
}

static void no_fault(const char *name, uint64_t items, uint64_t local) {
  reset_marks();
  int rc = launch(name, items, local, UINT64_MAX, NULL);
  CHECK_MSG(rc == RVHAL_OK, "%s without a fault: %s: %s", name, rvhal_status_name(rc), rvhal_last_error());
  uint32_t marks[N];
  CHECK_OK(rvhal_mem_read(c.d, marks, c.marks, sizeof marks));
  unsigned bad = 0;
  for (uint32_t i = 0; i < items; i++) bad += marks[i] != i + 1;
  CHECK_MSG(bad == 0, "%s without a fault: %u items did not run", name, bad);
}

/* Under an S-mode firmware kernels are isolated by page tables: a bad
 * access is a page fault, under an M-mode one (PMP) an access fault. */
static int paged(void) { return strcmp(rvhal_device_get_info(c.d)->firmware_mode, "S") == 0; }
#define STORE_FAULT (paged() ? "store page fault" : "store access fault")
#define STORE_CAUSE (paged() ? 15 : 7)

static void faults(void) {
  const uint32_t h = rvhal_device_get_info(c.d)->num_harts;
  struct {
    const char *name, *cause;
    int mcause;
    int64_t addr;
  } kinds[] = {
      {"trap_illegal", "illegal instruction", 2, -1},
      {"trap_load", paged() ? "load page fault" : "load access fault", paged() ? 13 : 5,
       (int64_t)rvhal_device_get_info(c.d)->fault_addr},
      {"trap_store", STORE_FAULT, STORE_CAUSE, (int64_t)rvhal_device_get_info(c.d)->fault_addr},
  };
  for (int i = 0; i < 3; i++) {
    no_fault(kinds[i].name, N, 4);
    HEALTHY();
    fault(kinds[i].name, kinds[i].cause, kinds[i].mcause, kinds[i].addr, 1, 1, 0, NULL);
    HEALTHY();
    fault(kinds[i].name, kinds[i].cause, kinds[i].mcause, kinds[i].addr, N, 4, 37, NULL);
    HEALTHY();
    fault(kinds[i].name, kinds[i].cause, kinds[i].mcause, kinds[i].addr, N, 4, N - 1, NULL);
    HEALTHY();
    /* One group on a team of harts. */
    rvhal_launch_options_t team = {.harts_per_group = h};
    fault(kinds[i].name, kinds[i].cause, kinds[i].mcause, kinds[i].addr, 16, 16, 11, &team);
    HEALTHY();
    /* The same kernel right after its fault, without one. */
    no_fault(kinds[i].name, N, 8);
    HEALTHY();
  }
  /* The other items of the group wait at a barrier while one faults: on one
   * hart (the waiting items are contexts) and on a team of harts. */
  rvhal_launch_options_t solo = {.harts_per_group = 1}, team = {.harts_per_group = h};
  fault("trap_barrier", "illegal instruction", 2, -1, 8, 8, 5, &solo);
  HEALTHY();
  fault("trap_barrier", "illegal instruction", 2, -1, 8, 8, 0, &solo);
  HEALTHY();
  fault("trap_barrier", "illegal instruction", 2, -1, 8, 8, 5, &team);
  HEALTHY();
  fault("trap_barrier", "illegal instruction", 2, -1, 32, 8, 21, NULL);
  HEALTHY();
}

static void endless(void) {
  reset_marks();
  /* This kernel's own writes before it hangs, and the host's. */
  double t0 = dt_now();
  int rc = launch("trap_loop", N, 4, 9, NULL);
  double dt = dt_now() - t0;
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", rvhal_last_error());
  CHECK_MSG(rc == RVHAL_TIMEOUT, "trap_loop: %s: %s", rvhal_status_name(rc), msg);
  char ms[32];
  snprintf(ms, sizeof ms, "%d ms", TIMEOUT_MS);
  CHECK_MSG(strstr(msg, "trap_loop") && strstr(msg, ms) && strstr(msg, "restarted"),
            "trap_loop: message \"%s\" should name the kernel, the %s and the restart", msg, ms);
  /* The library says how long QEMU waited for a CPU, if it did: not counted. */
  const char *nc = strstr(msg, "(not counting ");
  double waited = nc ? atof(nc + strlen("(not counting ")) / 1000.0 : 0;
  /* (the restart after the timeout is in dt too: on a loaded host it can
   * take seconds; the bound only tells the timeout from a later one) */
  /* (over a slow debug link the restart writes the firmware and control
   * block again and reads the image back, as the device's creation did:
   * up to three times that) */
  const double restart = rvhal_device_get_info(c.d)->link_bytes_per_s ? 3 * c.create_s : 0;
  CHECK_MSG(dt >= TIMEOUT_MS / 1000.0 - 0.05 && dt - waited < TIMEOUT_MS / 1000.0 + 20.0 + restart,
            "trap_loop: returned after %.2f s (%.2f s of it QEMU waited for a CPU)", dt, waited);
  uint64_t info[8];
  uint32_t marks[N];
  CHECK_OK(rvhal_mem_read(c.d, info, c.info, sizeof info));
  CHECK_OK(rvhal_mem_read(c.d, marks, c.marks, sizeof marks));
  CHECK_MSG(info[2] == TRAP_REACHED, "trap_loop: the looping item's write before the loop is gone");
  CHECK_EQ_U64(marks[9], 10);
  if (getenv("RVHAL_TEST_VERBOSE")) printf("  trap_loop: %s (%.3f s)\n", msg, dt);
  HEALTHY();
  /* After the restart: the program is installed again, faults are still
   * reported, and a second hang is handled the same way. */
  no_fault("trap_loop", N, 4);
  fault("trap_store", STORE_FAULT, STORE_CAUSE, (int64_t)rvhal_device_get_info(c.d)->fault_addr, N, 4, 5, NULL);
  HEALTHY();
  rvhal_launch_options_t one = {.harts = 1};
  rc = launch("trap_loop", 1, 1, 0, &one);
  CHECK_MSG(rc == RVHAL_TIMEOUT, "trap_loop on one hart: %s: %s", rvhal_status_name(rc), rvhal_last_error());
  HEALTHY();
  HEALTHY();
}

/* A work-item that needs more stack than its hart has: refused at the end
 * of the launch (RVHAL_STACK_OVERFLOW) or stopped by a fault, never silently
 * successful, and the device must keep working. Run on hart 0 only, whose
 * stack sits above the (mostly unused) program area. */
static void stack_overflow(void) {
  const rvhal_device_info_t *info = rvhal_device_get_info(c.d);
  hal_kernel_t k = kern("trap_stack");
  rvhal_launch_options_t one = {.harts = 1};
  hal_ndrange_t nd = {.global = {1}, .local = {1}};
  uint64_t bytes = info->local_mem_size / 2; /* fits */
  hal_arg_t args[2] = {rvhal_arg_global(c.out), rvhal_arg_value(&bytes, 8)};
  int rc = rvhal_kernel_exec_ex(c.d, c.prog, k, &nd, args, 2, 1, &one);
  CHECK_MSG(rc == RVHAL_OK, "trap_stack with %llu bytes: %s: %s", (unsigned long long)bytes, rvhal_status_name(rc),
            rvhal_last_error());
  HEALTHY();
  bytes = info->local_mem_size * 2;
  rc = rvhal_kernel_exec_ex(c.d, c.prog, k, &nd, args, 2, 1, &one);
  CHECK_MSG(rc == RVHAL_STACK_OVERFLOW || rc == RVHAL_KERNEL_TRAP, "trap_stack with %llu bytes: %s: %s",
            (unsigned long long)bytes, rvhal_status_name(rc), rvhal_last_error());
  if (rc == RVHAL_STACK_OVERFLOW) CHECK_LAST_ERROR_HAS("trap_stack");
  if (getenv("RVHAL_TEST_VERBOSE")) printf("  trap_stack: %s\n", rvhal_last_error());
  HEALTHY();
}

/* Every hart's work-item overflows its stack by a few KiB, so a hart's
 * overflow lands in its neighbour's stack: the launch must end with an error
 * at once (not after the launch timeout), and the next launch must work. */
static void stack_overflow_all_harts(void) {
  const rvhal_device_info_t *info = rvhal_device_get_info(c.d);
  hal_kernel_t k = kern("trap_stack");
  hal_ndrange_t nd = {.global = {info->num_harts}, .local = {1}};
  for (int round = 0; round < 3; round++) {
    uint64_t bytes = info->local_mem_size * 2 + 4096 + 2048 * (uint64_t)round;
    hal_arg_t args[2] = {rvhal_arg_global(c.out), rvhal_arg_value(&bytes, 8)};
    double t0 = dt_now();
    int rc = rvhal_kernel_exec(c.d, c.prog, k, &nd, args, 2, 1);
    double dt = dt_now() - t0;
    CHECK_MSG(rc == RVHAL_STACK_OVERFLOW || rc == RVHAL_KERNEL_TRAP,
              "round %d: %u work-items of %llu bytes of stack on %u harts: %s after %.2f s: %s", round,
              info->num_harts, (unsigned long long)bytes, info->num_harts, rvhal_status_name(rc), dt,
              rvhal_last_error());
    HEALTHY();
  }
}

int main(int argc, char **argv) {
  rvhal_device_options_t o = {.launch_timeout_ms = TIMEOUT_MS};
  const double t0 = dt_now();
  c.d = fixture_device_opts(2, &o);
  c.create_s = dt_now() - t0;
  c.prog = fixture_program(c.d, "dt_trap");
  c.keep_size = fixture_link_bytes(c.d, sizeof c.keep_host, 1024, 64, 2.0); /* read back ~30 times */
  dt_fill_random(c.keep_host, c.keep_size, 2024);
  c.keep = dt_buffer(c.d, c.keep_size, c.keep_host);
  c.info = dt_buffer(c.d, 8 * 8, NULL);
  c.marks = dt_buffer(c.d, N * 4, NULL);
  c.out = dt_buffer(c.d, N * 4, NULL);
  HEALTHY();
  if (argc > 1 && !strcmp(argv[1], "stack")) {
    stack_overflow_all_harts();
  } else {
    faults();
    endless();
    stack_overflow();
  }
  rvhal_device_delete(c.d);
  pid_t pids[8];
  CHECK_EQ_U64(dt_find_qemu(getpid(), NULL, pids, 8), 0);
  return check_result(argc > 1 ? "trap_stack_overflow" : "trap");
}
