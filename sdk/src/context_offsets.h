/* Offsets context_switch.S uses, in exec_state_t, rvhal_group_t and
 * rvhal_context_t (rvhal_kernel.h); barrier.c pins them with static
 * asserts. For assembly and C alike. */
#ifndef RVHAL_CONTEXT_OFFSETS_H
#define RVHAL_CONTEXT_OFFSETS_H

#if __riscv_xlen == 64
#define SZREG 8
#else
#define SZREG 4
#endif

/* exec_state_t: 18 size_t (ids and sizes), group, self, slot, last, ctx, next_ctx */
#define RVHAL_E_GROUP (18 * SZREG)
#define RVHAL_E_LAST (20 * SZREG + 4)
#define RVHAL_E_CTX (20 * SZREG + 8)
#define RVHAL_E_NEXT_CTX (21 * SZREG + 8)
/* rvhal_group_t: 4 pointers, then uint32_t fields */
#define RVHAL_G_FAST (4 * SZREG + 6 * 4)
#define RVHAL_G_WAITING (4 * SZREG + 9 * 4)

#endif /* RVHAL_CONTEXT_OFFSETS_H */
