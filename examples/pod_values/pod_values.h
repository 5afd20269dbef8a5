/* Types shared by the pod_values kernel and its host part. */
#ifndef POD_VALUES_H
#define POD_VALUES_H

#include <stdint.h>

/* A POD argument of 24 bytes: not a power of two, so the kernel's argument
 * struct declares it with RVHAL_PACKED_ARG (aligned to 32 as the pack is). */
typedef struct pod_triple {
  int32_t a;
  float b;
  double c;
  int64_t d;
} pod_triple_t;
_Static_assert(sizeof(pod_triple_t) == 24, "pod_triple_t is 24 bytes");

/* What work-item 0 writes back: every value as the kernel received it. */
typedef struct pod_echo {
  int64_t l;
  double d;
  pod_triple_t t;
  int32_t i;
  float f;
  int16_t s;
  int8_t c;
  int8_t pad[5];
} pod_echo_t;
_Static_assert(sizeof(pod_echo_t) == 56, "pod_echo_t is 56 bytes");

#endif /* POD_VALUES_H */
