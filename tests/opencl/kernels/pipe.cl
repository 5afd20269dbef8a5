// For the test cli.cc_refuses_pipes (OpenCL C 2.0): pipes are not supported by rvhal.
__kernel void producer(__write_only pipe int out) {
  int v = (int)get_global_id(0);
  write_pipe(out, &v);
}
