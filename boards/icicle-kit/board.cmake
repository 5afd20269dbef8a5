set(RVHAL_BOARD_XLENS 64)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_DRIVERS ns16550 plic clint uart_doorbell)
