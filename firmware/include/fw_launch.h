/* The launches being run, and the one place that changes their state
 * (launch_owner.c): hart 0 starts them, participants join one and claim
 * work from it, any hart may fail it (the first failure wins), each member
 * finishes its share, and the last one completes it; in exact timing the
 * teams take turns through it. Nothing else writes fw_launches.
 *
 * Two launches run at once (a pair, in lanes 0 and 1) when the ring's next
 * launch says it may (RVHAL_LAUNCH_OVERLAP) and fits on the harts the
 * first leaves idle: lane 0 from hart 0, lane 1 from the first free hart
 * its teams allow. Hart 0 starts both, works in lane 0, and waits for
 * both before it takes the next ring entry. A launch the host flags
 * RVHAL_LAUNCH_WATCH that runs alone opens a watch window: the first hart
 * it leaves idle watches the ring on its timer and, if the next launch
 * arrives while the first still runs and may pair, starts it in lane 1
 * (late), taking the window; the first launch's end closes it.
 *
 * A launch is complete when its work is done, not when every hart woken
 * for it has checked in: in a launch of teams of one in fast timing
 * without counters, the first hart to find nothing left to claim closes
 * it, and a hart that wakes later finds it closed (or a later launch
 * running) and sleeps again without touching it. A team needs all its
 * harts, exact timing all participants, and counters a record from every
 * participant, so those launches close only when every participant has
 * finished. Joining and leaving change one word, `members`. */
#ifndef FW_LAUNCH_H
#define FW_LAUNCH_H

#include "fw.h"
#include "fw_claim.h"
#include "rvhal/rvhal_cmdlist.h"

#define FW_LANES 2

/* A launch being run; shared by its harts. */
typedef struct fw_launch {
  uint64_t seq;
  const rvhal_launch_desc_t *desc;
  hal_kernel_entry_t entry;
  void *args;
  uint64_t chunks_per_row; /* claims per row of groups along dimension 0 */
  uint64_t total_chunks;
  uint32_t participants;   /* harts taking part: [base, base + participants) */
  uint32_t base;           /* its first hart (a multiple of team_size) */
  uint32_t lane;           /* its index in fw_launches */
  uint32_t paired;         /* 1: the other lane runs a launch beside it */
  uint32_t watched;        /* lane 0: it opened a watch window (RVHAL_LAUNCH_WATCH) */
  uint32_t team_size;
  uint64_t start_mtime;
  volatile uintptr_t next_chunk; /* claimed with an atomic add */
  volatile uintptr_t members;   /* FW_MEMBERS_*: who is in the launch, who took part, closed, the launch's tag */
  uint32_t skippable;           /* 1: the launch closes when a hart finds no work (late harts skip it) */
  volatile int32_t status;      /* first error wins */
  volatile uint32_t abort;      /* set on error: take no more groups */
  volatile uint32_t fault_hart;
  volatile uint32_t turn;       /* exact timing: the team whose turn it is */
  volatile uint32_t arrived;    /* exact timing: harts asleep, waiting for their turn */
  uint32_t privileged; /* RVHAL_LAUNCH_PRIVILEGED: the kernel runs in our mode, not isolated */
  uint32_t non_uniform; /* RVHAL_LAUNCH_NON_UNIFORM: claims follow nu (fw_claim.h) */
  fw_nonuniform_t nu;
  struct fw_user_shared *shared; /* its U-mode claim state (fw_user.h) */
  rvhal_cmd_status_t *cmd_status; /* a list's command: its record, else NULL (a ring launch) */
} fw_launch_t;

/* fw_launch_t.members: a bit per hart in the launch now (joined, not yet
 * finished), a bit per hart that took part, CLOSED (no hart may join),
 * and above them the launch's generation (its low bits), so that a hart
 * woken for one launch cannot join another by mistake. (Joining a later
 * launch whose low bits match would still be right: the hart is a
 * participant of a launch that is open.) */
#define FW_MEMBERS_IN(h) ((uintptr_t)1 << (h))
#define FW_MEMBERS_IN_MASK (((uintptr_t)1 << RVHAL_MAX_HARTS) - 1)
#define FW_MEMBERS_TOOK_PART(h) ((uintptr_t)1 << (RVHAL_MAX_HARTS + (h)))
#define FW_MEMBERS_CLOSED ((uintptr_t)1 << (2 * RVHAL_MAX_HARTS))
#define FW_MEMBERS_TAG_SHIFT (2 * RVHAL_MAX_HARTS + 1)
_Static_assert(FW_MEMBERS_TAG_SHIFT + 8 <= sizeof(uintptr_t) * 8, "members: at least 8 bits of generation");

extern fw_launch_t fw_launches[FW_LANES];

/* nonuniform.c: nu for a RVHAL_LAUNCH_NON_UNIFORM launch d (checked). */
void fw_nonuniform_setup(fw_nonuniform_t *nu, const rvhal_launch_desc_t *d);
extern volatile uintptr_t fw_launch_gen; /* bumped at each launch's start: the workers' wake-up */

/* A worker woken for generation `gen`: 1 if it joined the launch it was
 * assigned (fw_hart_t.assigned, read after gen) and it is a participant
 * and the launch is still open: run its share (hart->launch), then
 * fw_launch_finish; 0 if there is nothing for it (then it must not touch
 * the launch). */
int fw_launch_join(fw_hart_t *hart, uintptr_t gen);

/* Hart 0: check and set up launch `seq` from the ring, install its program
 * and wake its participants; and the launch after it beside it, if that
 * one may overlap and fits. RVHAL_OK (*out_taken: the ring launches
 * started, 1 or 2), or launch `seq` was refused and is already completed
 * with that status (*out_taken 1). */
int32_t fw_launch_start(uint64_t seq, uint32_t *out_taken);

/* A worker woken without a launch to join: if it is the watcher of an
 * open window, watch the ring until the window closes, a launch needs
 * this hart, or it started the next launch beside lane 0's. */
void fw_launch_watch(fw_hart_t *hart);

/* Hart 0, after fw_launch_wait_retired of a lone launch: 1 if a launch
 * was started beside it late (then waited for too: the two were a pair). */
int fw_launch_late_pair(void);

/* Hart 0, after a pair was waited for: the status RVHAL_LAUNCH_AFTER_OK
 * looks at, the pair's first failure. */
void fw_launch_pair_done(void);

/* Hart 0: the same for a launch of command list `seq` (command_list_walk.c): its
 * descriptor and arguments in the list, its end written to `st`, not to
 * the ring; `now` is its start time (the list's last clock reading: the
 * clock is MMIO, an exit from QEMU's translated code per read). */
int32_t fw_launch_start_cmd(uint64_t seq, const rvhal_launch_desc_t *d, const void *args, rvhal_cmd_status_t *st,
                            uint64_t now);

/* Hart 0, after fw_launch_wait_retired: the end time written for the last
 * launch started by fw_launch_start_cmd (its record may since have been
 * rewritten by a privileged kernel; this copy is the firmware's). Read
 * only outside launch_owner.c, like the two serials below. */
extern uint64_t fw_launch_cmd_end_mtime;

/* Ring launch `seq` has ended (status, first faulting hart, start time):
 * write its completion record, publish it, wake the host if it sleeps. */
void fw_launch_complete(uint64_t seq, int32_t status, uint32_t fault_hart, uint64_t start);

/* 1 if the ring launch `d` must not run: RVHAL_LAUNCH_AFTER_OK and the
 * launch before it failed. */
int fw_launch_cancelled(const rvhal_launch_desc_t *d);

/* The next chunk of groups for team `team` at its k-th claim: `dealt` in a
 * fixed rotation (exact timing: every run gives each hart the same work;
 * fw_launch_team_dealt), else taken with an atomic add; `total` (the
 * launch's total_chunks, which the caller keeps in a register) once none
 * are left or the launch failed. */
static inline uintptr_t fw_launch_claim(fw_launch_t *L, uintptr_t team, uintptr_t k, uintptr_t teams, int dealt,
                                        uintptr_t total) {
  if (L->abort) return total;
  if (dealt) return team + k * teams;
  return __atomic_fetch_add((volatile uintptr_t *)&L->next_chunk, 1, __ATOMIC_RELAXED);
}

/* Whether every hart of a team (of more than one) deals its team's claims
 * itself, so that no team barrier publishes them: in fast timing, a launch
 * of one team (it takes every chunk in turn anyway) or of no more chunks
 * than teams (each team gets at most one). Then a team's harts meet only
 * where the kernel needs it (its barriers, its local memory: the SDK); an
 * empty team launch passes no barrier at all. In exact timing the leader's
 * claim barrier stays: it keeps the team together until the leader hands
 * the turn to the next team. */
static inline int fw_launch_team_dealt(const fw_launch_t *L, uintptr_t teams, int exact) {
  return L->team_size > 1 && !exact && (teams == 1 || L->total_chunks <= teams);
}

/* Fail the launch with `status` on behalf of `hart`: the first failure
 * sets the status and the faulting hart, every failure stops further
 * claims and wakes the participants (asleep in a barrier, they leave). */
void fw_launch_fail(const fw_hart_t *hart, int32_t status);

/* Exact timing: wait, asleep, until every participant is asleep and it is
 * team `team`'s turn (or the launch failed); hand the turn to `next_team`. */
void fw_launch_wait_turn(const fw_hart_t *hart, uint32_t team);
void fw_launch_pass_turn(uint32_t next_team);

/* `hart` has done its share and leaves the launch; the last member to
 * leave a closed launch completes it. */
void fw_launch_finish(fw_hart_t *hart);

/* Hart 0: sleep until the launches it started are completed (fw_launches
 * are reusable).
 * Inline, as are the serials it tests: every call and return between
 * pages of firmware code ends QEMU's translation block. */
extern volatile uintptr_t fw_retired; /* launches whose completion is written */
extern uintptr_t fw_started;          /* launches started (a list's launches share a seq) */
void fw_launch_wait_retired_slow(void);
/* At least as many ends as starts: a late lane 1 (fw_launch_late_pair)
 * may end before lane 0 and before hart 0 counts its start. */
static inline int fw_launch_all_retired(void) {
  return (intptr_t)(__atomic_load_n(&fw_retired, __ATOMIC_ACQUIRE) - fw_started) >= 0;
}
static inline void fw_launch_wait_retired(uint64_t seq) {
  (void)seq; /* the launches hart 0 started last */
  /* Hart 0 finished last (always, alone): nothing to wait for, and no IPI
   * to clear (an MMIO write); a stale one costs a later wait one more
   * test. */
  if (fw_launch_all_retired()) return;
  fw_launch_wait_retired_slow();
}

#endif /* FW_LAUNCH_H */
