/* Kernel arguments on the device: the kernels of dt_args take every argument
 * kind (global buffer, POD values of 1, 2, 4, 8, 12, 16 and 24 bytes, local
 * buffers) in several orders and copy what they received into a buffer.
 * Compared byte for byte with what was passed; each member's offset and
 * size as the device compiler laid out the struct must equal
 * rvhal_arg_layout's, the raw struct must equal rvhal_arg_pack's output, and
 * the local buffers must hold a pattern written by the group's items over
 * their whole size (several groups on separate harts, and one group shared
 * by a team of harts).
 *
 * With the argument "natural": the kernel args_natural16 declares a 16-byte
 * POD whose C alignment is 8 without RVHAL_PACKED_ARG, as docs/abi.md allows
 * ("members whose size is a power of two are naturally aligned as the pack
 * needs"); the launch must be refused or deliver the right bytes. */
#include "dev_util.h"
#include "dt_shared.h"
#include "rvhal/arg_pack.h"

#define MAX_MEMBERS 12

typedef enum { M_GLOBAL, M_LOCAL, M_VALUE } mkind_t;

typedef struct {
  mkind_t kind;
  uint32_t size; /* value: bytes; local: buffer size */
  uint8_t data[24];
} member_t;

typedef struct {
  const char *kernel;
  uint32_t n;
  member_t m[MAX_MEMBERS];
} kdesc_t;

#define G {M_GLOBAL, 0, {0}}
#define L(n) {M_LOCAL, n, {0}}
#define V(n) {M_VALUE, n, {0}}

static kdesc_t kernels[] = {
    {"args_a", 8, {G, V(1), V(2), V(4), V(8), V(16), V(24), L(200)}},
    {"args_b", 8, {V(24), V(1), L(64), G, V(8), V(2), V(16), V(4)}},
    {"args_c", 12, {V(1), G, V(1), L(1000), V(2), V(1), V(12), V(4), V(1), V(8), V(16), V(24)}},
    {"args_d", 4, {L(100), G, L(300), V(1)}},
};
static kdesc_t natural = {"args_natural16", 4, {V(1), V(16), V(24), G}};

static uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* One launch of kernel k over `items` work-items in groups of `group`. */
static void run(rvhal_device_t *d, hal_program_t prog, kdesc_t *k, uint32_t items, uint32_t group, int may_refuse) {
  const uint32_t ws = rvhal_device_get_info(d)->word_size;
  hal_addr_t out = dt_buffer(d, (size_t)items * ARGS_SLICE, NULL);
  hal_arg_t args[MAX_MEMBERS];
  uint8_t want[MAX_MEMBERS][24];
  for (uint32_t i = 0; i < k->n; i++) {
    member_t *m = &k->m[i];
    memset(want[i], 0, sizeof want[i]);
    if (m->kind == M_GLOBAL) {
      args[i] = rvhal_arg_global(out);
      memcpy(want[i], &out, ws);
    } else if (m->kind == M_LOCAL) {
      args[i] = rvhal_arg_local(m->size);
      uint64_t sz = m->size;
      memcpy(want[i], &sz, ws);
    } else {
      args[i] = rvhal_arg_value(m->data, m->size);
      memcpy(want[i], m->data, m->size);
    }
  }
  rvhal_arg_layout_t layout[MAX_MEMBERS];
  uint32_t total = 0, max_align = 1;
  CHECK_OK(rvhal_arg_layout(args, k->n, ws, layout, &total));
  for (uint32_t i = 0; i < k->n; i++)
    if (layout[i].align > max_align) max_align = layout[i].align;
  uint32_t struct_size = (total + max_align - 1) / max_align * max_align;
  uint8_t pack[4096];
  uint32_t packed = 0;
  CHECK_OK(rvhal_arg_pack(args, k->n, ws, pack, sizeof pack, &packed));
  CHECK_EQ_U64(packed, total);

  hal_kernel_t kern = fixture_kernel(d, prog, k->kernel);
  hal_ndrange_t nd = {.global = {items}, .local = {group}};
  int rc = rvhal_kernel_exec(d, prog, kern, &nd, args, k->n, 1);
  if (may_refuse && rc == RVHAL_INVALID_ARGUMENT) {
    printf("%s: refused: %s\n", k->kernel, rvhal_last_error());
    CHECK_OK(rvhal_mem_free(d, out));
    return;
  }
  CHECK_MSG(rc == RVHAL_OK, "%s: %s: %s", k->kernel, rvhal_status_name(rc), rvhal_last_error());
  uint8_t *got = malloc((size_t)items * ARGS_SLICE);
  CHECK_OK(rvhal_mem_read(d, got, out, (size_t)items * ARGS_SLICE));
  for (uint32_t it = 0; it < items && rc == RVHAL_OK; it++) {
    const uint8_t *s = got + (size_t)it * ARGS_SLICE;
    int failures_before = check_failures_;
    CHECK_MSG(rd32(s) == struct_size, "%s item %u: sizeof(args) on the device is %u, the pack needs %u", k->kernel,
              it, rd32(s), struct_size);
    CHECK_MSG(rd32(s + 4) == k->n, "%s item %u: %u members dumped, expected %u", k->kernel, it, rd32(s + 4), k->n);
    CHECK_MSG(rd32(s + 8) == 0, "%s item %u: %u local-buffer bytes read back wrong", k->kernel, it, rd32(s + 8));
    CHECK_MSG(rd32(s + 12) == 0, "%s item %u: %u local buffers not aligned to 64", k->kernel, it, rd32(s + 12));
    const uint8_t *e = s + 16;
    for (uint32_t i = 0; i < k->n && rd32(s + 4) == k->n; i++) {
      uint32_t off = rd32(e), size = rd32(e + 4);
      CHECK_MSG(off == layout[i].offset && size == layout[i].size,
                "%s item %u argument %u: device struct has it at offset %u size %u, rvhal_arg_layout at %u size %u",
                k->kernel, it, i, off, size, layout[i].offset, layout[i].size);
      if (size <= 24) CHECK_BYTES(e + 8, want[i], size, "%s item %u argument %u (%u bytes)", k->kernel, it, i, size);
      e += 8 + ((size + 7) & ~7u);
    }
    if (struct_size <= ARGS_SLICE - ARGS_RAW_AT)
      CHECK_BYTES(s + ARGS_RAW_AT, pack, struct_size, "%s item %u: raw argument struct vs rvhal_arg_pack", k->kernel,
                  it);
    if (check_failures_ != failures_before) {
      fprintf(stderr, "  (%s: items after %u not checked)\n", k->kernel, it);
      break;
    }
  }
  free(got);
  CHECK_OK(rvhal_mem_free(d, out));
}

static void randomize(kdesc_t *k, uint64_t seed) {
  for (uint32_t i = 0; i < k->n; i++) {
    dt_fill_random(k->m[i].data, sizeof k->m[i].data, seed * 100 + i);
    /* no zero bytes, so a value that did not arrive cannot match */
    for (size_t b = 0; b < sizeof k->m[i].data; b++) k->m[i].data[b] |= (uint8_t)(b & 1 ? 0x80 : 0x01);
  }
}

int main(int argc, char **argv) {
  int natural_mode = argc > 1 && !strcmp(argv[1], "natural");
  rvhal_device_t *d = fixture_device(3);
  hal_program_t prog = fixture_program(d, "dt_args");
  if (natural_mode) {
    randomize(&natural, 99);
    run(d, prog, &natural, 4, 2, 1);
    run(d, prog, &natural, 3, 3, 1);
    rvhal_device_delete(d);
    return check_result("args_natural_align");
  }
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
    randomize(&kernels[i], i + 1);
    run(d, prog, &kernels[i], 8, 2, 0); /* 4 groups, spread over the harts */
    run(d, prog, &kernels[i], 6, 6, 0); /* one group, a team of harts */
    run(d, prog, &kernels[i], 3, 1, 0); /* groups of one item */
  }
  /* The same kernels again, other values, interleaved. */
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
    randomize(&kernels[i], i + 50);
    run(d, prog, &kernels[i], 4, 4, 0);
  }
  rvhal_device_delete(d);
  return check_result("args");
}
