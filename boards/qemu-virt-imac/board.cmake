# QEMU's virt with harts without F and D (-cpu rv64/rv32,f=false,d=false),
# at both XLENs: the firmware is built for rv64imac and rv32imac
# (RVHAL_BOARD_ISA, its rv64 prefix taken per XLEN; firmware/CMakeLists.txt),
# and its devices run the soft-float kernel sets (kernel ABI lp64 and ilp32,
# built because this board is in the build; docs/kernels.md, "Soft-float").
set(RVHAL_BOARD_XLENS 64 32)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_ISA rv64imac)
set(RVHAL_BOARD_DRIVERS ns16550 plic clint uart_doorbell)
