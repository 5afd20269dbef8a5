/* The device core's struct, private to device/ (core.h is its face: every
 * other module reaches the device through those calls). */
#ifndef RVHAL_HOST_DEVICE_INTERNAL_H
#define RVHAL_HOST_DEVICE_INTERNAL_H

#include <pthread.h>

#include "backend/board_desc.h"
#include "device/core.h"

/* Defaults of rvhal_device_options_t. */
#define RVHAL_DEFAULT_HARTS 4u
#define RVHAL_DEFAULT_LOCAL_MEM (64u * 1024u)
#define RVHAL_DEFAULT_MAX_WG 1024u
#define RVHAL_DEFAULT_ITEM_STACK (4u * 1024u)
#define RVHAL_DEFAULT_LAUNCH_TIMEOUT_MS 60000u
#define RVHAL_DEFAULT_LINGER_US 500u
#define RVHAL_BOOT_TIMEOUT_MS 20000

/* A catalogue entry: one of the platform's devices (platform.c). */
typedef struct rvhal_device_kind {
  rvhal_device_info_t info; /* with default options */
  rvhal_board_desc_t board; /* from the descriptor */
  uint32_t xlen;
  const char *qemu_program; /* qemu-system-riscv64 / 32 */
  char name[80];            /* "qemu-virt-rv64" */
  char desc_path[4096];
  char firmware_path[4096];
} rvhal_device_kind_t;

const rvhal_device_kind_t *rvhal_device_kind(uint32_t index);

struct rvhal_device {
  uint32_t index; /* in the catalogue */
  rvhal_device_info_t info;
  const rvhal_device_kind_t *kind;
  rvhal_device_options_t options;
  char isa[96]; /* info.isa: the board's, with "v" for vector harts */
  rvhal_layout_t layout;
  rvhal_backend_t *backend; /* NULL until connected */
  rvhal_ctrl_t *ctrl;       /* host view of the control block */
  uint64_t boots;           /* device (re)boots: a launch submitted before the last one is lost */
  int busy;                 /* a launch is under way (rvhal_device_hold) */
  pthread_mutex_t lock;     /* one call at a time uses the device (recursive: queues call the API) */
  rvhal_device_modules_t modules;
};

#endif /* RVHAL_HOST_DEVICE_INTERNAL_H */
