# Spike's harts at either XLEN (spike --isa=rv64gc or rv32gc), firmware in
# M-mode from reset, CLINT and HTIF.
set(RVHAL_BOARD_XLENS 64 32)
set(RVHAL_BOARD_PRIV M)
set(RVHAL_BOARD_DRIVERS clint htif)
