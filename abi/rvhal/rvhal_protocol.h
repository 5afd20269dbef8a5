/* Host <-> firmware protocol: the device memory map, the control block the
 * host and the firmware share, the launch ring and the per-hart blocks.
 *
 * Every structure here is read or written by both sides (an x86-64 or other
 * host, an RV64 or RV32 device), so it uses fixed-width fields only, and
 * every offset the other side relies on is pinned by a static assert. The
 * assembly start-up code includes this file too (__ASSEMBLER__). */
#ifndef RVHAL_ABI_PROTOCOL_H
#define RVHAL_ABI_PROTOCOL_H

#include "rvhal/rvhal_static_assert.h"
#include "rvhal/rvhal_counters.h"
#include "rvhal/rvhal_limits.h"

#define RVHAL_ABI_VERSION 4
#define RVHAL_CTRL_MAGIC 0x4C414856u /* "VHAL" read as little-endian bytes */

#define RVHAL_RING_SLOTS 16 /* launches on the device at once: a queue keeps them coming (ABI 3; was 4) */
#define RVHAL_ARGS_MAX 4096        /* bytes of packed arguments per launch */
#define RVHAL_MAX_LOCAL_ARGS 32    /* local-buffer arguments per launch */
#define RVHAL_MAX_INSTALLS 4       /* program segments installed by one launch */

/* Device memory map. The firmware region (image, control block, print
 * rings) starts at RAM base + the board's firmware offset: 0 on a board the
 * firmware runs in M-mode, RVHAL_FW_REGION_SIZE under an SBI firmware
 * (OpenSBI owns the start of RAM). The offsets of its parts below are from
 * that start. The program area is at a fixed offset from the RAM base on
 * every board, so kernels are linked once for all boards whose RAM starts
 * at the same address; the rest is laid out by the host and passed in
 * rvhal_boot_config_t. */
/* (No integer suffixes: the linker scripts include these too.) */
#define RVHAL_FW_REGION_SIZE 0x200000 /* image + control block + print rings */
#define RVHAL_FW_MAX_SIZE 0x040000    /* firmware image, at the region's start (about 120 KiB today) */
#define RVHAL_CTRL_OFFSET 0x080000    /* rvhal_ctrl_t, from the region's start */
#define RVHAL_CTRL_MAX_SIZE 0x020000
#define RVHAL_PRINT_OFFSET 0x0A0000   /* per-hart print rings, from the region's start */
#define RVHAL_PRINT_RING_SIZE 0x010000
#define RVHAL_PT_OFFSET 0x120000      /* S-mode firmware: its page tables, to the region's end */
#define RVHAL_MAX_FW_OFFSET 0x200000  /* the furthest a board may place the region */
#define RVHAL_PROGRAM_OFFSET 0x400000 /* from the RAM base: where kernel programs are linked */
#define RVHAL_PROGRAM_MAX_SIZE 0x800000
#define RVHAL_DYNAMIC_OFFSET 0xC00000 /* from the RAM base: stacks, fiber pools, heap */

/* The lowest bytes of each hart's stack region are a guard the hart's PMP
 * forbids: a kernel running off its stack traps instead of corrupting the
 * next hart's stack. A power of two; stacks are aligned to it. */
#define RVHAL_STACK_GUARD 0x10000

/* rvhal_fw_state_t.state */
#define RVHAL_FW_BOOTING 0u
#define RVHAL_FW_READY 1u
#define RVHAL_FW_FAILED 2u

/* rvhal_boot_config_t.flags */
#define RVHAL_BOOT_EXACT_TIMING 0x1u /* QEMU runs with -icount: counts are exact */

/* rvhal_launch_desc_t.flags */
#define RVHAL_LAUNCH_COUNTERS 0x1u /* record per-hart counters */
#define RVHAL_LAUNCH_TRACE 0x2u    /* record per-hart timeline events */
#define RVHAL_LAUNCH_AFTER_OK 0x10u /* run only if the launch before it succeeded; else complete RVHAL_CANCELLED
                                      (a queue's launches submitted back to back: a failure stops the rest) */
#define RVHAL_LAUNCH_TLB_FLUSH 0x4u /* each hart flushes its TLB before it starts: QEMU sizes its software TLB to
                                       the working set only on a flush (firmware/include/fw_speed.h) */
#define RVHAL_LAUNCH_PRIVILEGED 0x8u /* M-mode boards: run the kernel in M-mode, unisolated (tests playing a lying device) */
#define RVHAL_LAUNCH_CMDLIST 0x20u   /* `args` is a command list to run (rvhal_cmdlist.h), not a kernel */
#define RVHAL_LAUNCH_NON_UNIFORM 0x40u /* the last group along a dimension may be smaller (last_local_size):
                                          OpenCL 2.0 non-uniform work-groups */
#define RVHAL_LAUNCH_OVERLAP 0x80u /* it does not depend on the launch before it in the ring: the firmware may run
                                      it beside that one, on harts it leaves idle (docs/queues.md) */
#define RVHAL_LAUNCH_TLB_LOG2_SHIFT 8 /* bits 8-12: grow the TLB to 2^n entries first (0: just flush) */
#define RVHAL_LAUNCH_TLB_LOG2(flags) (((flags) >> RVHAL_LAUNCH_TLB_LOG2_SHIFT) & 31u)
#define RVHAL_LAUNCH_WATCH 0x2000u /* more may follow while it runs, flagged OVERLAP: a hart it leaves idle watches the
                                     ring and starts the next beside it (docs/queues.md) */

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

/* Written by the host before the device boots; read-only for the firmware. */
typedef struct rvhal_boot_config {
  uint32_t magic;           /* RVHAL_CTRL_MAGIC */
  uint32_t abi_version;     /* RVHAL_ABI_VERSION */
  uint32_t num_harts;       /* harts the firmware must bring up */
  uint32_t flags;           /* RVHAL_BOOT_* */
  uint64_t ram_base;        /* guest physical address of RAM offset 0 */
  uint64_t ram_size;
  uint64_t stacks_base;     /* hart i's stack: [base + i*size, base + (i+1)*size) */
  uint64_t hart_stack_size; /* guard + stack (which holds the group's local memory) */
  uint64_t fibers_base;     /* hart i's work-item stacks: base + i*fiber_pool_size, after a guard */
  uint64_t fiber_pool_size;
  uint64_t fiber_stack_size;
  uint64_t program_base;    /* kernels' program area */
  uint64_t program_size;
  uint64_t staging_base;    /* where program installs are copied from (host-managed) */
  uint64_t staging_size;
  uint64_t local_mem_size;  /* local memory available to one work-group */
  uint64_t linger_ticks;    /* hart 0 keeps watching the ring this long after a launch */
  uint64_t trace_base;      /* hart i's timeline events: trace_base + i*trace_size */
  uint64_t timebase_hz;     /* mtime frequency */
  uint64_t trace_size;      /* bytes of timeline events per hart */
  uint64_t heap_base;       /* global memory (kernels' buffers): [heap_base, heap_base + heap_size) */
  uint64_t heap_size;
  uint64_t reserved[2];
} rvhal_boot_config_t;

/* Written by the firmware. */
typedef struct rvhal_fw_state {
  uint32_t state;        /* RVHAL_FW_* */
  uint32_t harts_online; /* harts that finished start-up */
  uint32_t polling;      /* 1: hart 0 is polling the ring, no doorbell needed */
  int32_t error;         /* rvhal_status_t when state == FAILED */
  uint32_t abi_version;  /* the firmware's RVHAL_ABI_VERSION */
  uint32_t reserved0;
  uint64_t boot_mcycle;  /* mcycle when hart 0 reported ready */
  char message[96];      /* why the firmware failed, NUL-terminated */
  uint8_t pad_[16];
} rvhal_fw_state_t;

/* A program segment the firmware copies into the program area before the
 * launch runs. The copy is done by the harts, not by the host: QEMU only
 * drops its cached translations of code the guest itself overwrites. */
typedef struct rvhal_install {
  uint64_t dst;       /* in the program area */
  uint64_t src;       /* staged copy, inside the boot config's staging range */
  uint64_t copy_size; /* bytes copied from src */
  uint64_t zero_size; /* bytes zeroed after them (.bss) */
} rvhal_install_t;

/* What one launch asks of the device. */
typedef struct rvhal_launch_desc {
  uint64_t seq;              /* sequence number, 1, 2, 3, ... */
  uint64_t entry;            /* kernel entry point (device address) */
  uint64_t args;             /* packed arguments (device address) */
  uint64_t num_groups[3];    /* work-groups per dimension */
  uint64_t global_offset[3];
  uint32_t local_size[3];
  uint32_t work_dim;         /* 1, 2 or 3 */
  uint32_t args_size;        /* bytes of packed arguments */
  uint32_t harts;            /* harts taking part, 1..num_harts */
  uint32_t harts_per_group;  /* harts that cooperate on one group */
  uint32_t flags;            /* RVHAL_LAUNCH_* */
  uint64_t chunk_groups;     /* groups a hart claims at once, along dimension 0 */
  uint32_t num_local_args;   /* local-buffer arguments */
  uint32_t num_installs;     /* program segments to install first */
  uint32_t local_arg_offset[RVHAL_MAX_LOCAL_ARGS]; /* their offsets in the pack */
  rvhal_install_t install[RVHAL_MAX_INSTALLS];
  /* The ND-range as enqueued, for the kernel's get_global_size (every
   * launch), and with RVHAL_LAUNCH_NON_UNIFORM the work-items of the last
   * group along each dimension (1..local_size[i]; the others have
   * local_size[i]). num_groups counts that last group. */
  uint64_t global_size[3];
  uint32_t last_local_size[3];
  uint32_t reserved1;
} rvhal_launch_desc_t;

/* What the firmware reports back. */
typedef struct rvhal_completion {
  uint64_t seq;         /* equals the descriptor's seq once complete */
  int32_t status;       /* rvhal_status_t */
  uint32_t fault_hart;  /* first hart that trapped, when status is KERNEL_TRAP */
  uint64_t start_mtime; /* device time when the launch started */
  uint64_t end_mtime;   /* and when its last hart finished */
  uint64_t reserved[4];
} rvhal_completion_t;

typedef struct rvhal_launch_slot {
  uint8_t args[RVHAL_ARGS_MAX]; /* packed arguments live here, 64-byte aligned */
  rvhal_launch_desc_t desc;
  rvhal_completion_t done;
  uint8_t pad_[32];             /* keeps slots on cache-line boundaries */
} rvhal_launch_slot_t;

/* The launch ring. Host-written and firmware-written words sit on separate
 * cache lines. The launch for sequence s uses slots[s % RVHAL_RING_SLOTS]. */
typedef struct rvhal_ring {
  uint64_t submitted;    /* host: last sequence number submitted */
  uint32_t host_waiting; /* host: 1 while it sleeps on the completion byte */
  uint32_t reserved0;
  uint8_t pad0_[48];
  uint64_t completed;    /* firmware: last sequence number completed */
  uint8_t pad1_[56];
  rvhal_launch_slot_t slots[RVHAL_RING_SLOTS];
} rvhal_ring_t;

/* rvhal_trap_report_t.kind */
#define RVHAL_TRAP_EXCEPTION 1 /* the hart raised an exception (mcause) */
#define RVHAL_TRAP_SOFTWARE 2  /* the kernel runtime stopped the launch (status, detail) */

/* Why a hart stopped running a kernel. */
typedef struct rvhal_trap_report {
  uint64_t seq;    /* launch that stopped; 0 = none */
  uint64_t mcause;
  uint64_t mepc;
  uint64_t mtval;  /* faulting address or instruction; software: value */
  uint64_t sp;
  uint64_t ra;
  uint64_t entry;  /* kernel entry point that was running */
  uint32_t kind;   /* RVHAL_TRAP_* */
  int32_t status;  /* rvhal_status_t of the stop */
  char detail[64]; /* software stops: what went wrong */
} rvhal_trap_report_t;

/* A single-producer (the hart) single-consumer (the host) byte ring of print
 * records; data lives at RVHAL_PRINT_OFFSET + hart * RVHAL_PRINT_RING_SIZE. */
typedef struct rvhal_print_ring {
  uint64_t head;         /* firmware: bytes written so far */
  uint64_t lost_bytes;   /* firmware: bytes dropped because the ring was full */
  uint64_t lost_records; /* firmware: records dropped */
  uint64_t reserved0;
  uint8_t pad0_[32];
  uint64_t tail;         /* host: bytes consumed so far */
  uint8_t pad1_[56];
} rvhal_print_ring_t;

/* One record in a print ring. Records never wrap: one that would not fit
 * before the end of the ring is preceded by a padding record (len 0, flag
 * PAD) filling the rest, or, when fewer bytes than a record header remain
 * before the end, those bytes are skipped without a header. */
typedef struct rvhal_print_record {
  uint32_t size;  /* bytes of header + text, rounded up to 8 */
  uint32_t len;   /* bytes of text */
  uint32_t order; /* device-wide order of print calls */
  uint16_t hart;
  uint16_t flags; /* RVHAL_PRINT_* */
  uint64_t item;  /* global linear id of the work-item that printed */
  /* text follows, not NUL-terminated */
} rvhal_print_record_t;

#define RVHAL_PRINT_PAD 0x1       /* filler up to the end of the ring */
#define RVHAL_PRINT_TRUNCATED 0x2 /* the text was cut to fit the record */
#define RVHAL_PRINT_MAX_TEXT 1024

/* One timeline event (RVHAL_LAUNCH_TRACE): what a hart did when. */
typedef struct rvhal_trace_event {
  uint64_t cycle;    /* the hart's mcycle */
  uint32_t kind;     /* RVHAL_TRACE_* */
  uint32_t count;    /* CALL_BEGIN: groups in the call */
  uint32_t group[3]; /* CALL_BEGIN: first group */
  uint32_t reserved;
} rvhal_trace_event_t;

#define RVHAL_TRACE_CALL_BEGIN 1   /* a kernel call (count groups from group) */
#define RVHAL_TRACE_CALL_END 2
#define RVHAL_TRACE_WAIT_BEGIN 3   /* asleep in a team barrier */
#define RVHAL_TRACE_WAIT_END 4

typedef struct rvhal_hart_block {
  uint64_t counters[RVHAL_HART_COUNTER_SLOTS]; /* indexed by RVHAL_HART_COUNTER_* */
  uint64_t counters_seq;                       /* launch the counters belong to */
  uint64_t start_cycle;                        /* mcycle when this hart began the launch */
  uint64_t end_cycle;                          /* ... and when it finished it */
  uint32_t trace_events;                       /* events written for the launch */
  uint32_t trace_dropped;                      /* events that did not fit */
  uint64_t reserved[4];
  rvhal_trap_report_t trap;
  rvhal_print_ring_t print;
} rvhal_hart_block_t;

/* Instructions executed by each hart, kept by rvhal's QEMU plugin
 * (qemu/plugins/insn_counter.c) when counters are on. QEMU's own minstret
 * follows the virtual clock under -icount (all harts together), so this is
 * the per-hart count. Written only by the plugin, at every translation
 * block: each hart's count has a cache line of its own, or harts running in
 * parallel on host threads would fight over one line (docs/performance.md,
 * "Figures behind the code's choices"). */
typedef struct rvhal_insn_count {
  uint64_t count;
  uint64_t reserved[7];
} rvhal_insn_count_t;

typedef struct rvhal_insn_counts {
  rvhal_insn_count_t hart[RVHAL_MAX_HARTS]; /* by hart index */
  uint32_t active;                          /* 1 once the plugin is counting */
  uint32_t reserved[15];
} rvhal_insn_counts_t;

typedef struct rvhal_ctrl {
  rvhal_boot_config_t boot;
  rvhal_fw_state_t fw;
  rvhal_ring_t ring;
  rvhal_hart_block_t harts[RVHAL_MAX_HARTS];
  rvhal_insn_counts_t insns;
} rvhal_ctrl_t;


/* Every field's offset, as docs/abi.md lists them. */
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, magic, 0);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, abi_version, 4);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, num_harts, 8);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, flags, 12);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, ram_base, 16);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, ram_size, 24);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, stacks_base, 32);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, hart_stack_size, 40);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, fibers_base, 48);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, fiber_pool_size, 56);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, fiber_stack_size, 64);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, program_base, 72);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, program_size, 80);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, staging_base, 88);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, staging_size, 96);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, local_mem_size, 104);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, linger_ticks, 112);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, trace_base, 120);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, timebase_hz, 128);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, trace_size, 136);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, heap_base, 144);
RVHAL_ASSERT_OFFSET(rvhal_boot_config_t, heap_size, 152);
RVHAL_ASSERT_OFFSET(rvhal_fw_state_t, state, 0);
RVHAL_ASSERT_OFFSET(rvhal_fw_state_t, harts_online, 4);
RVHAL_ASSERT_OFFSET(rvhal_fw_state_t, polling, 8);
RVHAL_ASSERT_OFFSET(rvhal_fw_state_t, error, 12);
RVHAL_ASSERT_OFFSET(rvhal_fw_state_t, abi_version, 16);
RVHAL_ASSERT_OFFSET(rvhal_fw_state_t, boot_mcycle, 24);
RVHAL_ASSERT_OFFSET(rvhal_fw_state_t, message, 32);
RVHAL_ASSERT_OFFSET(rvhal_ctrl_t, boot, 0);
RVHAL_ASSERT_OFFSET(rvhal_ctrl_t, fw, 176);
RVHAL_ASSERT_OFFSET(rvhal_ctrl_t, ring, 320);
RVHAL_ASSERT_OFFSET(rvhal_ctrl_t, harts, 74176);
RVHAL_ASSERT_OFFSET(rvhal_ctrl_t, insns, 77760);
RVHAL_ASSERT_OFFSET(rvhal_insn_counts_t, hart, 0);
RVHAL_ASSERT_OFFSET(rvhal_insn_counts_t, active, 512);
RVHAL_ASSERT_OFFSET(rvhal_ring_t, submitted, 0);
RVHAL_ASSERT_OFFSET(rvhal_ring_t, host_waiting, 8);
RVHAL_ASSERT_OFFSET(rvhal_ring_t, completed, 64);
RVHAL_ASSERT_OFFSET(rvhal_ring_t, slots, 128);
RVHAL_ASSERT_OFFSET(rvhal_launch_slot_t, args, 0);
RVHAL_ASSERT_OFFSET(rvhal_launch_slot_t, desc, 4096);
RVHAL_ASSERT_OFFSET(rvhal_launch_slot_t, done, 4512);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, seq, 0);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, entry, 8);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, args, 16);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, num_groups, 24);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, global_offset, 48);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, local_size, 72);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, work_dim, 84);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, args_size, 88);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, harts, 92);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, harts_per_group, 96);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, flags, 100);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, chunk_groups, 104);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, num_local_args, 112);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, num_installs, 116);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, local_arg_offset, 120);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, install, 248);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, global_size, 376);
RVHAL_ASSERT_OFFSET(rvhal_launch_desc_t, last_local_size, 400);
RVHAL_ASSERT_OFFSET(rvhal_completion_t, seq, 0);
RVHAL_ASSERT_OFFSET(rvhal_completion_t, status, 8);
RVHAL_ASSERT_OFFSET(rvhal_completion_t, fault_hart, 12);
RVHAL_ASSERT_OFFSET(rvhal_completion_t, start_mtime, 16);
RVHAL_ASSERT_OFFSET(rvhal_completion_t, end_mtime, 24);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, counters, 0);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, counters_seq, 128);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, start_cycle, 136);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, end_cycle, 144);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, trace_events, 152);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, trace_dropped, 156);
RVHAL_ASSERT_OFFSET(rvhal_trace_event_t, kind, 8);
RVHAL_ASSERT_OFFSET(rvhal_trace_event_t, group, 16);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, trap, 192);
RVHAL_ASSERT_OFFSET(rvhal_hart_block_t, print, 320);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, seq, 0);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, mcause, 8);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, mepc, 16);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, mtval, 24);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, sp, 32);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, ra, 40);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, entry, 48);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, kind, 56);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, status, 60);
RVHAL_ASSERT_OFFSET(rvhal_trap_report_t, detail, 64);
RVHAL_ASSERT_OFFSET(rvhal_print_ring_t, head, 0);
RVHAL_ASSERT_OFFSET(rvhal_print_ring_t, lost_bytes, 8);
RVHAL_ASSERT_OFFSET(rvhal_print_ring_t, lost_records, 16);
RVHAL_ASSERT_OFFSET(rvhal_print_ring_t, tail, 64);
RVHAL_ASSERT_OFFSET(rvhal_print_record_t, size, 0);
RVHAL_ASSERT_OFFSET(rvhal_print_record_t, len, 4);
RVHAL_ASSERT_OFFSET(rvhal_print_record_t, order, 8);
RVHAL_ASSERT_OFFSET(rvhal_print_record_t, hart, 12);
RVHAL_ASSERT_OFFSET(rvhal_print_record_t, flags, 14);
RVHAL_ASSERT_OFFSET(rvhal_print_record_t, item, 16);

RVHAL_STATIC_ASSERT(sizeof(rvhal_boot_config_t) == 176, "boot config size");

RVHAL_STATIC_ASSERT(sizeof(rvhal_fw_state_t) == 144, "fw state size");

RVHAL_STATIC_ASSERT(sizeof(rvhal_install_t) == 32, "install size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_launch_desc_t) == 416, "launch desc size");

RVHAL_STATIC_ASSERT(sizeof(rvhal_completion_t) == 64, "completion size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_launch_slot_t) % 64 == 0, "slots start on cache lines");

RVHAL_STATIC_ASSERT(sizeof(rvhal_trap_report_t) == 128, "trap report size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_print_ring_t) == 128, "print ring size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_print_record_t) == 24, "print record size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_hart_block_t) == 448, "hart block size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_insn_count_t) == 64, "one insn count per cache line");
RVHAL_STATIC_ASSERT(sizeof(rvhal_insn_counts_t) == 576, "insn counts size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_trace_event_t) == 32, "trace event size");

RVHAL_STATIC_ASSERT(offsetof(rvhal_ctrl_t, harts) % 64 == 0, "hart blocks start on a cache line");
RVHAL_STATIC_ASSERT(sizeof(rvhal_ctrl_t) <= RVHAL_CTRL_MAX_SIZE, "control block outgrew its region");
RVHAL_STATIC_ASSERT(RVHAL_CTRL_OFFSET + RVHAL_CTRL_MAX_SIZE <= RVHAL_PRINT_OFFSET, "regions overlap");
RVHAL_STATIC_ASSERT(RVHAL_PRINT_OFFSET + RVHAL_MAX_HARTS * RVHAL_PRINT_RING_SIZE <= RVHAL_PT_OFFSET &&
                        RVHAL_PT_OFFSET < RVHAL_FW_REGION_SIZE &&
                        RVHAL_MAX_FW_OFFSET + RVHAL_FW_REGION_SIZE <= RVHAL_PROGRAM_OFFSET,
               "regions overlap");
RVHAL_STATIC_ASSERT(RVHAL_PROGRAM_OFFSET + RVHAL_PROGRAM_MAX_SIZE <= RVHAL_DYNAMIC_OFFSET, "regions overlap");

#endif /* !__ASSEMBLER__ */
#endif /* RVHAL_ABI_PROTOCOL_H */
