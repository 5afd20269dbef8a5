/* The device core, the face of device/: what every module of the host
 * library needs of a device — its options and information, the memory
 * map, the backend that reaches it, the boot count and the lock — and one
 * opaque pointer to each module's state, set by the file that composes a
 * device (host/src/device_compose.c). The struct itself is private to
 * device/ (device_internal.h): a module holds its own state and asks the
 * core only for these. */
#ifndef RVHAL_HOST_DEVICE_CORE_H
#define RVHAL_HOST_DEVICE_CORE_H

#include <stdint.h>

#include "backend/backend.h"
#include "base/internal.h"
#include "device/layout.h"
#include "rvhal/device.h"
#include "rvhal/rvhal_protocol.h"

/* Each module's state, opaque here (its own header defines it). */
typedef struct rvhal_device_modules {
  struct rvhal_observe *observe;   /* observe/observe.h */
  struct rvhal_memory *memory;     /* memory/memory.h */
  struct rvhal_programs *programs; /* program/program.h */
  struct rvhal_launcher *launch;   /* launch/launch.h */
  struct rvhal_queues *queues;     /* queue/queues.h */
} rvhal_device_modules_t;

/* A device of catalogue entry `index` with these options (resolved: every
 * 0 given its default, the environment's overrides read): its options,
 * information and memory map, no process yet. */
int rvhal_device_core_create(uint32_t index, const rvhal_device_options_t *options, rvhal_device_t **out_device);
/* Makes the backend that will run the device (not started: boot does). */
int rvhal_device_core_connect(rvhal_device_t *d);
/* Stops the device, destroys its backend and frees the core. */
void rvhal_device_core_destroy(rvhal_device_t *d);
void rvhal_device_set_modules(rvhal_device_t *d, const rvhal_device_modules_t *modules);
const rvhal_device_modules_t *rvhal_device_modules(const rvhal_device_t *d);

uint32_t rvhal_device_index(const rvhal_device_t *d); /* in the platform's catalogue */
const rvhal_device_options_t *rvhal_device_options(const rvhal_device_t *d);
const rvhal_layout_t *rvhal_device_layout(const rvhal_device_t *d);
rvhal_backend_t *rvhal_device_backend(const rvhal_device_t *d);
rvhal_ctrl_t *rvhal_device_ctrl(const rvhal_device_t *d); /* host view of the control block */

/* (Re)boots the device process on the same RAM and waits for its firmware;
 * each boot counts: a module whose state describes the running firmware
 * compares the count with the one it last saw. */
int rvhal_device_boot(rvhal_device_t *d);
uint64_t rvhal_device_boots(const rvhal_device_t *d);

/* One call at a time uses the device (recursive: queues call the API). */
void rvhal_device_lock(const rvhal_device_t *d);
void rvhal_device_unlock(const rvhal_device_t *d);
int rvhal_device_trylock(const rvhal_device_t *d); /* 1: locked */
/* A launch is under way (the lock is held): a print callback that calls
 * back into the device must get RVHAL_BUSY, not share the launch's state.
 * hold: 0 if one is under way already. */
int rvhal_device_hold(const rvhal_device_t *d);
void rvhal_device_release(const rvhal_device_t *d);
int rvhal_device_busy(const rvhal_device_t *d);

/* First line of every public call on a device: holds the device's lock until
 * the call returns, whichever way it returns (NULL devices pass through to
 * the call's own check). */
static inline const rvhal_device_t *rvhal_device_guard_acquire_(const rvhal_device_t *d) {
  if (d) rvhal_device_lock(d);
  return d;
}
static inline void rvhal_device_guard_release_(const rvhal_device_t **d) {
  if (*d) rvhal_device_unlock(*d);
}
#define RVHAL_DEVICE_GUARD(d)                                                                      \
  const rvhal_device_t *rvhal_device_guard_ __attribute__((cleanup(rvhal_device_guard_release_), unused)) = \
      rvhal_device_guard_acquire_(d)

/* Device memory through the backend (backend.h: a mirror is flushed after
 * the host writes and invalidated before it reads). */
static inline void *rvhal_dev_ptr(const rvhal_device_t *d, hal_addr_t addr) {
  return rvhal_backend_ptr(rvhal_device_backend(d), addr);
}
static inline int rvhal_dev_coherent(const rvhal_device_t *d) { return rvhal_backend_coherent(rvhal_device_backend(d)); }
static inline int rvhal_dev_flush(const rvhal_device_t *d, hal_addr_t addr, uint64_t len) {
  return rvhal_backend_flush(rvhal_device_backend(d), addr, len);
}
static inline int rvhal_dev_invalidate(const rvhal_device_t *d, hal_addr_t addr, uint64_t len) {
  return rvhal_backend_invalidate(rvhal_device_backend(d), addr, len);
}
static inline int rvhal_dev_flush_ptr(const rvhal_device_t *d, const void *p, uint64_t len) {
  return rvhal_backend_flush_ptr(rvhal_device_backend(d), p, len);
}
static inline int rvhal_dev_invalidate_ptr(const rvhal_device_t *d, const void *p, uint64_t len) {
  return rvhal_backend_invalidate_ptr(rvhal_device_backend(d), p, len);
}

#endif /* RVHAL_HOST_DEVICE_CORE_H */
