/* Hooks of spike: CLINT for IPIs and timers, HTIF console to wake the host,
 * no doorbell interrupt (polled). */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

const fw_board_t fw_board = {
    .version = FW_BOARD_VERSION,
    .name = RVHAL_BOARD_NAME,
    .first_hart = RVHAL_BOARD_FIRST_HART,
    .max_harts = RVHAL_BOARD_MAX_HARTS,
    .doorbell = FW_DOORBELL_POLL,
    .ram_base = RVHAL_BOARD_RAM_BASE,
    .timebase_hz = RVHAL_BOARD_TIMEBASE_HZ,
    .poll_ticks = (uint64_t)RVHAL_BOARD_TIMEBASE_HZ / 1000000 * RVHAL_BOARD_POLL_US,
    .ipi_send = clint_ipi_send,
    .ipi_clear = clint_ipi_clear,
    .time_now = clint_time_now,
    .timer_set = clint_timer_set,
    .host_notify = htif_notify_host,
};
