/* How the device core reaches a device: a small vtable (IREE style) so that
 * a board other than QEMU, or a different transport, can be added beside
 * qemu_backend.c without touching the rest. `ram` is a host buffer of the
 * device's RAM window: the device's own memory (qemu_backend.c: a shared
 * memfd) or, for a device the host cannot map (gdb_backend.c: through a
 * debug probe), a mirror that the core keeps in step at its sync points
 * with flush and invalidate, as a driver does with a non-coherent DMA
 * master (docs/architecture.md, "Backends"). */
#ifndef RVHAL_HOST_BACKEND_H
#define RVHAL_HOST_BACKEND_H

#include <stdint.h>

#include "backend/board_desc.h"

typedef struct rvhal_backend rvhal_backend_t;

typedef struct rvhal_backend_vtable {
  void (*destroy)(rvhal_backend_t *b); /* stops the device if running */
  /* Boot the device (RAM content is kept, firmware is reloaded). Returns
   * once the device runs; the core waits for the firmware to report. */
  int (*start)(rvhal_backend_t *b);
  void (*stop)(rvhal_backend_t *b);
  /* Wake hart 0 (the doorbell). */
  int (*doorbell)(rvhal_backend_t *b);
  /* Sleep until the device signals the host or timeout_ms passes. RVHAL_OK
   * either way (the caller checks the control block); RVHAL_DEVICE_LOST if
   * the device stopped. */
  int (*wait)(rvhal_backend_t *b, int timeout_ms);
  /* Recent diagnostic output of the device process, for error messages. */
  const char *(*diagnostics)(rvhal_backend_t *b);
  /* The host process running the device, or 0 if there is none. */
  long (*process_id)(rvhal_backend_t *b);
  /* Once the firmware is ready (optional). */
  void (*booted)(rvhal_backend_t *b);
  /* Keep hart 0 off host CPU `cpu`, where the thread waiting for launches
   * runs now (optional; see qemu_backend.c, placement). */
  void (*place)(rvhal_backend_t *b, int cpu);
  /* Non-coherent backends only (NULL: ram is the device's memory). flush
   * writes ram's bytes of [addr, addr+len) (device addresses) to the
   * device, invalidate reads the device's into ram. Either may leave the
   * device halted: wait and doorbell resume it. */
  int (*flush)(rvhal_backend_t *b, uint64_t addr, uint64_t len);
  int (*invalidate)(rvhal_backend_t *b, uint64_t addr, uint64_t len);
  /* Hart `hart`'s (device index) mcycle and minstret read through the
   * debugger (optional: gdb_backend.c). Leaves the device halted. */
  int (*hart_counters)(rvhal_backend_t *b, uint32_t hart, uint64_t *out_cycle, uint64_t *out_instret);
} rvhal_backend_vtable_t;

struct rvhal_backend {
  const rvhal_backend_vtable_t *vtable;
  uint8_t *ram;      /* host mapping of all guest RAM */
  uint64_t ram_base; /* device address of ram[0] */
  uint64_t ram_size;
  int ram_zero;      /* nothing has written `ram` yet (a new memfd): every byte reads 0, and
                        zeroing it would only fault its pages in */
  double link_bps;   /* a mirror's link to the device, bytes/s as measured at start; 0: not known,
                        or ram is the device's memory */
};

/* Sync points for a non-coherent backend, whose ram is a mirror: after
 * the host writes device memory through rvhal_backend_ptr, flush the
 * range; before it reads, invalidate it. Nothing to do, and one test of a
 * NULL pointer, on a backend that maps the device's RAM. */
static inline void *rvhal_backend_ptr(const rvhal_backend_t *b, uint64_t addr) { return b->ram + (addr - b->ram_base); }
static inline int rvhal_backend_coherent(const rvhal_backend_t *b) { return !b->vtable->flush; }
static inline int rvhal_backend_flush(rvhal_backend_t *b, uint64_t addr, uint64_t len) {
  return b->vtable->flush ? b->vtable->flush(b, addr, len) : 0;
}
static inline int rvhal_backend_invalidate(rvhal_backend_t *b, uint64_t addr, uint64_t len) {
  return b->vtable->invalidate ? b->vtable->invalidate(b, addr, len) : 0;
}
/* The same for a host pointer into ram (a field of the control block). */
static inline uint64_t rvhal_backend_addr(const rvhal_backend_t *b, const void *p) {
  return b->ram_base + (uint64_t)((const uint8_t *)p - b->ram);
}
static inline int rvhal_backend_flush_ptr(rvhal_backend_t *b, const void *p, uint64_t len) {
  return b->vtable->flush ? b->vtable->flush(b, rvhal_backend_addr(b, p), len) : 0;
}
static inline int rvhal_backend_invalidate_ptr(rvhal_backend_t *b, const void *p, uint64_t len) {
  return b->vtable->invalidate ? b->vtable->invalidate(b, rvhal_backend_addr(b, p), len) : 0;
}

/* What the QEMU backend needs to run a device. */
typedef struct rvhal_qemu_config {
  const char *qemu_path;     /* program to run */
  const char *firmware_path; /* firmware ELF */
  const rvhal_board_desc_t *board; /* machine, how it boots, -smp and -m rules */
  uint32_t num_harts;
  uint64_t ram_base, ram_size;     /* the RAM window the host maps (QEMU may get more: board->qemu_min_ram) */
  int exact_timing;          /* -icount shift=0 */
  const char *plugin_path;   /* rvhal's instruction-counting plugin, or NULL */
  uint64_t plugin_offset;    /* where its counts go, bytes into guest RAM */
  uint32_t vlen;             /* vector harts: -cpu rvXX,v=true,vlen=N; 0: the machine's CPU */
  /* gdb_backend.c: guest RAM private to QEMU (ram stays NULL), a gdbstub on
   * a socketpair, QEMU started halted (-S). */
  int gdbstub;
  /* gdb_backend.c, a stub rvhal does not start as QEMU (gdb_link.h): one of
   * gdb_remote ("host:port", "unix:PATH") and gdb_spawn (a command speaking
   * the protocol on stdin/stdout, e.g. OpenOCD with gdb_port pipe); uart a
   * tty ("/dev/ttyUSB0[,baud]") or NULL; gdb_reset the monitor commands
   * bringing the target to a known state, NULL: the board's debug_reset. */
  const char *gdb_remote, *gdb_spawn, *uart, *gdb_reset;
} rvhal_qemu_config_t;

int rvhal_qemu_backend_create(const rvhal_qemu_config_t *config, rvhal_backend_t **out_backend);
/* With config->gdbstub: our end of the running QEMU's gdbstub, or -1. */
int rvhal_qemu_backend_gdb_socket(rvhal_backend_t *b);

/* The device through the GDB remote serial protocol (gdb_backend.c): QEMU's
 * gdbstub here, OpenOCD on a board. */
int rvhal_gdb_backend_create(const rvhal_qemu_config_t *config, rvhal_backend_t **out_backend);

#endif /* RVHAL_HOST_BACKEND_H */
