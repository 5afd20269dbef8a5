/* The cross-hart barrier of a team (the harts running one work-group
 * together). */
#include "fw.h"

void fw_team_barrier(const rvhal_call_info_t *ci) {
  if (ci->team_size <= 1) return;
  /* Teams of several harts are not scheduled yet (check_desc rejects them). */
}
