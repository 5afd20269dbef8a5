# Build facts of the board: the XLENs its firmware is built for, the
# privilege mode it runs in (M: owns the machine; S: payload of OpenSBI),
# and the drivers of firmware/drivers/ it links.
set(RVHAL_BOARD_XLENS 64 32)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_DRIVERS ns16550 plic clint uart_doorbell)
