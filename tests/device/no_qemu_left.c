/* No QEMU process outlives the program that started it. A forked child,
 * with a unique RVHAL_TEST_TAG in its environment (inherited by its QEMU),
 * creates a device and then (a) is killed with SIGKILL, (b) calls abort(),
 * (c) deletes the device and exits, (d) exits without deleting it; within
 * GONE_WITHIN_S no QEMU process with the child's tag may remain. With the argument
 * "thread": (e) a device created on a thread that then exits must keep
 * working (its QEMU must not die with the thread), and none may remain.
 *
 * With the argument "after-suite" (the device fixture's cleanup): fails if
 * any qemu-system-riscv* process has RVHAL_TEST_SUITE=1 in its environment,
 * i.e. something the suite left behind. Processes of another build tree's
 * suite (RVHAL_TEST_BUILD_DIR differs, or, where it is not set, the
 * firmware on the command line is another tree's) are listed but not
 * counted; one on
 * its way out (killed, exiting, its parent exiting) is waited for longer,
 * since a loaded host may take seconds to let it finish. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "dev_util.h"

/* Generous for a loaded host: QEMU is normally gone within milliseconds
 * (the waits end as soon as it is). */
#define GONE_WITHIN_S 10.0

enum { MODE_KILL, MODE_ABORT, MODE_DELETE, MODE_EXIT, MODE_THREAD };
static const char *const mode_names[] = {"SIGKILL", "abort()", "device_delete + exit", "exit without delete",
                                         "device created on an exited thread"};

/* Runs a small kernel; 0 if it worked. */
static int run_kernel(rvhal_device_t *d) {
  hal_program_t p;
  char path[1024];
  snprintf(path, sizeof path, "%s/dt_prog_b.elf", fixture_kernel_dir(d));
  if (rvhal_program_load_file(d, path, &p)) return -1;
  hal_kernel_t k;
  hal_addr_t out;
  if (rvhal_program_find_kernel(d, p, "prog_b_fill", &k) || rvhal_mem_alloc(d, 64 * 4, 0, &out)) return -1;
  uint32_t v = 77;
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&v, 4)};
  hal_ndrange_t nd = {.global = {64}, .local = {4}};
  int rc = rvhal_kernel_exec(d, p, k, &nd, args, 2, 1);
  if (rc) {
    fprintf(stderr, "child %d: kernel_exec: %s: %s\n", (int)getpid(), rvhal_status_name(rc), rvhal_last_error());
    return -1;
  }
  uint32_t got[64];
  if (rvhal_mem_read(d, got, out, sizeof got)) return -1;
  for (uint32_t i = 0; i < 64; i++)
    if (got[i] != v + i) return -1;
  rvhal_mem_free(d, out);
  rvhal_program_free(d, p);
  return 0;
}

static rvhal_device_t *thread_device;
static void *create_on_thread(void *arg) {
  (void)arg;
  thread_device = fixture_device(1);
  return NULL;
}

/* The child: device up, report, wait for the parent's go, then the mode's end. */
static void child(int mode, const char *tag, int ready_fd, int go_fd) {
  struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core); /* abort() without a core file */
  setenv("RVHAL_TEST_TAG", tag, 1);
  rvhal_device_t *d;
  if (mode == MODE_THREAD) {
    pthread_t t;
    if (pthread_create(&t, NULL, create_on_thread, NULL) || pthread_join(t, NULL)) _exit(10);
    d = thread_device;
    usleep(200 * 1000); /* give a killed QEMU time to die */
  } else {
    d = fixture_device(1);
  }
  int ok = run_kernel(d) == 0;
  char r = ok ? 'R' : 'F';
  if (write(ready_fd, &r, 1) != 1) _exit(11);
  char go;
  if (read(go_fd, &go, 1) != 1) _exit(12);
  switch (mode) {
  case MODE_ABORT:
    abort();
  case MODE_EXIT:
    exit(0);
  case MODE_DELETE:
  case MODE_THREAD: {
    char env[128];
    snprintf(env, sizeof env, "RVHAL_TEST_TAG=%s", tag);
    pid_t pids[4];
    if (dt_find_qemu(0, env, pids, 4) != 1) _exit(13);
    rvhal_device_delete(d);
    /* Gone at once: delete kills and reaps it. */
    if (dt_find_qemu(0, env, pids, 4) != 0) _exit(14);
    exit(ok ? 0 : 15);
  }
  default:
    for (;;) pause();
  }
}

static void scenario(int mode) {
  char tag[64], env[96];
  snprintf(tag, sizeof tag, "%d-%d", (int)getpid(), mode);
  snprintf(env, sizeof env, "RVHAL_TEST_TAG=%s", tag);
  int ready[2], go[2];
  if (pipe(ready) || pipe(go)) {
    CHECK_MSG(0, "pipe: %s", strerror(errno));
    return;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(ready[0]);
    close(go[1]);
    child(mode, tag, ready[1], go[0]);
    _exit(20);
  }
  close(ready[1]);
  close(go[0]);
  const char *name = mode_names[mode];
  struct pollfd pfd = {.fd = ready[0], .events = POLLIN};
  char r = 0;
  int up = poll(&pfd, 1, 20000) == 1 && read(ready[0], &r, 1) == 1;
  CHECK_MSG(up && r == 'R', "%s: the child did not get its device working (%c)", name, r ? r : '-');
  /* Positive control: the child's QEMU is found by its tag. */
  pid_t pids[8];
  int before = dt_find_qemu(0, env, pids, 8);
  if (mode != MODE_THREAD || (up && r == 'R'))
    CHECK_MSG(before == 1, "%s: %d QEMU processes with %s before the end, expected 1", name, before, env);
  if (mode == MODE_KILL) kill(pid, SIGKILL);
  else if (write(go[1], "g", 1) != 1) CHECK_MSG(0, "%s: cannot signal the child", name);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  switch (mode) {
  case MODE_KILL:
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "%s: child status 0x%x", name, status);
    break;
  case MODE_ABORT:
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "%s: child status 0x%x", name, status);
    break;
  default:
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child exit status %d (13: QEMU missing before "
              "delete, 14: QEMU left after delete, 15: kernel failed)", name,
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  }
  double t0 = dt_now(), waited;
  int left;
  while ((left = dt_find_qemu(0, env, pids, 8)) > 0 && (waited = dt_now() - t0) < GONE_WITHIN_S) usleep(20 * 1000);
  waited = dt_now() - t0;
  CHECK_MSG(left == 0, "%s: %d QEMU processes with %s still alive %.1f s after the child ended (pid %d)", name, left,
            env, waited, left > 0 ? (int)pids[0] : 0);
  for (int i = 0; i < left && i < 8; i++) kill(pids[i], SIGKILL); /* do not leave them behind */
  printf("%-36s QEMU gone %.3f s after the child ended\n", name, waited);
  close(ready[0]);
  close(go[1]);
}

/* pid is on its way out: a zombie or dead, exiting (PF_EXITING), or with
 * SIGKILL pending; or its parent is exiting (the death signal follows). On
 * a loaded host that can take a while, and is no process left behind. */
static int dying(pid_t pid, int parent_too) {
  static char buf[4096];
  size_t len;
  if (dt_read_proc(pid, "stat", buf, sizeof buf, &len)) return 1; /* gone */
  const char *rp = strrchr(buf, ')');
  char state = 0;
  int ppid = 0;
  unsigned long flags = 0;
  if (!rp || sscanf(rp + 1, " %c %d %*d %*d %*d %*d %lu", &state, &ppid, &flags) != 3) return 0;
  if (state == 'Z' || state == 'X' || state == 'x' || (flags & 0x4 /* PF_EXITING */)) return 1;
  if (dt_read_proc(pid, "status", buf, sizeof buf, &len) == 0)
    for (const char *l = buf; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
      unsigned long long mask;
      if ((sscanf(l, "SigPnd: %llx", &mask) == 1 || sscanf(l, "ShdPnd: %llx", &mask) == 1) && (mask & (1ull << 8)))
        return 1; /* SIGKILL (9) pending */
    }
  return parent_too && ppid > 1 && dying((pid_t)ppid, 0);
}

/* The fixture cleanup: nothing of this suite may still run. A QEMU on its
 * way out (dying()) is waited for up to DYING_WITHIN_S; any other counts
 * after GONE_WITHIN_S. */
#define DYING_WITHIN_S 120.0
static int after_suite(void) {
  const char *mine = getenv("RVHAL_TEST_BUILD_DIR");
  char want_dir[1100] = "";
  if (mine) snprintf(want_dir, sizeof want_dir, "RVHAL_TEST_BUILD_DIR=%s", mine);
  double t0 = dt_now();
  int counted = 0;
  for (;;) {
    pid_t pids[64];
    int n = dt_find_qemu(0, "RVHAL_TEST_SUITE=1", pids, 64);
    CHECK_MSG(n >= 0, "cannot read /proc: cannot tell whether QEMU processes were left behind");
    if (n < 0) break;
    counted = 0;
    int all_dying = 1, other[64] = {0};
    for (int i = 0; i < n && i < 64; i++) {
      static char buf[1 << 16]; /* a whole environment, RVHAL_TEST_BUILD_DIR anywhere in it */
      size_t len;
      if (mine && dt_read_proc(pids[i], "environ", buf, sizeof buf, &len) == 0) {
        int has_dir = 0, same = 0;
        for (size_t k = 0; k < len; k += strlen(buf + k) + 1) {
          if (!strncmp(buf + k, "RVHAL_TEST_BUILD_DIR=", 21)) has_dir = 1;
          if (!strcmp(buf + k, want_dir)) same = 1;
        }
        other[i] = has_dir && !same;
        /* without the variable (a suite that does not set it): its command
         * line names the build tree its firmware came from */
        if (!has_dir && dt_read_proc(pids[i], "cmdline", buf, sizeof buf, &len) == 0) {
          char mine_dir[1100];
          snprintf(mine_dir, sizeof mine_dir, "%s/device-rv", mine);
          int names_mine = 0, names_tree = 0;
          for (size_t k = 0; k < len; k += strlen(buf + k) + 1) { /* -kernel PATH, -device loader,file=PATH */
            names_tree |= strstr(buf + k, "/device-rv") != NULL;
            names_mine |= strstr(buf + k, mine_dir) != NULL;
          }
          other[i] = names_tree && !names_mine;
        }
      }
      if (other[i]) continue;
      counted++;
      if (!dying(pids[i], 1)) all_dying = 0;
    }
    const int over = dt_now() - t0 >= (all_dying ? DYING_WITHIN_S : GONE_WITHIN_S);
    for (int i = 0; over && i < n && i < 64; i++) {
      char buf[4096], cmd[512] = "";
      size_t len;
      if (dt_read_proc(pids[i], "cmdline", buf, sizeof buf, &len) == 0)
        for (size_t k = 0; k < len && k < sizeof cmd - 1; k++) cmd[k] = buf[k] ? buf[k] : ' ';
      fprintf(stderr, "%s QEMU pid %d%s: %s\n", other[i] ? "another build tree's" : "LEFT BEHIND:", (int)pids[i],
              !other[i] && dying(pids[i], 1) ? " (dying)" : "", cmd);
    }
    if (counted == 0 || over) break;
    usleep(100 * 1000);
  }
  CHECK_MSG(counted == 0, "%d QEMU processes of this suite (RVHAL_TEST_SUITE=1) are still running", counted);
  return check_result("no_qemu_left_after_suite");
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "after-suite")) return after_suite();
  signal(SIGPIPE, SIG_IGN);
  if (argc > 1 && !strcmp(argv[1], "thread")) {
    scenario(MODE_THREAD);
    return check_result("no_qemu_left_thread_exit");
  }
  for (int mode = MODE_KILL; mode <= MODE_EXIT; mode++) scenario(mode);
  return check_result("no_qemu_left");
}
