/* Collecting kernel print() output from the harts' print rings: records are
 * taken out of the rings as soon as possible (during a launch too), put back
 * into the order the print calls were made, split into lines (a line a
 * work-item printed in pieces is joined first) and handed to the output. */
#ifndef RVHAL_HOST_PRINT_DRAIN_H
#define RVHAL_HOST_PRINT_DRAIN_H

#include <stddef.h>
#include <stdint.h>

#include "rvhal/device.h"
#include "rvhal/rvhal_protocol.h"

typedef struct rvhal_print_record_copy rvhal_print_record_copy_t;
typedef struct rvhal_partial_line rvhal_partial_line_t;

typedef struct rvhal_print_state {
  rvhal_print_record_copy_t **pending; /* taken from the rings, not yet printed */
  size_t num_pending, cap_pending;
  size_t pending_bytes;                /* text of `pending` */
  uint32_t next_order;                 /* order of the next record to print */
  rvhal_partial_line_t *partial;       /* unfinished lines, per work-item */
  uint64_t lost_records, lost_bytes;   /* reported so far */
  uint64_t corrupt_bytes;              /* dropped as unreadable, not yet reported */
  size_t num_partial, partial_bytes;   /* entries of `partial`, their text */
  uint64_t tail[RVHAL_MAX_HARTS];      /* bytes consumed per ring: the host's copy, never read back */
  int tails_known;                     /* tail[] set (by a reset); until then taken from the rings once */
  rvhal_print_fn_t fn;
  void *user;
} rvhal_print_state_t;

void rvhal_print_init(rvhal_print_state_t *s, rvhal_print_fn_t fn, void *user);
void rvhal_print_free(rvhal_print_state_t *s);
void rvhal_print_set_output(rvhal_print_state_t *s, rvhal_print_fn_t fn, void *user);
/* Empty the rings of harts [0, num_harts) (ram: host view of the firmware
 * region, RAM base + fw_offset) and print what is in order. With `final`, the launch is over: print
 * everything left, in order, and report lost output. Returns RVHAL_FIRMWARE
 * (message: which hart, which position) if a ring's head is no position the
 * firmware could have written; that ring's contents are dropped. Each call
 * reads at most a ring's bytes per hart. */
int rvhal_print_drain(rvhal_print_state_t *s, rvhal_ctrl_t *ctrl, const uint8_t *ram, uint32_t num_harts, int final);
/* The device (re)booted: its print order restarts at 0. */
void rvhal_print_reset_order(rvhal_print_state_t *s);

#endif /* RVHAL_HOST_PRINT_DRAIN_H */
