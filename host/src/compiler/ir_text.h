/* Small passes over the LLVM IR text of a program being built, done in
 * rvhal's process between the LLVM tools where starting one more tool would
 * do the same: each tool's start (libLLVM's relocations and options) is
 * about 0.15 s, most of what building a small program costs. */
#ifndef RVHAL_IR_TEXT_H
#define RVHAL_IR_TEXT_H

#include <ctype.h>
#include <stddef.h>

#include "compiler/text_buf.h"

/* A character of an LLVM IR name after its sigil (%x.addr, @llvm.fma.f32,
 * !llvm.module.flags) or of a number (-1). */
static inline int rvhal_ir_is_ident(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$' || c == '-'; }

/* The module ir[0..n) without its llvm.assume calls, into out (appended).
 * They did their work in opt; left in, the conditions they test stay live
 * into loop strength reduction (opencl_compile.c says why that costs). A
 * condition the assume was the only user of, an icmp whose operands stay
 * used elsewhere, is given constant operands: it then uses nothing and is
 * dead, as opt's dce would leave it, and the function's numbered values
 * keep their numbers. Where a condition is anything else *out_needs_dce is
 * set: run dce on the result then. 0, or -1 when out of host memory. */
int rvhal_ir_drop_assumes(const char *ir, size_t n, text_buf_t *out, int *out_needs_dce);

/* The index in names[0..count) of a global the module refers to (@NAME)
 * other than in the line that defines it; -1 if none, -2 when out of host
 * memory. A kernel's entry is
 * called by the firmware alone, so in the linked module a reference to it
 * is a call the built-in library makes to a function of that name. Skips
 * strings and comments. */
long rvhal_ir_first_referenced(const char *ir, const char *const *names, size_t count);

#endif /* RVHAL_IR_TEXT_H */
