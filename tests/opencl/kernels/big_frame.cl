// For the test cli.cc_frame_limit: 80 KB of private array, more than a
// frame may take (it could jump the guard below a hart's stack).
__kernel void big(__global float *o) {
  float a[20000];
  for (int i = 0; i < 20000; i++) a[i] = o[i];
  o[get_global_id(0)] = a[(int)o[0]];
}
