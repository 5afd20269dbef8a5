/* Device tests: program B built with other constants (tests/device/errors.c
 * needs two programs whose kernels sit at the same addresses). */
#define PROG_B_VARIANT 2
#include "dt_prog_b.c"
