/* Limits and rules that the host library (its public API too), the
 * protocol, the firmware and the kernel SDK share. */
#ifndef RVHAL_ABI_LIMITS_H
#define RVHAL_ABI_LIMITS_H

/* Harts of one device: sizes the control block's per-hart arrays, so
 * raising it changes the protocol. */
#define RVHAL_MAX_HARTS 8

/* A group's local memory is its local-buffer arguments, then its
 * __local_variable block, each starting at a multiple of this: the SDK
 * carves it so, and the host checks launches against the device's local
 * memory size by the same rule. */
#define RVHAL_LOCAL_ALIGN 128u

#endif /* RVHAL_ABI_LIMITS_H */
