// OpenCL C kernels for tests/opencl/opencl_exec.c: the built-ins that need
// rvhal's execution model, each checked there against a host reference.
// Compiled with -cl-std=CL3.0 for RV64 and RV32.

#define REC 32 // ulongs per work-item in `workitems`

// Every work-item function, for every dimension (3 and 7 are out of range:
// ids 0, sizes 1).
__kernel void workitems(__global ulong *out) {
  __global ulong *r = out + get_global_linear_id() * REC;
  r[0] = get_work_dim();
  for (uint d = 0; d < 3; d++) {
    r[1 + d] = get_global_id(d);
    r[4 + d] = get_local_id(d);
    r[7 + d] = get_group_id(d);
    r[10 + d] = get_global_size(d);
    r[13 + d] = get_local_size(d);
    r[16 + d] = get_enqueued_local_size(d);
    r[19 + d] = get_num_groups(d);
    r[22 + d] = get_global_offset(d);
  }
  r[25] = get_global_linear_id();
  r[26] = get_local_linear_id();
  r[27] = get_global_id(3) + get_local_id(7) + get_group_id(3) + get_global_offset(3); // 0
  r[28] = get_global_size(3) * get_local_size(7) * get_num_groups(3) * get_enqueued_local_size(3); // 1
  r[29] = 0x5eed;
}

// A group's sum by a tree in a __local argument, its maximum in a __local
// variable (declared in the kernel), with barriers of both fence kinds; out
// gets [group] = sum, [groups + group] = max, and every item's view of the
// group's first value after the last barrier.
__kernel void reduce(__global const int *in, __global int *out, __global int *seen, __local int *scratch) {
  __local int biggest;
  __local int first[2];
  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  int v = in[get_global_id(0)];
  scratch[l] = v;
  if (l == 0) {
    biggest = v;
    first[0] = v;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_max(&biggest, v);
  for (size_t s = 1; s < n; s *= 2) {
    if (l % (2 * s) == 0 && l + s < n) scratch[l] += scratch[l + s];
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  }
  if (l == 0) {
    out[g] = scratch[0];
    out[get_num_groups(0) + g] = biggest;
  }
  seen[get_global_id(0)] = first[0];
}

// The compiler's plumbing: helpers that read the work-item (through another
// helper) and wait at a barrier, a kernel calling a kernel, a program-scope
// __constant table, two __local arguments. out[gid] = table[lid % 4] +
// 10 * (the neighbour's lid, through both local buffers).
__constant int table[4] = {1000, 2000, 3000, 4000};

static size_t my_lid(void) { return get_local_id(0); }
static void sync_group(void) { barrier(CLK_LOCAL_MEM_FENCE); }
static int neighbour(__local int *a, __local int *b) {
  size_t n = get_local_size(0), l = my_lid();
  a[l] = (int)l;
  sync_group();
  b[l] = a[(l + 1) % n];
  sync_group();
  return b[l];
}

__kernel void plumbing_inner(__global int *out, __local int *a, __local int *b) {
  out[get_global_id(0)] = table[my_lid() % 4] + 10 * neighbour(a, b);
}

__kernel void plumbing(__global int *out, __local int *a, __local int *b) { plumbing_inner(out, a, b); }

// Atomics under contention: every work-item of every group, on every hart,
// hits the same global words; each group also counts on a __local word.
__kernel void atomics(__global int *gi, __global uint *gu, __global float *gf, __global int *per_group,
                      __global long *gl) {
  __local int count;
  __local uint mask;
  int id = (int)get_global_id(0);
  if (get_local_id(0) == 0) {
    count = 0;
    mask = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&gi[0], 3);
  atomic_sub(&gi[1], 2);
  atomic_inc(&gi[2]);
  atomic_dec(&gi[3]);
  atomic_min(&gi[4], -id);
  atomic_max(&gi[5], id);
  atomic_or(&gu[0], 1u << (id % 32));
  atomic_and(&gu[1], ~(1u << (id % 32)));
  atomic_xor(&gu[2], (uint)id);
  atomic_min(&gu[3], (uint)id + 5u);
  atomic_max(&gu[4], (uint)id * 2u);
  // increment by compare-and-swap, retried on contention
  int old;
  do {
    old = gi[6];
  } while (atomic_cmpxchg(&gi[6], old, old + 1) != old);
  atom_add(&gi[7], 1);
  atom_inc(&gu[5]);
  // a token passed by exchange: the final value and all returned ones are each seen once (checked on the host)
  float prev = atomic_xchg(&gf[0], (float)id);
  gf[1 + id] = prev;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
  atomic_inc(&count);
  atomic_or(&mask, 1u << (get_local_id(0) % 32));
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    per_group[2 * get_group_id(0)] = count;
    per_group[2 * get_group_id(0) + 1] = (int)mask;
  }
#ifdef cl_khr_int64_base_atomics
  atom_add(&gl[0], (long)id << 33);
  atom_max(&gl[1], (long)id << 40);
  atom_cmpxchg(&gl[2], 0L, (long)id + 1); // one item wins
  atom_xchg(&gl[3], (long)id);
#endif
}

// OpenCL 2.0 C11-style atomics on the same words from every hart: a
// counter, a maximum, a compare-exchange loop, and 64-bit on RV64.
__kernel void c11_atomics(__global atomic_int *ai, __global atomic_uint *au, __global long *al) {
  int id = (int)get_global_id(0);
  atomic_fetch_add(&ai[0], 2);
  atomic_fetch_sub_explicit(&ai[1], 1, memory_order_relaxed);
  atomic_fetch_max_explicit(&ai[2], id, memory_order_seq_cst, memory_scope_device);
  atomic_fetch_or(&au[0], 1u << (id % 32));
  int expected = atomic_load(&ai[3]);
  while (!atomic_compare_exchange_weak(&ai[3], &expected, expected + 3))
    ;
  uint old = atomic_exchange(&au[1], (uint)id);
  atomic_fetch_xor(&au[2], old ^ (uint)id); // every id and the initial 0 once: the xor of all ids
#if defined(cl_khr_int64_base_atomics)
  atomic_fetch_add((__global atomic_long *)al, (long)id << 33);
#endif
}

// Async copies: a group's tile of float4 into a __local argument, then
// reversed into a __local variable through a strided copy back out.
__kernel void async_copy(__global const float4 *src, __global float4 *dst, __global int *strided_out,
                         __global const int *strided_in, __local float4 *tile) {
  __local int column[16];
  size_t n = get_local_size(0), g = get_group_id(0), l = get_local_id(0);
  event_t e = async_work_group_copy(tile, src + g * n, n, 0);
  // every 3rd int of strided_in, from the group's base, into column
  e = async_work_group_strided_copy(column, strided_in + g * n * 3, n, 3, e);
  wait_group_events(1, &e);
  prefetch(src, n);
  dst[g * n + l] = tile[n - 1 - l] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  // column back out, spread every 2nd int
  event_t e2 = async_work_group_strided_copy(strided_out + g * n * 2, column, n, 2, 0);
  wait_group_events(1, &e2);
}

// printf: OpenCL's format rules, vectors, one line per call.
__kernel void print_formats(int i, float f, float4 v, long big, __constant char *unused) {
  size_t id = get_global_id(0);
  if (id == 1) {
    printf("item %u of %u: i=%d f=%.2f\n", (uint)id, (uint)get_global_size(0), i, f);
    printf("v=%v4hlf x=%#x big=%ld s=%s c=%c\n", v, (uint)i, big, "str", 'Q');
    printf("ints %v2hhd|%v3hd|%v4hlx|%v2lu\n", (char2)(-1, 2), (short3)(-300, 0, 300), (uint4)(10, 11, 12, 255),
           (ulong2)(1, 18446744073709551615UL));
    printf("%5.1f|%-4d|%e|%.6a|%10.2A|%v4hla\n", 2.25f, 7, 1024.0, 0.5f, 1.5f, (float4)(0.25f, 0.5f, 1.f, 1.5f));
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wformat"
    printf("%v4f|%v2d\n", v, (int2)(-3, 4)); // no length modifier: float and int elements
#pragma clang diagnostic pop
  }
}

// Integer division with divisors OpenCL C leaves undefined in some lanes
// (x / 0, INT_MIN / -1): the other lanes must be exact. The CTS's
// integer_divideAssign shape (vload16 / vstore16 of uchar, in place).
__kernel void divide_lanes(__global const uchar *a, __global uchar *q, __global uchar *r, __global const int *sa,
                           __global int *sq, __global int *sr) {
  int i = get_global_id(0);
  uchar16 d = vload16(i, a), t = vload16(i, q), u = vload16(i, r);
  t /= d;
  u %= d;
  vstore16(t, i, q);
  vstore16(u, i, r);
  int4 sd = vload4(i, sa), st = vload4(i, sq), su = vload4(i, sr);
  st /= sd;
  su %= sd;
  vstore4(st, i, sq);
  vstore4(su, i, sr);
}
