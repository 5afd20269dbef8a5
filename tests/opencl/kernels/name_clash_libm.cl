// For the test cli.cc_name_clash_libm: a kernel's entry is its own name,
// and asin is the picolibc function the built-in library's asinpi calls,
// linked into the program's module with it.
__kernel void asin(__global float *o) {
  o[get_global_id(0)] = asinpi(o[get_global_id(0)]);
}
