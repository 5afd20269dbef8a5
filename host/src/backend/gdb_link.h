/* How the GDB-remote backend reaches a stub it did not start as QEMU's
 * gdbstub on a socketpair (gdb_backend.c): a stub already listening
 * ("host:port", "unix:PATH": another QEMU's -gdb, OpenOCD's gdb_port), or
 * a command that speaks the protocol on its stdin/stdout (OpenOCD with
 * "gdb_port pipe", QEMU with "-gdb stdio"), started through /bin/sh. */
#ifndef RVHAL_HOST_GDB_LINK_H
#define RVHAL_HOST_GDB_LINK_H

#include <sys/types.h>

/* Connects to "host:port" (TCP, Nagle off) or "unix:PATH"; *out_fd is a
 * connected stream socket. The error names the address. */
int rvhal_gdb_link_connect(const char *address, int timeout_ms, int *out_fd);

/* Runs `command` with /bin/sh -c, its stdin and stdout our socket
 * (*out_fd), its stderr log_fd (kept for error messages); it dies with
 * the calling thread (PR_SET_PDEATHSIG). */
int rvhal_gdb_link_spawn(const char *command, int log_fd, int *out_fd, pid_t *out_pid);

/* Ends a spawned stub: SIGTERM, then SIGKILL after grace_ms, and reaps it. */
void rvhal_gdb_link_reap(pid_t pid, int grace_ms);

#endif /* RVHAL_HOST_GDB_LINK_H */
