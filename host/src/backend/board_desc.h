/* The host's view of a board: the descriptor file the firmware build writes
 * beside each image (rvhal-fw-<board>-rv<xlen>.board, from the board's
 * board.h through firmware/board_desc.in). Untrusted input: parsed strictly,
 * every value checked, errors name the file, line and value. */
#ifndef RVHAL_HOST_BOARD_DESC_H
#define RVHAL_HOST_BOARD_DESC_H

#include <stdint.h>

#define RVHAL_BOARD_DESC_VERSION 5 /* 2: debug_doorbell; 3: qemu_dtb; 4: debug_reset, debug_start; 5: vlen */
#define RVHAL_BOARD_STR_MAX 256

typedef enum rvhal_board_boot {
  RVHAL_BOARD_BOOT_KERNEL = 1, /* -bios <bios> -kernel fw.elf */
  RVHAL_BOARD_BOOT_LOADER = 2, /* -bios <bios>, -device loader per hart */
} rvhal_board_boot_t;

/* How a debugger (gdb_backend.c: QEMU's gdbstub, OpenOCD on a board) wakes
 * hart 0 while the target is halted, without the UART. */
typedef enum rvhal_board_debug_doorbell {
  RVHAL_BOARD_DEBUG_DOORBELL_NONE = 0, /* it cannot: the gdb backend rings the UART */
  RVHAL_BOARD_DEBUG_DOORBELL_MSIP = 1, /* write 1 to the 32-bit register at debug_doorbell_addr */
  RVHAL_BOARD_DEBUG_DOORBELL_SSIP = 2, /* set sip.SSIP of hart 0 through the stub's registers (S-mode firmware) */
} rvhal_board_debug_doorbell_t;

typedef struct rvhal_board_desc {
  char name[64];
  uint32_t xlen;              /* 32 or 64 */
  char isa[80];               /* "rv64imafdc" */
  uint32_t vlen;              /* vector harts (isa has "v"): VLEN in bits, given to QEMU as -cpu rvXX,v=true,vlen=N; 0: none */
  char priv;                  /* 'M' or 'S': the firmware's privilege mode */
  uint64_t ram_base;
  uint64_t fw_offset;         /* the firmware region starts at ram_base + fw_offset */
  uint64_t ram_top_reserved;  /* bytes at the top of RAM the machine uses itself */
  uint64_t default_ram_size;
  uint64_t max_ram_size;      /* the largest RAM window mapped at ram_base */
  uint32_t first_hart;        /* hart id of hart index 0 */
  uint32_t max_harts;
  uint64_t timebase_hz;
  int doorbell_polled;        /* the firmware looks at the ring on a timer: no doorbell to ring */
  uint64_t fault_addr;        /* loads and stores there fault */
  rvhal_board_debug_doorbell_t debug_doorbell;
  uint64_t debug_doorbell_addr; /* MSIP: hart 0's M-mode software-interrupt register (CLINT/ACLINT MSWI) */
  /* Bringing a target reached through a debugger (gdb_backend.c, a stub
   * rvhal did not start) to a known state: monitor commands (qRcmd),
   * ';'-separated ("" none; QEMU "system_reset", OpenOCD "reset halt"); then
   * every hart the stub lists starts at the image's entry (debug_start_entry
   * 1, "entry") or where the reset left it (0, "reset": a boot ROM that
   * jumps to the image). */
  char debug_reset[RVHAL_BOARD_STR_MAX];
  int debug_start_entry;
  char qemu_machine[64];
  rvhal_board_boot_t qemu_boot;
  char qemu_bios[RVHAL_BOARD_STR_MAX]; /* -bios: "none" or a file; "default": no -bios (the machine's own) */
  uint64_t qemu_min_ram;      /* -m at least this (0: none) */
  char qemu_args[RVHAL_BOARD_STR_MAX]; /* extra arguments, blank-separated */
  int qemu_dtb_empty; /* the firmware reads no device tree: QEMU is handed an empty one instead of building
                         its own (qemu_dtb "empty"; "machine": QEMU's, e.g. for OpenSBI) */
} rvhal_board_desc_t;

/* Parses a descriptor's text; `what` names it in errors (a path). */
int rvhal_board_desc_parse(const char *text, const char *what, rvhal_board_desc_t *out_desc);
/* Reads and parses a descriptor file. */
int rvhal_board_desc_load(const char *path, rvhal_board_desc_t *out_desc);

#endif /* RVHAL_HOST_BOARD_DESC_H */
