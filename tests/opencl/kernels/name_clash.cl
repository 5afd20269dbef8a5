// For the test cli.cc_name_clash: a kernel's entry is its own name, and
// strchr is a function the built-in library's printf calls.
__kernel void strchr(__global float *o) {
  printf("%f\n", (double)o[get_global_id(0)]);
}
