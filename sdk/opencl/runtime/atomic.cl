// OpenCL C atomic functions (OpenCL 1.2 section 6.12.11 "atomic_*", the
// cl_khr_*_int32_*_atomics "atom_*", and the 64-bit atom_* of
// cl_khr_int64_base_atomics / cl_khr_int64_extended_atomics) on global,
// local and (OpenCL 2.0+) generic pointers. Each is one RISC-V AMO (or an
// LR/SC loop for cmpxchg, inc/dec are adds): sequentially consistent, so
// they are atomic across the harts running a launch as well as across the
// work-items of one hart. Compiled as sdk/opencl/README.md says.

#define OVL __attribute__((overloadable))

#define RVHAL_BINOP(name, builtin, T, AS)                                                       \
  T OVL name(volatile AS T *p, T v) { return builtin((AS T *)p, v, __ATOMIC_SEQ_CST); }
#define RVHAL_UNOP(name, builtin, T, AS)                                                        \
  T OVL name(volatile AS T *p) { return builtin((AS T *)p, (T)1, __ATOMIC_SEQ_CST); }
#define RVHAL_CMPXCHG(name, T, AS)                                                              \
  T OVL name(volatile AS T *p, T cmp, T val) {                                                  \
    __atomic_compare_exchange_n((AS T *)p, &cmp, val, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
    return cmp;                                                                                 \
  }

#define RVHAL_ALL_OPS(prefix, T, AS)                                   \
  RVHAL_BINOP(prefix##add, __atomic_fetch_add, T, AS)                  \
  RVHAL_BINOP(prefix##sub, __atomic_fetch_sub, T, AS)                  \
  RVHAL_BINOP(prefix##xchg, __atomic_exchange_n, T, AS)                \
  RVHAL_BINOP(prefix##min, __atomic_fetch_min, T, AS)                  \
  RVHAL_BINOP(prefix##max, __atomic_fetch_max, T, AS)                  \
  RVHAL_BINOP(prefix##and, __atomic_fetch_and, T, AS)                  \
  RVHAL_BINOP(prefix##or, __atomic_fetch_or, T, AS)                    \
  RVHAL_BINOP(prefix##xor, __atomic_fetch_xor, T, AS)                  \
  RVHAL_UNOP(prefix##inc, __atomic_fetch_add, T, AS)                   \
  RVHAL_UNOP(prefix##dec, __atomic_fetch_sub, T, AS)                   \
  RVHAL_CMPXCHG(prefix##cmpxchg, T, AS)

// atomic_xchg of a float: the bits, exchanged as an int.
#define RVHAL_FXCHG(AS)                                                              \
  float OVL atomic_xchg(volatile AS float *p, float v) {                             \
    return as_float(__atomic_exchange_n((AS int *)p, as_int(v), __ATOMIC_SEQ_CST));  \
  }

RVHAL_ALL_OPS(atomic_, int, __global)
RVHAL_ALL_OPS(atomic_, uint, __global)
RVHAL_ALL_OPS(atomic_, int, __local)
RVHAL_ALL_OPS(atomic_, uint, __local)
RVHAL_FXCHG(__global)
RVHAL_FXCHG(__local)
RVHAL_ALL_OPS(atom_, int, __global)
RVHAL_ALL_OPS(atom_, uint, __global)
RVHAL_ALL_OPS(atom_, int, __local)
RVHAL_ALL_OPS(atom_, uint, __local)
#if __riscv_xlen == 64 // RV32 has no 64-bit AMOs: no cl_khr_int64_*_atomics there
RVHAL_ALL_OPS(atom_, long, __global)
RVHAL_ALL_OPS(atom_, ulong, __global)
RVHAL_ALL_OPS(atom_, long, __local)
RVHAL_ALL_OPS(atom_, ulong, __local)
#endif
#ifdef __opencl_c_generic_address_space
RVHAL_ALL_OPS(atomic_, int, )
RVHAL_ALL_OPS(atomic_, uint, )
RVHAL_FXCHG()
#endif
