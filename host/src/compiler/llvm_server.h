/* The OpenCL C compiler's long-lived LLVM process (llvm_server.cpp): the
 * link, optimize and code generation steps without starting llvm-link, opt
 * and llc for every build. One per process that compiles, started at its
 * first build, gone when that process is (end of file on its stdin). */
#ifndef RVHAL_LLVM_SERVER_H
#define RVHAL_LLVM_SERVER_H

#include <stddef.h>

/* Sends to the server `exe` (rvhal_opencl_sdk_t's llvm_server; another
 * than the running one's replaces it) the request args (NULL-terminated: the command, then its
 * arguments, as llvm_server.cpp lists them) and puts the reply in reply.
 * 1 when the server answered; 0 when the caller runs the tools instead:
 * no server (exe "": not built, $RVHAL_LLVM_SERVER=0), another thread's build is
 * using it, or it died or answered nonsense (then started again next time,
 * up to a few times a process). */
int rvhal_llvm_server_call(const char *exe, const char *const *args, char *reply, size_t reply_size);

#endif /* RVHAL_LLVM_SERVER_H */
