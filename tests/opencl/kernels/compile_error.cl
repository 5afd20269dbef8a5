// For the test cli.cc_error: a type error on line 4, which rvhal cc must
// report with clang's diagnostic (file:line:column) and exit status 1.
__kernel void broken(__global float *out) {
  out[get_global_id(0)] = undeclared_variable;
}
