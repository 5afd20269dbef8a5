/* One spelling of a compile-time check for every header under abi/: these
 * headers are read by C firmware, C kernels, the C host library and C++
 * host programs, and C++ has no _Static_assert. */
#ifndef RVHAL_STATIC_ASSERT_H
#define RVHAL_STATIC_ASSERT_H

#ifdef __cplusplus
#define RVHAL_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define RVHAL_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* A field of a struct shared by host and device stays where the docs say. */
#define RVHAL_ASSERT_OFFSET(type, field, ofs) \
  RVHAL_STATIC_ASSERT(offsetof(type, field) == (ofs), #type "." #field " moved")

#endif
