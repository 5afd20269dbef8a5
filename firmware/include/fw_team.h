/* A team: the harts [first, first + size) that run one work-group
 * together (team_barrier.c owns its state), kept under its first hart: two
 * launches side by side (fw_launch.h) have disjoint harts, so their teams
 * never share one. Each participant holds a pointer to its team for the
 * share (fw_hart_t.team). */
#ifndef FW_TEAM_H
#define FW_TEAM_H

#include <stdint.h>

#include "rvhal/rvhal_kernel_abi.h"

typedef struct fw_team {
  rvhal_team_t shared;         /* what the team's kernel calls share (privileged launches) */
  volatile uintptr_t chunk[2]; /* its claims, made by its first hart, alternately (scheduler.c) */
  volatile uint32_t arrived;   /* barrier: harts arrived */
  volatile uint32_t sense;     /* barrier: flips when all arrived */
  uint32_t first, size;
} fw_team_t;

/* Hart 0, at a launch's start: `teams` teams of `size` harts from hart
 * `first` (a multiple of size), barriers reset. */
void fw_teams_reset(uint32_t first, uint32_t teams, uint32_t size);
/* The team whose first hart is `first`. */
fw_team_t *fw_team(uint32_t first);

#endif /* FW_TEAM_H */
