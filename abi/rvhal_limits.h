/* Limits that the host library's public API, the protocol and the firmware
 * share. */
#ifndef RVHAL_ABI_LIMITS_H
#define RVHAL_ABI_LIMITS_H

/* Harts of one device: sizes the control block's per-hart arrays, so
 * raising it changes the protocol. */
#define RVHAL_MAX_HARTS 8

#endif /* RVHAL_ABI_LIMITS_H */
