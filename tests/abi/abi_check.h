/* Shared by the ABI conformance kernel and its host test: what to expect
 * at which offset of the pack, and where to report. Fixed-width fields
 * only, so RV32 and RV64 kernels share it with the host. */
#ifndef RVHAL_TEST_ABI_CHECK_H
#define RVHAL_TEST_ABI_CHECK_H

#include <stdint.h>

#define ABI_CHECK_MAX_ARGS 64
#define ABI_CHECK_DONE 0x600DF00Du

typedef struct abi_check_arg {
  uint32_t offset;    /* documented offset in the pack */
  uint32_t size;      /* packed size */
  uint32_t expect_at; /* where its expected bytes are in expect[] */
  uint32_t reserved;
} abi_check_arg_t;

typedef struct abi_check_desc {
  uint32_t num_args;
  uint32_t mismatches;                        /* written by the kernel */
  uint32_t done;                              /* ABI_CHECK_DONE once it ran */
  uint32_t reserved;
  uint64_t pack_address;                      /* where the kernel found the pack */
  abi_check_arg_t arg[ABI_CHECK_MAX_ARGS];
  uint8_t seen_ok[ABI_CHECK_MAX_ARGS];        /* 1: argument i matched */
  uint8_t found[ABI_CHECK_MAX_ARGS][32];      /* first bytes found for mismatches */
  uint8_t expect[8192];                       /* expected bytes of every argument */
} abi_check_desc_t;

#endif /* RVHAL_TEST_ABI_CHECK_H */
