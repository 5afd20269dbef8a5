# shakti_c: RV64 only; M-mode from reset; the CLINT driver (its UART's one
# register is written in board.c).
set(RVHAL_BOARD_XLENS 64)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_DRIVERS clint)
