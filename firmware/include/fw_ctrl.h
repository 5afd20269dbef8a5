/* Where the firmware finds the control block and the print rings it shares
 * with the host. */
#ifndef FW_CTRL_H
#define FW_CTRL_H

#include <stdint.h>

#include "rvhal/rvhal_protocol.h"

/* The control block and print rings, placed by the linker script after the
 * firmware image (RVHAL_CTRL_OFFSET / RVHAL_PRINT_OFFSET into the region). */
extern rvhal_ctrl_t fw_ctrl_block;
extern uint8_t fw_print_rings[];
#define FW_CTRL (&fw_ctrl_block)

#endif /* FW_CTRL_H */
