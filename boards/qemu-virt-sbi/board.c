/* Hooks of virt under OpenSBI: SBI for IPIs, timer and hart start; the
 * ns16550 and the PLIC's S-mode contexts for the host link. */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    FW_HOOKS_UART_LINK,
    FW_HOOKS_SBI,
    .init = uart_link_init,
};
