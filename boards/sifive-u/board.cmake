set(RVHAL_BOARD_XLENS 64)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_DRIVERS sifive_uart plic clint uart_doorbell)
