// For cli.cc_refuses_reached_enqueue (OpenCL C 2.0): a kernel that reaches
// a refused built-in through a helper is refused naming both; the helper
// no kernel calls is not what it names. With -DUNREACHED no kernel reaches
// one, and the program builds and runs (cli.cc_unreached_enqueue).
void unused(void) { (void)get_default_queue(); }
int queue_ready(void) {
  queue_t q = get_default_queue();
  (void)q;
  return 1;
}
int depth(int x) { return x > 0 ? queue_ready() : 0; }

#ifdef UNREACHED
__kernel void parent(__global int *a) { a[get_global_id(0)] = 7; }
#else
__kernel void parent(__global int *a) { a[get_global_id(0)] = depth(a[0]); }
#endif
