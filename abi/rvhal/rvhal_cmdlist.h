/* Command lists: a recorded command buffer (host/include/rvhal/queue.h)
 * encoded once into device memory, then run by the firmware from one ring
 * entry, command after command, with no host round trip between them.
 *
 * The lists live in the firmware region (RVHAL_CMDLIST_OFFSET from its
 * start), which U-mode kernels cannot write. The host writes a list and
 * patches only what a submission changes (buffer bindings inside packed
 * arguments, the first launch's program installs, num_cmds); the firmware
 * writes the status fields. Neither side trusts the other's part: the
 * firmware checks every record against the list's bounds and every copy
 * and fill against global memory, the host range-checks every status.
 *
 * A list submitted through the ring: a launch descriptor with
 * RVHAL_LAUNCH_CMDLIST in its flags and `args` = the list's device address
 * (seq set, the rest ignored). Its completion record says how the list
 * went as a whole: status = the first failure, fault_hart that command's. */
#ifndef RVHAL_ABI_CMDLIST_H
#define RVHAL_ABI_CMDLIST_H

#include "rvhal/rvhal_protocol.h"

#define RVHAL_CMDLIST_OFFSET 0x040000 /* from the firmware region's start: after the image */
#define RVHAL_CMDLIST_SIZE 0x040000   /* up to the control block */
#define RVHAL_CMDLIST_MAGIC 0x4C444D43u /* "CMDL" */
#define RVHAL_CMDLIST_ALIGN 64         /* lists and records start on cache lines */

/* rvhal_cmd_t.kind */
#define RVHAL_CMD_LAUNCH 1  /* payload: rvhal_launch_desc_t, padded to RVHAL_CMD_DESC_SPACE, then packed arguments */
#define RVHAL_CMD_COPY 2    /* memmove(dst, src, bytes) by hart 0 */
#define RVHAL_CMD_FILL 3    /* payload: the pattern (pattern_size bytes), repeated over [dst, dst + bytes) */
#define RVHAL_CMD_BARRIER 4 /* nothing: commands run one after another already */

#define RVHAL_CMD_DESC_SPACE 448 /* a launch's descriptor, rounded up to cache lines */
#define RVHAL_CMD_MAX_PATTERN 128

#ifndef __ASSEMBLER__
/* At the list's start. */
typedef struct rvhal_cmdlist {
  uint32_t magic;     /* host: RVHAL_CMDLIST_MAGIC */
  uint32_t num_cmds;  /* host: commands to run this time (a submission may stop early) */
  uint32_t capacity;  /* host: status records after this header (>= num_cmds) */
  uint32_t bytes;     /* host: the whole list, header, statuses and records */
  uint64_t seq;       /* host: the ring launch running the list */
  uint32_t ran;       /* firmware: commands ended (the failed one included) */
  int32_t status;     /* firmware: RVHAL_OK, or the first failure's */
  uint32_t failed;    /* firmware: index of that command */
  uint32_t reserved0;
  uint8_t pad_[24];
} rvhal_cmdlist_t;

/* One per command, after the header: written by the firmware. */
typedef struct rvhal_cmd_status {
  int32_t status;       /* RVHAL_OK, or why the command failed */
  uint32_t fault_hart;  /* a launch's first hart that trapped */
  uint64_t start_mtime; /* device time when the command started */
  uint64_t end_mtime;   /* ... and ended */
  uint64_t seq;         /* the list's seq once written: stale records do not count */
} rvhal_cmd_status_t;

/* The commands, after the status records (at a cache line). */
typedef struct rvhal_cmd {
  uint32_t kind;         /* RVHAL_CMD_* */
  uint32_t size;         /* bytes of this record and its payload, a multiple of RVHAL_CMDLIST_ALIGN */
  uint64_t dst, src;     /* copy, fill: device addresses */
  uint64_t bytes;        /* copy, fill: how many */
  uint32_t pattern_size; /* fill: 1..RVHAL_CMD_MAX_PATTERN */
  uint32_t reserved0;
  uint8_t pad_[24];
} rvhal_cmd_t;

RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, magic, 0);
RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, num_cmds, 4);
RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, capacity, 8);
RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, bytes, 12);
RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, seq, 16);
RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, ran, 24);
RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, status, 28);
RVHAL_ASSERT_OFFSET(rvhal_cmdlist_t, failed, 32);
RVHAL_ASSERT_OFFSET(rvhal_cmd_status_t, status, 0);
RVHAL_ASSERT_OFFSET(rvhal_cmd_status_t, fault_hart, 4);
RVHAL_ASSERT_OFFSET(rvhal_cmd_status_t, start_mtime, 8);
RVHAL_ASSERT_OFFSET(rvhal_cmd_status_t, end_mtime, 16);
RVHAL_ASSERT_OFFSET(rvhal_cmd_status_t, seq, 24);
RVHAL_ASSERT_OFFSET(rvhal_cmd_t, kind, 0);
RVHAL_ASSERT_OFFSET(rvhal_cmd_t, size, 4);
RVHAL_ASSERT_OFFSET(rvhal_cmd_t, dst, 8);
RVHAL_ASSERT_OFFSET(rvhal_cmd_t, src, 16);
RVHAL_ASSERT_OFFSET(rvhal_cmd_t, bytes, 24);
RVHAL_ASSERT_OFFSET(rvhal_cmd_t, pattern_size, 32);
RVHAL_STATIC_ASSERT(sizeof(rvhal_cmdlist_t) == 64, "cmdlist header size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_cmd_status_t) == 32, "cmd status size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_cmd_t) == 64, "cmd record size");
RVHAL_STATIC_ASSERT(sizeof(rvhal_launch_desc_t) <= RVHAL_CMD_DESC_SPACE && RVHAL_CMD_DESC_SPACE % 64 == 0,
                    "a launch descriptor fits its space in a command record");
RVHAL_STATIC_ASSERT(RVHAL_FW_MAX_SIZE <= RVHAL_CMDLIST_OFFSET &&
                        RVHAL_CMDLIST_OFFSET + RVHAL_CMDLIST_SIZE <= RVHAL_CTRL_OFFSET,
                    "command lists overlap the firmware image or the control block");
#endif /* !__ASSEMBLER__ */
#endif /* RVHAL_ABI_CMDLIST_H */
