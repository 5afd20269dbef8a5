/* Status codes shared by host and firmware: one X-macro table yields the
 * enum, the names and the default messages (libuv's UV_ERRNO_MAP pattern).
 * 0 is success; every error is negative. The firmware reports a launch's
 * outcome with these codes in the completion record. */
#ifndef RVHAL_ABI_STATUS_H
#define RVHAL_ABI_STATUS_H

#define RVHAL_STATUS_MAP(X)                                                   \
  X(OK, 0, "success")                                                         \
  X(INVALID_ARGUMENT, -1, "invalid argument")                                 \
  X(OUT_OF_RANGE, -2, "address or size outside device memory")               \
  X(NO_MEMORY, -3, "out of device memory")                                    \
  X(NOT_FOUND, -4, "not found")                                               \
  X(BAD_ELF, -5, "malformed or unsupported ELF file")                         \
  X(KERNEL_TRAP, -6, "kernel raised an exception on the device")              \
  X(TIMEOUT, -7, "device did not answer in time")                             \
  X(DEVICE_LOST, -8, "device process stopped unexpectedly")                   \
  X(HOST_IO, -9, "host system call failed")                                   \
  X(UNSUPPORTED, -10, "not supported by this device")                         \
  X(LOCAL_MEMORY, -11, "work-group local memory exceeds the device limit")    \
  X(BAD_LAUNCH, -12, "firmware rejected the launch descriptor")               \
  X(MISSING_TOOL, -13, "a required program is not installed")                 \
  X(FIRMWARE, -14, "firmware failed")                                         \
  X(BUSY, -15, "resource is in use")                                          \
  X(STACK_OVERFLOW, -16, "kernel overflowed its stack")                      \
  X(BARRIER_DIVERGENCE, -17, "work-items of a group reached different barriers") \
  X(CANCELLED, -18, "command cancelled: a command it depends on failed")     \
  X(KERNEL_FAILED, -19, "kernel reported a failure")                         \
  X(BUILD_FAILED, -20, "kernel source failed to compile")

typedef enum rvhal_status {
#define RVHAL_STATUS_ENUM_(name, value, msg) RVHAL_##name = (value),
  RVHAL_STATUS_MAP(RVHAL_STATUS_ENUM_)
#undef RVHAL_STATUS_ENUM_
} rvhal_status_t;

/* What the firmware itself may put in a completion record (or a command's
 * status record): how a launch ended as the firmware saw it. Any other
 * status in device memory came from a kernel (its fail call passes a code
 * through, rvhal_ecall.h) or was forged: the host never takes a status that
 * describes the device or the host from device memory. */
static inline int rvhal_status_from_firmware(int status) {
  return status == RVHAL_OK || status == RVHAL_KERNEL_TRAP || status == RVHAL_STACK_OVERFLOW ||
         status == RVHAL_BAD_LAUNCH || status == RVHAL_CANCELLED;
}

/* The codes a kernel's fail call may give as the launch's status: they
 * describe the kernel (the SDK's runtime reports them); every other code a
 * kernel reports becomes RVHAL_KERNEL_FAILED, the code kept as data. */
static inline int rvhal_status_kernel_may_report(int status) {
  return status == RVHAL_KERNEL_FAILED || status == RVHAL_BARRIER_DIVERGENCE || status == RVHAL_LOCAL_MEMORY ||
         status == RVHAL_STACK_OVERFLOW;
}

#endif /* RVHAL_ABI_STATUS_H */
