/* Hooks of the QEMU virt board with vector harts: those of qemu-virt. */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    FW_HOOKS_UART_LINK,
    FW_HOOKS_CLINT,
    .init = uart_link_init,
};
