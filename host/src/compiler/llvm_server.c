/* The client of the OpenCL C compiler's LLVM process (llvm_server.h). It
 * is an optimisation only: whenever it cannot answer, opencl_compile.c
 * runs llvm-link, opt and llc as before, with the same result. Its replies
 * are checked like anything else from another process: a reply that is not
 * one of the expected strings counts as no answer. */
#define _GNU_SOURCE
#include "compiler/llvm_server.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define MAX_STARTS 3 /* a server that keeps dying is given up for the process */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int sock = -1;
static pid_t server_pid = -1, owner_pid = -1; /* owner: the process that started it (not a fork's child) */
static int starts;                /* of the server `running` */
static char running[PATH_MAX];

static void stop_locked(void) {
  if (sock >= 0) close(sock);
  sock = -1;
  if (server_pid > 0 && owner_pid == getpid()) {
    kill(server_pid, SIGKILL);
    while (waitpid(server_pid, NULL, 0) < 0 && errno == EINTR) {
    }
  }
  server_pid = -1;
}

static int start_locked(const char *exe) {
  if (strcmp(exe, running)) {
    snprintf(running, sizeof running, "%s", exe);
    starts = 0;
  }
  if (starts >= MAX_STARTS) return 0;
  starts++;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) return 0;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
  posix_spawn_file_actions_adddup2(&fa, sv[1], 1);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0); /* diagnostics go to each build's log */
  char *argv[] = {(char *)exe, NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(sv[1]);
  if (rc) {
    close(sv[0]);
    return 0;
  }
  sock = sv[0];
  server_pid = pid;
  owner_pid = getpid();
  return 1;
}

static int send_all(const char *p, size_t n) {
  while (n) {
    ssize_t w = send(sock, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* The reply: bytes up to a NUL, which must come within reply_size. */
static int recv_reply(char *reply, size_t reply_size) {
  size_t n = 0;
  for (;;) {
    if (n == reply_size) return -1;
    ssize_t r = recv(sock, reply + n, 1, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    if (reply[n++] == '\0') return 0;
  }
}

static int known_reply(const char *r) {
  if (!strcmp(r, "ok") || !strcmp(r, "error")) return 1;
  if (strncmp(r, "clash ", 6) || !r[6]) return 0;
  for (const char *c = r + 6; *c; c++)
    if (!(*c == '_' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z'))) return 0;
  return 1;
}

int rvhal_llvm_server_call(const char *exe, const char *const *args, char *reply, size_t reply_size) {
  if (!exe || !*exe || strlen(exe) >= PATH_MAX || !args || !args[0] || !reply || reply_size < 8) return 0;
  for (const char *const *a = args; *a; a++)
    if (!**a) return 0; /* an empty string would end the request */
  if (pthread_mutex_trylock(&lock)) return 0; /* another build has it: that one runs the tools */
  int answered = 0;
  if (owner_pid != getpid()) { /* a fork's child: the socket is its parent's server */
    if (sock >= 0) close(sock);
    sock = -1;
    server_pid = -1;
    running[0] = '\0';
  }
  if (sock >= 0 && strcmp(exe, running)) stop_locked();
  if (sock >= 0 || start_locked(exe)) {
    int bad = 0;
    for (const char *const *a = args; *a && !bad; a++) bad = send_all(*a, strlen(*a) + 1);
    if (!bad) bad = send_all("", 1);
    if (!bad) bad = recv_reply(reply, reply_size);
    if (!bad && known_reply(reply)) answered = 1;
    else stop_locked();
  }
  pthread_mutex_unlock(&lock);
  return answered;
}
