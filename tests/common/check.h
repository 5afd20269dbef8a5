/* Minimal test assertions: a failed CHECK prints where and why and marks the
 * test failed; the test's main returns check_result(). */
#ifndef RVHAL_TEST_CHECK_H
#define RVHAL_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures_;
static int check_count_;

#define CHECK(cond)                                                        \
  do {                                                                     \
    check_count_++;                                                        \
    if (!(cond)) {                                                         \
      check_failures_++;                                                   \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                      \
  } while (0)

#define CHECK_MSG(cond, ...)                                               \
  do {                                                                     \
    check_count_++;                                                        \
    if (!(cond)) {                                                         \
      check_failures_++;                                                   \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
    }                                                                      \
  } while (0)

#define CHECK_EQ_U64(a, b)                                                       \
  do {                                                                           \
    uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                 \
    CHECK_MSG(check_a_ == check_b_, "%s = %" PRIu64 " (0x%" PRIx64 "), expected %" PRIu64 " (0x%" PRIx64 ")", #a, \
              check_a_, check_a_, check_b_, check_b_);                           \
  } while (0)

/* An rvhal call that must succeed; on failure shows the library's message. */
#define CHECK_OK(expr)                                                                   \
  do {                                                                                   \
    int check_rc_ = (expr);                                                              \
    check_count_++;                                                                      \
    if (check_rc_ != 0) {                                                                \
      check_failures_++;                                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s (%d): %s\n", __FILE__, __LINE__, #expr,      \
              rvhal_status_name(check_rc_), check_rc_, rvhal_last_error());              \
    }                                                                                    \
  } while (0)

/* An rvhal call that must fail with `status`, leaving a message containing
 * `needle` (NULL: any message). */
#define CHECK_FAILS(expr, status, needle)                                                \
  do {                                                                                   \
    int check_rc_ = (expr);                                                              \
    const char *check_msg_ = rvhal_last_error();                                         \
    const char *check_needle_ = (needle);                                                \
    check_count_++;                                                                      \
    if (check_rc_ != (status) || (check_needle_ && !strstr(check_msg_, check_needle_))) { \
      check_failures_++;                                                                 \
      fprintf(stderr, "%s:%d: %s: got %s (%d) \"%s\", expected %s containing \"%s\"\n", \
              __FILE__, __LINE__, #expr, rvhal_status_name(check_rc_), check_rc_, check_msg_, \
              rvhal_status_name(status), check_needle_ ? check_needle_ : "");            \
    }                                                                                    \
  } while (0)

static inline int check_result(const char *name) {
  printf("%s: %d checks, %d failed\n", name, check_count_, check_failures_);
  return check_failures_ ? 1 : 0;
}

#endif /* RVHAL_TEST_CHECK_H */
