/* Board data for QEMU's "virt" machine with vector harts (RVV, VLEN 256):
 * the qemu-virt board but for its name, ISA and VLEN. The host gives the
 * harts -cpu rvXX,v=true,vlen=RVHAL_BOARD_VLEN (a device's vlen option
 * overrides it). */
#ifndef RVHAL_BOARD_RVV_H
#define RVHAL_BOARD_RVV_H

#define RVHAL_BOARD_NAME "qemu-virt-rvv"
#define RVHAL_BOARD_ISA_EXT "imafdcv" /* after rv32/rv64: what the harts run */
#define RVHAL_BOARD_VLEN 256          /* bits in a vector register */
#include "../qemu-virt/board.h"

#endif /* RVHAL_BOARD_RVV_H */
