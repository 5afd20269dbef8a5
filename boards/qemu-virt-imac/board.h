/* Board data for QEMU's "virt" machine with harts without F and D
 * (rv64imac, rv32imac): the qemu-virt board but for its name, ISA and
 * QEMU's -cpu. */
#ifndef RVHAL_BOARD_IMAC_H
#define RVHAL_BOARD_IMAC_H

#define RVHAL_BOARD_NAME "qemu-virt-imac"
#define RVHAL_BOARD_ISA_EXT "imac" /* after rv32/rv64: what the harts run */
#if __riscv_xlen == 32
#define RVHAL_BOARD_QEMU_ARGS "-cpu rv32,f=false,d=false"
#else
#define RVHAL_BOARD_QEMU_ARGS "-cpu rv64,f=false,d=false"
#endif
#include "../qemu-virt/board.h"

#endif /* RVHAL_BOARD_IMAC_H */
