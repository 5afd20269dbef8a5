/* Errors. Every rvhal call that can fail returns 0 (RVHAL_OK) or a negative
 * rvhal_status_t, and leaves a message saying what was wrong, with the
 * offending value, in a per-thread buffer read by rvhal_last_error(). */
#ifndef RVHAL_STATUS_H
#define RVHAL_STATUS_H

#include "rvhal/rvhal_status.h" /* the shared code table, abi/ */

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* what librvhal exports: host/librvhal.map */

/* "RVHAL_NO_MEMORY" for RVHAL_NO_MEMORY; "RVHAL_UNKNOWN" otherwise. */
const char *rvhal_status_name(int status);
/* The code's generic description: "out of device memory". */
const char *rvhal_status_string(int status);
/* The detailed message of the last failed call on this thread, e.g.
 * "mem_free: 0x80a00040 is not the start of an allocation". Only
 * meaningful right after a call returned an error. */
const char *rvhal_last_error(void);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif /* RVHAL_STATUS_H */
