/* Launch geometry (abi/rvhal/rvhal_launch_geometry.h), the one set of
 * functions the host's plan, the firmware and the SDK count groups, claims
 * and local memory with: their values at the edges. */
#include <stdint.h>

#include "check.h"
#include "rvhal/rvhal_launch_geometry.h"

int main(void) {
  /* groups and the last group's size along a dimension */
  CHECK_EQ_U64(rvhal_launch_groups(64, 4), 16);
  CHECK_EQ_U64(rvhal_launch_groups(65, 4), 17);
  CHECK_EQ_U64(rvhal_launch_groups(3, 4), 1); /* global < local: one group of global items */
  CHECK_EQ_U64(rvhal_launch_groups(UINT64_MAX, 1), UINT64_MAX); /* no wrap */
  CHECK_EQ_U64(rvhal_launch_last_size(65, 4, 17), 1);
  CHECK_EQ_U64(rvhal_launch_last_size(64, 4, 16), 4);
  CHECK_EQ_U64(rvhal_launch_last_size(3, 4, 1), 3);
  /* the last group's offset: group_id * last + it is its first global id */
  const uint64_t off = 100, groups = 17, local = 4, last = 1;
  CHECK_EQ_U64((groups - 1) * last + rvhal_launch_last_offset(off, groups, local, last), off + (groups - 1) * local);

  /* items per group */
  const uint32_t size[3] = {8, 4, 2}, one[3] = {1, 1, 1};
  CHECK_EQ_U64(rvhal_launch_group_items(size), 64);
  CHECK_EQ_U64(rvhal_launch_group_items(one), 1);
  const uint64_t big[3] = {1ull << 32, 1ull << 32, 1}, fine[3] = {1ull << 20, 1ull << 20, 1ull << 20};
  CHECK_EQ_U64(rvhal_launch_group_items_checked(big), 0); /* past 2^64 */
  CHECK_EQ_U64(rvhal_launch_group_items_checked(fine), 1ull << 60);

  /* claims: full groups in chunks, a last, smaller group a claim of its own */
  CHECK_EQ_U64(rvhal_launch_full_groups(17, 4, 1), 16);
  CHECK_EQ_U64(rvhal_launch_full_groups(16, 4, 4), 16);
  CHECK_EQ_U64(rvhal_launch_chunks_per_row(16, 16, 4), 4);
  CHECK_EQ_U64(rvhal_launch_chunks_per_row(16, 16, 5), 4); /* 5+5+5+1 */
  CHECK_EQ_U64(rvhal_launch_chunks_per_row(17, 16, 4), 5);
  CHECK_EQ_U64(rvhal_launch_chunks_per_row(1, 0, 1), 1); /* one group, smaller than local */
  CHECK_EQ_U64(rvhal_launch_chunks_per_row(UINT64_MAX, UINT64_MAX, 1), UINT64_MAX);

  /* local memory: aligned blocks, a buffer over the limit, a wrapping sum */
  CHECK_EQ_U64(rvhal_launch_local_block(0), 0);
  CHECK_EQ_U64(rvhal_launch_local_block(1), RVHAL_LOCAL_ALIGN);
  CHECK_EQ_U64(rvhal_launch_local_block(RVHAL_LOCAL_ALIGN), RVHAL_LOCAL_ALIGN);
  rvhal_launch_size_t total = 0;
  CHECK(rvhal_launch_local_add(&total, 100, 65536));
  CHECK(rvhal_launch_local_add(&total, 200, 65536));
  CHECK_EQ_U64(total, 3 * RVHAL_LOCAL_ALIGN);
  CHECK(!rvhal_launch_local_add(&total, 65537, 65536));
  total = UINT64_MAX - RVHAL_LOCAL_ALIGN;
  CHECK(!rvhal_launch_local_add(&total, 2 * RVHAL_LOCAL_ALIGN, UINT64_MAX - RVHAL_LOCAL_ALIGN));
  return check_result("launch_geometry");
}
