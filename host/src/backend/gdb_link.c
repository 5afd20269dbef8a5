/* Connecting to, or starting, a GDB stub (gdb_link.h). */
#define _GNU_SOURCE
#include "backend/gdb_link.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/internal.h"

/* connect() with a deadline (a JTAG host across a network may not answer). */
static int connect_within(int fd, const struct sockaddr *sa, socklen_t len, int timeout_ms) {
  int flags = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  int rc = connect(fd, sa, len);
  if (rc < 0 && errno == EINPROGRESS) {
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    do rc = poll(&p, 1, timeout_ms);
    while (rc < 0 && errno == EINTR);
    if (rc == 0) {
      errno = ETIMEDOUT;
      rc = -1;
    } else if (rc > 0) {
      int err = 0;
      socklen_t el = sizeof err;
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
      errno = err;
      rc = err ? -1 : 0;
    }
  }
  fcntl(fd, F_SETFL, flags);
  return rc;
}

int rvhal_gdb_link_connect(const char *address, int timeout_ms, int *out_fd) {
  *out_fd = -1;
  if (!strncmp(address, "unix:", 5)) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    const char *path = address + 5;
    if (!*path || strlen(path) >= sizeof sa.sun_path)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "gdb remote '%s': a socket path of 1 to %zu bytes after unix:",
                         address, sizeof sa.sun_path - 1);
    memcpy(sa.sun_path, path, strlen(path));
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return rvhal_error(RVHAL_HOST_IO, "socket: %s", strerror(errno));
    if (connect_within(fd, (struct sockaddr *)&sa, sizeof sa, timeout_ms) < 0) {
      int e = errno;
      close(fd);
      return rvhal_error(RVHAL_DEVICE_LOST, "gdb remote '%s': connect: %s", address, strerror(e));
    }
    *out_fd = fd;
    return RVHAL_OK;
  }
  /* host:port; the host may be an IPv6 address in brackets */
  char host[256];
  const char *colon = strrchr(address, ':');
  const char *port = colon ? colon + 1 : NULL;
  size_t hl = colon ? (size_t)(colon - address) : 0;
  if (hl >= 2 && address[0] == '[' && address[hl - 1] == ']') address++, hl -= 2;
  char *pend;
  unsigned long pn = port ? strtoul(port, &pend, 10) : 0;
  if (!colon || !hl || hl >= sizeof host || !*port || *pend || pn == 0 || pn > 65535)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "gdb remote '%s': use host:port (port 1-65535) or unix:PATH", address);
  memcpy(host, address, hl);
  host[hl] = '\0';
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
  int g = getaddrinfo(host, port, &hints, &res);
  if (g) return rvhal_error(RVHAL_DEVICE_LOST, "gdb remote '%s': %s", address, gai_strerror(g));
  int e = 0, fd = -1;
  for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
      e = errno;
      continue;
    }
    if (connect_within(fd, ai->ai_addr, ai->ai_addrlen, timeout_ms) < 0) {
      e = errno;
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(res);
  if (fd < 0) return rvhal_error(RVHAL_DEVICE_LOST, "gdb remote '%s': connect: %s", address, strerror(e));
  int one = 1; /* every packet waits for its reply: never hold one back */
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  *out_fd = fd;
  return RVHAL_OK;
}

int rvhal_gdb_link_spawn(const char *command, int log_fd, int *out_fd, pid_t *out_pid) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
    return rvhal_error(RVHAL_HOST_IO, "socketpair: %s", strerror(errno));
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) { /* async-signal-safe calls only */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(sv[1], 0);
    dup2(sv[1], 1);
    if (log_fd >= 0) dup2(log_fd, 2);
    setpgid(0, 0); /* its own group: reap() ends the shell's children too */
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  int e = errno;
  close(sv[1]);
  if (pid < 0) {
    close(sv[0]);
    return rvhal_error(RVHAL_HOST_IO, "starting the gdb stub '%s': fork: %s", command, strerror(e));
  }
  *out_fd = sv[0];
  *out_pid = pid;
  return RVHAL_OK;
}

void rvhal_gdb_link_reap(pid_t pid, int grace_ms) {
  if (pid <= 0) return;
  kill(-pid, SIGTERM);
  kill(pid, SIGTERM);
  for (int waited = 0;; waited++) {
    pid_t w = waitpid(pid, NULL, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR)) break;
    if (waited >= grace_ms) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
}
