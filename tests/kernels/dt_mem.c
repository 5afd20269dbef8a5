/* Device tests (tests/device/memory.c, queues.c): device memory read on the device. */
#include "kernel_if.h"

/* out[i] = FNV-1a (seeded with i) of in[i*chunk, min(n, (i+1)*chunk)). */
typedef struct {
  __global const uchar *in;
  __global uint *out;
  uint64_t n;
  uint64_t chunk;
} mem_checksum_args;

static void mem_checksum_item(const mem_checksum_args *a, exec_state_t *e) {
  uint64_t i = get_global_id(0, e);
  uint64_t lo = i * a->chunk, hi = lo + a->chunk;
  if (hi > a->n) hi = a->n;
  uint h = 2166136261u ^ (uint)i;
  for (uint64_t b = lo; b < hi; b++) h = (h ^ a->in[b]) * 16777619u;
  a->out[i] = h;
}

RVHAL_KERNEL(mem_checksum, mem_checksum_args, mem_checksum_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out), RVHAL_VALUE(n), RVHAL_VALUE(chunk))

/* tests/device/hostile.c's residue check: out[0] = how many nonzero words
 * lie between the end of this program's code and the end of its last code
 * page (what its install does not write: a previous, longer program's
 * code before the firmware cleared it), out[1] = how many words that is. */
extern char __rvhal_code_end[];

typedef struct {
  __global uint *out;
} mem_code_tail_args;

static void mem_code_tail_item(const mem_code_tail_args *a, exec_state_t *e) {
  if (get_global_id(0, e) != 0) return;
  const uintptr_t end = (uintptr_t)__rvhal_code_end;
  const volatile uint *p = (const volatile uint *)((end + 3) & ~(uintptr_t)3);
  const volatile uint *q = (const volatile uint *)((end + 4095) & ~(uintptr_t)4095);
  uint nonzero = 0, words = 0;
  for (; p < q; p++, words++) nonzero += *p != 0;
  a->out[0] = nonzero;
  a->out[1] = words;
}
RVHAL_KERNEL(mem_code_tail, mem_code_tail_args, mem_code_tail_item, RVHAL_GLOBAL(out))

/* tests/device/queues.c's overlap check: polls flag[0] until it holds
 * `value` (the host writes it while this runs), at most `polls` times;
 * out[0] = 1 if it saw it, out[1] = the polls it made. */
typedef struct {
  __global uint *flag;
  __global uint *out;
  uint value;
  uint polls;
} mem_wait_word_args;

static void mem_wait_word_item(const mem_wait_word_args *a, exec_state_t *e) {
  if (get_global_id(0, e) != 0) return;
  const volatile uint *flag = a->flag;
  uint n = 0;
  while (n < a->polls && *flag != a->value) n++;
  a->out[0] = *flag == a->value;
  a->out[1] = n;
}
RVHAL_KERNEL(mem_wait_word, mem_wait_word_args, mem_wait_word_item, RVHAL_GLOBAL(flag), RVHAL_GLOBAL(out),
             RVHAL_VALUE(value), RVHAL_VALUE(polls))

/* tests/device/queues.c's pair check: flag[0] = value, for a mem_wait_word
 * running beside it on other harts. */
typedef struct {
  __global uint *flag;
  uint value;
} mem_set_word_args;

static void mem_set_word_item(const mem_set_word_args *a, exec_state_t *e) {
  if (get_global_id(0, e) == 0) *(volatile uint *)a->flag = a->value;
}
RVHAL_KERNEL(mem_set_word, mem_set_word_args, mem_set_word_item, RVHAL_GLOBAL(flag), RVHAL_VALUE(value))

/* tests/device/queues.c's pair with a trap: a load from `addr`, where the
 * kernel may not read (a load access fault). */
typedef struct {
  uint64_t addr;
} mem_fault_args;

static void mem_fault_item(const mem_fault_args *a, exec_state_t *e) {
  if (get_global_id(0, e) == 0) (void)*(const volatile uint *)(uintptr_t)a->addr;
}
RVHAL_KERNEL(mem_fault, mem_fault_args, mem_fault_item, RVHAL_VALUE(addr))
