# QEMU's virt with harts without F and D (-cpu rv64,f=false,d=false): the
# firmware is built for rv64imac (RVHAL_BOARD_ISA, firmware/CMakeLists.txt).
# Not in the default board list (-DRVHAL_EXTRA_BOARDS=qemu-virt-imac): kernels
# are built hard-float, and the host refuses them here ("lacks fd");
# soft-float kernels are not built yet.
set(RVHAL_BOARD_XLENS 64)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_ISA rv64imac)
set(RVHAL_BOARD_DRIVERS ns16550 plic clint uart_doorbell)
