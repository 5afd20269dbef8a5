/* Hooks of <your board> (firmware/include/fw_board.h). Point them at the
 * drivers board.cmake lists: a driver group's hooks at once
 * (fw_drivers.h: FW_HOOKS_UART_LINK, FW_HOOKS_CLINT, FW_HOOKS_SBI), or one
 * by one; leave optional ones NULL. */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

const fw_board_t fw_board = {
    FW_BOARD_FACTS,     /* from board.h */
    FW_HOOKS_UART_LINK, /* doorbell from the UART's RX interrupt; polled: .doorbell = FW_DOORBELL_POLL,
                           .poll_ticks and a .host_notify of its own, as boards/spike */
    FW_HOOKS_CLINT,     /* IPIs and timer */
    .init = uart_link_init, /* or a function of the board's (optional) */
    .hart_init = 0,         /* optional */
    .hart_start = 0,        /* optional: harts not started at reset (SBI HSM: FW_HOOKS_SBI) */
};
