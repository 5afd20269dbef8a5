/* Unit test of the division guard over a kernel's LLVM IR text
 * (host/src/compiler/ir_divide.c): which lines it rewrites, and the exact
 * lines it writes for unsigned, signed, vector and quoted-name divisions.
 * That the result compiles and runs is opencl.integers' (a uchar16
 * division with zero lanes, on the device). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compiler/ir_divide.h"

/* The guard's output for `line` (NULL if it left the line alone). */
static char *guard(const char *line, int *rc) {
  text_buf_t out = {0};
  *rc = rvhal_ir_guard_division(line, strlen(line), &out);
  if (*rc != 1) {
    CHECK_MSG(out.len == 0, "nothing appended for a line left alone: %s", out.data ? out.data : "");
    free(out.data);
    return NULL;
  }
  return out.data;
}

static void left_alone(void) {
  const char *lines[] = {
      "  %3 = add i32 %1, %2",
      "  %q = udiv i32 %a, 7",          /* a constant divisor that cannot be 0 */
      "  %q = sdiv exact i64 %d, 4",    /* pointer differences */
      "  %q = srem i32 %a, -3",
      "  %q = fdiv float %a, %b",       /* floating point: defined */
      "define i32 @f(i32 %a) {",
      "  %q = udiv i1 %a, %b",          /* i1: not an OpenCL C type */
      "  call void @f(i32 %udiv)",
  };
  for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
    int rc;
    char *out = guard(lines[k], &rc);
    CHECK_MSG(rc == 0 && !out, "'%s' left alone (rc %d)", lines[k], rc);
    free(out);
  }
}

static void unsigned_scalar(void) {
  int rc;
  char *out = guard("  %div = udiv i32 %a, %b, !dbg !12", &rc);
  const char *want = "  %rvhal.dz.div.z = icmp eq i32 %b, zeroinitializer\n"
                     "  %rvhal.dz.div.d = select i1 %rvhal.dz.div.z, i32 1, i32 %b\n"
                     "  %div = udiv i32 %a, %rvhal.dz.div.d, !dbg !12";
  CHECK_MSG(rc == 1 && out && !strcmp(out, want), "udiv i32:\n%s\nwanted:\n%s", out ? out : "(none)", want);
  free(out);
  /* a zero constant is guarded too (the division is then x / 1) */
  out = guard("  %r = urem i64 %a, 0", &rc);
  CHECK_MSG(rc == 1 && out && strstr(out, "%r = urem i64 %a, %rvhal.dz.r.d"), "urem by 0:\n%s", out ? out : "");
  free(out);
}

static void signed_vector(void) {
  int rc;
  char *out = guard("  %23 = sdiv <2 x i8> %22, %21", &rc);
  const char *want = "  %rvhal.dz.23.z = icmp eq <2 x i8> %21, zeroinitializer\n"
                     "  %rvhal.dz.23.m = icmp eq <2 x i8> %21, <i8 -1, i8 -1>\n"
                     "  %rvhal.dz.23.i = icmp eq <2 x i8> %22, <i8 -128, i8 -128>\n"
                     "  %rvhal.dz.23.o = and <2 x i1> %rvhal.dz.23.m, %rvhal.dz.23.i\n"
                     "  %rvhal.dz.23.b = or <2 x i1> %rvhal.dz.23.z, %rvhal.dz.23.o\n"
                     "  %rvhal.dz.23.d = select <2 x i1> %rvhal.dz.23.b, <2 x i8> <i8 1, i8 1>, <2 x i8> %21\n"
                     "  %23 = sdiv <2 x i8> %22, %rvhal.dz.23.d";
  CHECK_MSG(rc == 1 && out && !strcmp(out, want), "sdiv <2 x i8>:\n%s\nwanted:\n%s", out ? out : "(none)", want);
  free(out);
  /* -1 is guarded (INT_MIN / -1), and the smallest i64 is written out */
  out = guard("  %r = srem i64 %a, -1", &rc);
  CHECK_MSG(rc == 1 && out && strstr(out, "icmp eq i64 %a, -9223372036854775808"), "srem by -1:\n%s", out ? out : "");
  free(out);
  /* a vector constant divisor (commas inside it) is one operand */
  out = guard("  %q = udiv <2 x i32> %a, <i32 3, i32 0>", &rc);
  CHECK_MSG(rc == 1 && out && strstr(out, "icmp eq <2 x i32> <i32 3, i32 0>, zeroinitializer") &&
                strstr(out, "%q = udiv <2 x i32> %a, %rvhal.dz.q.d"),
            "vector constant:\n%s", out ? out : "");
  free(out);
}

static void quoted_name(void) {
  int rc;
  char *out = guard("  %\"a b\" = udiv exact i16 %x, %y", &rc);
  CHECK_MSG(rc == 1 && out && strstr(out, "%\"rvhal.dz.a b.z\" = icmp eq i16 %y, zeroinitializer") &&
                strstr(out, "%\"a b\" = udiv exact i16 %x, %\"rvhal.dz.a b.d\""),
            "quoted name:\n%s", out ? out : "");
  free(out);
}

int main(void) {
  left_alone();
  unsigned_scalar();
  signed_vector();
  quoted_name();
  return check_result("ir_divide");
}
