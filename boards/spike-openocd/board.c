/* Hooks of Spike: CLINT for IPIs and timers, HTIF console to wake the host
 * (when something serves it), no doorbell interrupt (polled). */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    FW_HOOKS_CLINT,
    .doorbell = FW_DOORBELL_POLL,
    .poll_ticks = (uint64_t)RVHAL_BOARD_TIMEBASE_HZ / 1000000 * RVHAL_BOARD_POLL_US,
    .host_notify = htif_notify_host,
};
