/* Integer division in a kernel's LLVM IR made defined for every divisor.
 *
 * OpenCL C leaves x / 0 (and INT_MIN / -1) an undefined *value*; LLVM makes
 * a udiv, sdiv, urem or srem with such a divisor undefined *behaviour* for
 * the whole instruction, every lane of a vector. With one zero lane in a
 * uchar16 division, LLVM's RISC-V code generation then divided other lanes
 * by the wrong divisor (the CTS's integer_divideAssign: lanes 12 to 15 came
 * out 0xff). Each division whose divisor is not a constant known to be
 * safe gets a divisor of 1 where it would be 0 (signed: also where
 * INT_MIN / -1 would overflow); the other lanes are exact. */
#ifndef RVHAL_IR_DIVIDE_H
#define RVHAL_IR_DIVIDE_H

#include <stddef.h>

#include "compiler/text_buf.h"

/* If line[0..n) is `%r = udiv|sdiv|urem|srem [exact] T A, B` with B not a
 * safe integer constant, appends the guarded division (several lines, no
 * final newline) to out and returns 1; otherwise appends nothing and
 * returns 0. -1 when out of host memory. */
int rvhal_ir_guard_division(const char *line, size_t n, text_buf_t *out);

#endif /* RVHAL_IR_DIVIDE_H */
