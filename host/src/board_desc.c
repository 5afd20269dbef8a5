/* The board data, taken from the same board.h the firmware is built with. */
#include "board_desc.h"

#include "board.h"

const rvhal_board_desc_t rvhal_board = {
    .name = RVHAL_BOARD_NAME,
    .ram_base = RVHAL_BOARD_RAM_BASE,
    .ram_top_reserved = RVHAL_BOARD_RAM_TOP_RESERVED,
    .default_ram_size = RVHAL_BOARD_RAM_DEFAULT_SIZE,
    .max_harts = RVHAL_BOARD_MAX_HARTS,
    .timebase_hz = RVHAL_BOARD_TIMEBASE_HZ,
    .qemu_machine = RVHAL_BOARD_QEMU_MACHINE,
    .first_hart = RVHAL_BOARD_FIRST_HART,
};
