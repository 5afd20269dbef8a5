/* Hooks of spike: CLINT for IPIs and timers, HTIF console to wake the host,
 * no doorbell interrupt (polled). */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    .doorbell = FW_DOORBELL_POLL,
    .poll_ticks = (uint64_t)RVHAL_BOARD_TIMEBASE_HZ / 1000000 * RVHAL_BOARD_POLL_US,
    .ipi_send = clint_ipi_send,
    .ipi_clear = clint_ipi_clear,
    .time_now = clint_time_now,
    .timer_set = clint_timer_set,
    .host_notify = htif_notify_host,
};
