/* Unit test of the passes over LLVM IR text between the LLVM tools
 * (host/src/compiler/ir_text.c): dropping llvm.assume calls (with their
 * conditions made dead in place, or dce asked for where that cannot be
 * done), and finding references to kernel entries in a linked module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compiler/ir_text.h"

/* `ir` with its assumes dropped: the text, and whether dce was asked for. */
static char *drop(const char *ir, int *needs_dce) {
  text_buf_t out = {0};
  *needs_dce = -1;
  CHECK(rvhal_ir_drop_assumes(ir, strlen(ir), &out, needs_dce) == 0);
  return out.data ? out.data : calloc(1, 1);
}

static void assume_condition_made_dead(void) {
  /* the row loop's assume: %38 tested for it alone, %37 used by the gep too */
  const char *ir = "define void @k(ptr %0, i64 %1) {\n"
                   "  %3 = add nuw nsw i64 %1, 1\n"
                   "  %4 = icmp ult i64 %3, 4294967296\n"
                   "  tail call void @llvm.assume(i1 %4)\n"
                   "  %5 = getelementptr inbounds float, ptr %0, i64 %3\n"
                   "  ret void\n"
                   "}\n"
                   "declare void @llvm.assume(i1 noundef) #8\n";
  int dce;
  char *out = drop(ir, &dce);
  CHECK_MSG(dce == 0, "a single-use icmp of live operands: needs_dce %d", dce);
  CHECK_MSG(!strstr(out, "call void @llvm.assume"), "the assume is still there:\n%s", out);
  CHECK_MSG(strstr(out, "  %4 = icmp ult i64 zeroinitializer, zeroinitializer\n") != NULL,
            "the condition keeps its number and uses nothing:\n%s", out);
  CHECK_MSG(strstr(out, "  %3 = add nuw nsw i64 %1, 1\n") && strstr(out, "declare void @llvm.assume"),
            "the rest is unchanged:\n%s", out);
  free(out);

  /* a vector compare: zeroinitializer is a constant of any type */
  ir = "define void @v(<2 x i64> %0, <2 x i64> %1) {\n"
       "  %3 = icmp ult <2 x i64> %0, %1\n"
       "  %4 = extractelement <2 x i1> %3, i64 0\n"
       "  call void @llvm.assume(i1 %4)\n"
       "  %5 = add <2 x i64> %0, %1\n"
       "  ret void\n"
       "}\n";
  out = drop(ir, &dce);
  CHECK_MSG(dce == 1, "an extractelement condition is dce's: needs_dce %d", dce);
  CHECK(!strstr(out, "llvm.assume"));
  free(out);
}

static void assume_left_to_dce(void) {
  struct {
    const char *what, *ir;
  } cases[] = {
      {"an operand that would die with the condition",
       "define void @k(i64 %0) {\n  %2 = add i64 %0, 1\n  %3 = icmp ult i64 %2, 9\n"
       "  call void @llvm.assume(i1 %3)\n  ret void\n}\n"},
      {"a condition used again",
       "define void @k(i64 %0, ptr %1) {\n  %3 = icmp ult i64 %0, 9\n  call void @llvm.assume(i1 %3)\n"
       "  store i1 %3, ptr %1, align 1\n  %5 = add i64 %0, 1\n  store i64 %5, ptr %1, align 8\n  ret void\n}\n"},
      {"an assume with an operand bundle",
       "define void @k(ptr %0) {\n  call void @llvm.assume(i1 true) [ \"align\"(ptr %0, i64 16) ]\n  ret void\n}\n"},
      {"a condition that is not an icmp",
       "define void @k(i1 %0, i1 %1, i64 %2) {\n  %4 = and i1 %0, %1\n  call void @llvm.assume(i1 %4)\n"
       "  %5 = xor i1 %0, %1\n  ret void\n}\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int dce;
    char *out = drop(cases[i].ir, &dce);
    CHECK_MSG(dce == 1, "%s: needs_dce %d", cases[i].what, dce);
    CHECK_MSG(!strstr(out, "llvm.assume(") && !strstr(out, "zeroinitializer"),
              "%s: the assume is dropped and nothing else is changed:\n%s", cases[i].what, out);
    free(out);
  }
  /* Two conditions sharing an operand nothing else uses: once both are
   * made dead the operand is dead too, which is dce's to remove. */
  {
    int dce;
    char *out = drop("define void @k(i64 %0) {\n  %2 = add i64 %0, 1\n  %3 = icmp ult i64 %2, 9\n"
                     "  call void @llvm.assume(i1 %3)\n  %5 = icmp ugt i64 %2, 1\n  call void @llvm.assume(i1 %5)\n"
                     "  %6 = add i64 %0, 2\n  ret void\n}\n",
                     &dce);
    CHECK_MSG(dce == 1, "two conditions sharing an otherwise unused operand: needs_dce %d", dce);
    CHECK_MSG(!strstr(out, "llvm.assume("), "the assumes are dropped:\n%s", out);
    free(out);
  }
  /* No assume: the text as it was. */
  const char *plain = "; ModuleID = 'x'\ndefine i32 @f(i32 %0) {\n  ret i32 %0\n}\n@g = global i32 0\n";
  int dce;
  char *out = drop(plain, &dce);
  CHECK_MSG(dce == 0 && !strcmp(out, plain), "no assume: changed to\n%s", out);
  free(out);
}

static void entry_references(void) {
  const char *names[] = {"asin", "vadd", "scale"};
  const char *linked = "; ModuleID = 'entry.ll' (calls @asin in a comment)\n"
                       "@.str = private constant [6 x i8] c\"@asin\\00\"\n"
                       "@llvm.used = appending global [1 x ptr] [ptr @vadd__rvhal_meta]\n"
                       "define dso_local void @vadd(ptr noundef %0, ptr noundef %1) #0 {\n"
                       "  call void @vadd__rvhal_item_on(ptr %0, ptr %1)\n"
                       "  ret void\n"
                       "}\n"
                       "define internal float @asinpi_f(float %0) {\n"
                       "  %2 = fpext float %0 to double\n"
                       "  %3 = call double @asinh(double %2)\n"
                       "  ret float %0\n"
                       "}\n";
  CHECK_MSG(rvhal_ir_first_referenced(linked, names, 3) == -1,
            "a define line, a comment, a string, longer names: not references");
  char with_call[2048];
  snprintf(with_call, sizeof with_call, "%s%s", linked,
           "define internal double @asinpi(double %0) {\n  %2 = tail call double @asin(double %0)\n  ret double %2\n}\n");
  CHECK_MSG(rvhal_ir_first_referenced(with_call, names, 3) == 0, "the library's call of asin is a reference");
  CHECK(rvhal_ir_first_referenced("define void @scale() {\n  ret void\n}\n@p = global ptr @scale\n", names, 3) == 2);
  CHECK(rvhal_ir_first_referenced("declare void @vadd(ptr, ptr)\n", names, 3) == 1);
  CHECK(rvhal_ir_first_referenced(with_call, names, 0) == -1);
}

int main(void) {
  assume_condition_made_dead();
  assume_left_to_dce();
  entry_references();
  return check_result("ir_text");
}
