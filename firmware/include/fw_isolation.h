/* How U-mode kernels are kept to their memory: one interface, two schemes.
 * The board's build picks one (firmware/CMakeLists.txt, by the board's
 * privilege mode): isolation_pmp.c (M-mode firmware: PMP entries per hart)
 * or isolation_pt.c (S-mode firmware: Sv39 page tables per hart). Both
 * give a kernel the same reach (fw_reach_t, computed per share in user.c)
 * and keep every guard out of it. */
#ifndef FW_ISOLATION_H
#define FW_ISOLATION_H

#include <stdint.h>

/* What a U-mode kernel of one hart may reach in one share, as [lo, hi)
 * pairs, all page-aligned: the installed program (code and read-only data
 * below `data`, RX; its data segment up to `top`, RW), its team's stacks,
 * its own work-item stack pool, and global memory (all RW). */
typedef struct fw_reach {
  uintptr_t prog, data, top;
  uintptr_t stacks, stacks_end;
  uintptr_t pool, pool_end;
  uintptr_t heap, heap_end;
} fw_reach_t;

/* Cold boot, before the other harts start: state every hart shares. */
void fw_isolation_boot(void);
/* Each hart at start-up: its guards, what never changes, counter access
 * for U-mode, isolation on. */
void fw_isolation_hart(uint32_t index);
/* Hart 0, before it writes a program into the program area. */
void fw_isolation_install_begin(void);
/* Hart 0, after: the installed program's code/data boundary and end. */
void fw_isolation_program(uintptr_t data, uintptr_t top);
/* Each hart, per share, before its kernel runs: its reach (a privileged
 * launch's kernel runs in the firmware's mode, not isolated). */
void fw_isolation_share(uint32_t index, const fw_reach_t *r, int privileged);

#endif /* FW_ISOLATION_H */
