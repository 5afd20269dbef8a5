# Build facts of the board: the XLENs its firmware is built for, the
# privilege mode it runs in (M: owns the machine from reset; S: payload of
# an SBI firmware such as OpenSBI, drivers/sbi.c), and the drivers of
# firmware/drivers/ it links (one UART driver at most; UART and PLIC are
# optional: spike has neither).
set(RVHAL_BOARD_XLENS 64)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_DRIVERS ns16550 plic clint uart_doorbell)
