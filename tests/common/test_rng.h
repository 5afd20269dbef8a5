/* Deterministic pseudo-random numbers for the unit tests (xorshift64): the
 * same sequence on every run. A test that wants another sequence calls
 * rng_seed() first. */
#ifndef RVHAL_TEST_RNG_H
#define RVHAL_TEST_RNG_H

#include <stdint.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static inline void rng_seed(uint64_t seed) { rng_state = seed ? seed : 0x9e3779b97f4a7c15ull; }

static inline uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

#endif /* RVHAL_TEST_RNG_H */
