# QEMU's virt with vector harts (board.h: isa_ext "imafdcv", VLEN 256). The
# firmware is the build's (it touches no vector state but mstatus.VS), so
# the build's kernels and its RVV kernels both run, and the suite runs here.
set(RVHAL_BOARD_XLENS 64 32)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_DRIVERS ns16550 plic clint uart_doorbell)
