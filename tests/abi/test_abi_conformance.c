/* On-device ABI conformance: for many argument lists (every POD size 1-32,
 * 48, 64, 100, 128, 200, 256, mixed orders, many local buffers) the kernel
 * reads each argument through the ABI's `args` pointer at the offset the
 * documented rule gives, and reports any argument whose bytes differ. The
 * rule is computed here independently of the library's packer, and checked
 * against the worked examples of docs/abi.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi_check.h"
#include "check.h"
#include "device_fixture.h"

/* The documented rule, written independently of host/src/program/arg_pack.c. */
static uint32_t next_pow2(uint32_t v) {
  uint32_t p = 1;
  while (p < v) p *= 2;
  return p;
}

static uint32_t packed_size(const hal_arg_t *a, uint32_t word) {
  return a->kind == hal_arg_value ? (uint32_t)a->size : word;
}

static uint32_t rule_layout(const hal_arg_t *args, uint32_t n, uint32_t word, uint32_t *offsets) {
  uint32_t at = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t size = packed_size(&args[i], word), align = next_pow2(size);
    at = (at + align - 1) / align * align;
    offsets[i] = at;
    at += size;
  }
  return at;
}

/* docs/abi.md's worked examples: the rule above must reproduce them. */
static void check_docs_examples(void) {
  static uint8_t pod[128];
  hal_arg_t g = rvhal_arg_global(0x80000000);
  hal_arg_t ex1[] = {g, rvhal_arg_value(pod, 4), rvhal_arg_value(pod, 8), rvhal_arg_local(256),
                     rvhal_arg_value(pod, 24)};
  uint32_t off[8];
  CHECK_EQ_U64(rule_layout(ex1, 5, 8, off), 56);
  CHECK(off[0] == 0 && off[1] == 8 && off[2] == 16 && off[3] == 24 && off[4] == 32);
  CHECK_EQ_U64(rule_layout(ex1, 5, 4, off), 56);
  CHECK(off[0] == 0 && off[1] == 4 && off[2] == 8 && off[3] == 16 && off[4] == 32);
  hal_arg_t ex2[] = {rvhal_arg_value(pod, 1), rvhal_arg_value(pod, 2), rvhal_arg_value(pod, 1),
                     rvhal_arg_value(pod, 4), rvhal_arg_value(pod, 3), rvhal_arg_value(pod, 8)};
  CHECK_EQ_U64(rule_layout(ex2, 6, 8, off), 24);
  CHECK(off[1] == 2 && off[2] == 4 && off[3] == 8 && off[4] == 12 && off[5] == 16);
  hal_arg_t ex3[] = {rvhal_arg_value(pod, 1),   g, rvhal_arg_value(pod, 16), rvhal_arg_local(100),
                     rvhal_arg_value(pod, 100), rvhal_arg_value(pod, 2)};
  CHECK_EQ_U64(rule_layout(ex3, 6, 4, off), 230);
  CHECK(off[1] == 4 && off[2] == 16 && off[3] == 32 && off[4] == 128 && off[5] == 228);
  CHECK_EQ_U64(rule_layout(ex3, 6, 8, off), 230);
  CHECK(off[1] == 8 && off[4] == 128);
}

typedef struct list {
  hal_arg_t args[ABI_CHECK_MAX_ARGS];
  uint32_t n;
  char name[96];
} list_t;

static uint8_t pool[64][256];
static uint32_t seed = 12345;
static uint32_t rnd(void) {
  seed = seed * 1103515245u + 12345u;
  return seed >> 8;
}

static hal_arg_t pod_arg(uint32_t slot, uint32_t size) {
  for (uint32_t i = 0; i < size; i++) pool[slot][i] = (uint8_t)rnd();
  return rvhal_arg_value(pool[slot], size);
}

static void run_list(rvhal_device_t *d, hal_program_t p, hal_kernel_t k, list_t *l, hal_addr_t desc_addr,
                     abi_check_desc_t *desc) {
  uint32_t word = rvhal_device_get_info(d)->word_size, offsets[ABI_CHECK_MAX_ARGS];
  l->args[0] = rvhal_arg_global(desc_addr); /* argument 0: the descriptor */
  rule_layout(l->args, l->n, word, offsets);
  memset(desc, 0, sizeof *desc);
  desc->num_args = l->n;
  uint32_t at = 0;
  for (uint32_t i = 0; i < l->n; i++) {
    const hal_arg_t *a = &l->args[i];
    uint32_t size = packed_size(a, word);
    desc->arg[i] = (abi_check_arg_t){offsets[i], size, at, 0};
    if (a->kind == hal_arg_value) {
      memcpy(desc->expect + at, a->pod_data, size);
    } else {
      uint64_t v = a->space == hal_space_local ? a->size : a->address;
      memcpy(desc->expect + at, &v, word); /* little-endian device word */
    }
    at += size;
  }
  CHECK_OK(rvhal_mem_write(d, desc_addr, desc, sizeof *desc));
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  int rc = rvhal_kernel_exec(d, p, k, &nd, l->args, l->n, 1);
  CHECK_MSG(rc == 0, "%s: kernel_exec: %s", l->name, rvhal_last_error());
  if (rc) return;
  CHECK_OK(rvhal_mem_read(d, desc, desc_addr, sizeof *desc));
  CHECK_MSG(desc->done == ABI_CHECK_DONE, "%s: the kernel did not run", l->name);
  CHECK_MSG(desc->pack_address % 64 == 0, "%s: pack at 0x%llx is not 64-byte aligned", l->name,
            (unsigned long long)desc->pack_address);
  for (uint32_t i = 0; i < l->n; i++)
    CHECK_MSG(desc->seen_ok[i], "%s (RV%u): argument %u (size %u) not found at offset %u; first byte there 0x%02x",
              l->name, word * 8, i, desc->arg[i].size, desc->arg[i].offset, desc->found[i][0]);
  CHECK_MSG(desc->mismatches == 0, "%s: %u mismatches", l->name, desc->mismatches);
}

int main(void) {
  check_docs_examples();
  rvhal_device_t *d = fixture_device(1);
  hal_program_t p = fixture_program(d, "abi_check");
  hal_kernel_t k = fixture_kernel(d, p, "abi_check");
  hal_addr_t desc_addr, buf_addr;
  CHECK_OK(rvhal_mem_alloc(d, sizeof(abi_check_desc_t), 0, &desc_addr));
  CHECK_OK(rvhal_mem_alloc(d, 4096, 0, &buf_addr));
  abi_check_desc_t *desc = calloc(1, sizeof *desc);
  static const uint32_t sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,  13,  14,  15,  16,  17,
                                   18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,  31,  32,  48,  64,
                                   100, 128, 200, 256};
  /* The lists below: one per size, RANDOM_LISTS random ones, and two more. */
  enum { RANDOM_LISTS = 12, NUM_LISTS = sizeof sizes / sizeof *sizes + RANDOM_LISTS + 2 };
  _Static_assert(NUM_LISTS >= 40, "the ABI check runs at least 40 argument lists");
  /* Every size, after a 1-byte value and before a local and a buffer. */
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    list_t l = {.n = 6};
    uint32_t s = sizes[si];
    l.args[1] = pod_arg(1, 1);
    l.args[2] = pod_arg(2, s);
    l.args[3] = rvhal_arg_local(s * 3);
    l.args[4] = rvhal_arg_global(buf_addr + 64);
    l.args[5] = pod_arg(5, s);
    snprintf(l.name, sizeof l.name, "ptr,u8,bytes:%u,local:%u,ptr,bytes:%u", s, s * 3, s);
    run_list(d, p, k, &l, desc_addr, desc);
  }
  /* Mixed orders: random kinds and sizes. */
  for (int r = 0; r < RANDOM_LISTS; r++) {
    list_t l = {.n = 2 + rnd() % 20};
    int n = snprintf(l.name, sizeof l.name, "random list %d:", r);
    for (uint32_t i = 1; i < l.n; i++) {
      uint32_t kind = rnd() % 4;
      if (kind == 0) l.args[i] = rvhal_arg_global(buf_addr + (rnd() % 64) * 16);
      else if (kind == 1) l.args[i] = rvhal_arg_local(1 + rnd() % 512);
      else l.args[i] = pod_arg(i, sizes[rnd() % (sizeof sizes / sizeof *sizes)]);
      if (n < (int)sizeof l.name - 8) n += snprintf(l.name + n, sizeof l.name - (size_t)n, " %c", "glvv"[kind]);
    }
    run_list(d, p, k, &l, desc_addr, desc);
  }
  /* Many local buffers. */
  {
    list_t l = {.n = 32};
    for (uint32_t i = 1; i < l.n; i++) l.args[i] = rvhal_arg_local(64 * i);
    snprintf(l.name, sizeof l.name, "ptr + 31 local buffers");
    run_list(d, p, k, &l, desc_addr, desc);
  }
  /* Descending sizes, and a 4-byte value after every big one. */
  {
    list_t l = {.n = 1};
    for (int i = (int)(sizeof sizes / sizeof *sizes) - 1; i >= 0 && l.n < 30; i -= 2) {
      l.args[l.n] = pod_arg(l.n, sizes[i]);
      l.n++;
      l.args[l.n] = pod_arg(l.n, 4);
      l.n++;
    }
    snprintf(l.name, sizeof l.name, "descending sizes interleaved with u32");
    run_list(d, p, k, &l, desc_addr, desc);
  }
  printf("ABI conformance on %s: %d argument lists\n", rvhal_device_get_info(d)->name, (int)NUM_LISTS);
  free(desc);
  rvhal_program_free(d, p);
  rvhal_device_delete(d);
  return check_result("abi_conformance");
}
