/* Several programs on one device: dt_prog_a and dt_prog_b (both linked at
 * the program area, each with its own .rodata/.data) loaded at once and
 * launched in turn, every result checked; after freeing one the other still
 * works; kernel names of one program are not found in the other; freed
 * handles are refused; the same file loaded twice gives two working
 * programs. */
#define _GNU_SOURCE /* memmem */
#include "dev_util.h"
#include "dt_shared.h"
#include "rvhal/rvhal_kernel_abi.h"

#define N 96

typedef struct {
  rvhal_device_t *d;
  hal_addr_t in, out;
  uint32_t host_in[N];
} bufs_t;

/* Runs kernel `kern` of `prog` (a: prog_a_affine, else prog_b_mix) and checks out[]. */
static void launch(bufs_t *b, hal_program_t prog, hal_kernel_t kern, int is_a, uint32_t k, const char *what) {
  const uint32_t poison = 0xdeadbeef;
  CHECK_OK(rvhal_mem_fill(b->d, b->out, &poison, 4, N * 4));
  hal_arg_t args[3] = {rvhal_arg_global(b->out), rvhal_arg_global(b->in), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  int rc = rvhal_kernel_exec(b->d, prog, kern, &nd, args, 3, 1);
  CHECK_MSG(rc == RVHAL_OK, "%s: %s: %s", what, rvhal_status_name(rc), rvhal_last_error());
  uint32_t out[N];
  CHECK_OK(rvhal_mem_read(b->d, out, b->out, sizeof out));
  unsigned bad = 0;
  for (size_t i = 0; i < N; i++) {
    uint32_t want = is_a ? want_a(b->host_in[i], k, i) : want_b(b->host_in[i], k, i);
    if (out[i] != want && bad++ < 3)
      fprintf(stderr, "  %s: out[%zu] = 0x%x, expected 0x%x\n", what, i, out[i], want);
  }
  CHECK_MSG(bad == 0, "%s: %u wrong results", what, bad);
}

static void launch_fill(bufs_t *b, hal_program_t prog, hal_kernel_t kern, uint32_t v) {
  hal_arg_t args[2] = {rvhal_arg_global(b->out), rvhal_arg_value(&v, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {4}};
  CHECK_OK(rvhal_kernel_exec(b->d, prog, kern, &nd, args, 2, 1));
  uint32_t out[N];
  CHECK_OK(rvhal_mem_read(b->d, out, b->out, sizeof out));
  unsigned bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += out[i] != v + i;
  CHECK_MSG(bad == 0, "prog_b_fill: %u wrong results", bad);
}

int main(void) {
  bufs_t b = {.d = fixture_device(2)};
  rvhal_device_t *d = b.d;
  for (uint32_t i = 0; i < N; i++) b.host_in[i] = i * 2654435761u;
  b.in = dt_buffer(d, sizeof b.host_in, b.host_in);
  b.out = dt_buffer(d, N * 4, NULL);

  hal_program_t pa = fixture_program(d, "dt_prog_a"), pb = fixture_program(d, "dt_prog_b");
  CHECK(pa != hal_invalid_program && pb != hal_invalid_program && pa != pb);
  hal_kernel_t ka = fixture_kernel(d, pa, "prog_a_affine");
  hal_kernel_t kb = fixture_kernel(d, pb, "prog_b_mix");
  hal_kernel_t kbf = fixture_kernel(d, pb, "prog_b_fill");

  /* Each program's kernel names are unknown in the other. */
  hal_kernel_t k;
  CHECK_FAILS(rvhal_program_find_kernel(d, pb, "prog_a_affine", &k), RVHAL_NOT_FOUND, "not found");
  CHECK_LAST_ERROR_HAS("prog_b_mix"); /* the message lists B's kernels */
  CHECK_FAILS(rvhal_program_find_kernel(d, pa, "prog_b_mix", &k), RVHAL_NOT_FOUND, "prog_b_mix");
  CHECK_FAILS(rvhal_program_find_kernel(d, pa, "prog_b_fill", &k), RVHAL_NOT_FOUND, "not found");
  CHECK_EQ_U64(k, hal_invalid_kernel);

  /* Interleaved: each launch must install its own program. */
  char what[64];
  for (uint32_t r = 0; r < 3; r++) {
    snprintf(what, sizeof what, "A round %u", r);
    launch(&b, pa, ka, 1, 5 + r, what);
    snprintf(what, sizeof what, "B round %u", r);
    launch(&b, pb, kb, 0, 0x5a5a + r, what);
  }
  launch(&b, pb, kb, 0, 1, "B twice in a row (1)");
  launch(&b, pb, kb, 0, 2, "B twice in a row (2)");
  launch_fill(&b, pb, kbf, 1234);
  launch(&b, pa, ka, 1, 77, "A after B's second kernel");

  /* Free A while it is installed: B still works, A is gone. */
  CHECK_OK(rvhal_program_free(d, pa));
  launch(&b, pb, kb, 0, 99, "B after freeing A");
  CHECK_FAILS(rvhal_program_find_kernel(d, pa, "prog_a_affine", &k), RVHAL_NOT_FOUND, "no loaded program");
  {
    uint32_t kk = 1;
    hal_arg_t args[3] = {rvhal_arg_global(b.out), rvhal_arg_global(b.in), rvhal_arg_value(&kk, 4)};
    hal_ndrange_t nd = {.global = {N}, .local = {8}};
    CHECK_FAILS(rvhal_kernel_exec(d, pa, ka, &nd, args, 3, 1), RVHAL_NOT_FOUND, "no loaded program");
  }
  CHECK_FAILS(rvhal_program_free(d, pa), RVHAL_NOT_FOUND, "no loaded program");
  launch(&b, pb, kb, 0, 100, "B after the refused launch of freed A");

  /* Load A again (a new handle), and a second copy of B. */
  hal_program_t pa2 = fixture_program(d, "dt_prog_a");
  CHECK(pa2 != pa && pa2 != pb);
  hal_kernel_t ka2 = fixture_kernel(d, pa2, "prog_a_affine");
  hal_program_t pb2 = fixture_program(d, "dt_prog_b");
  CHECK(pb2 != pb && pb2 != pa2);
  hal_kernel_t kb2 = fixture_kernel(d, pb2, "prog_b_mix");
  launch(&b, pa2, ka2, 1, 3, "A reloaded");
  launch(&b, pb2, kb2, 0, 4, "B second copy");
  launch(&b, pb, kb, 0, 5, "B first copy");
  launch(&b, pa2, ka2, 1, 6, "A reloaded again");

  /* Free B while it is installed, then its copy and A still work. */
  launch(&b, pb, kb, 0, 7, "B before freeing it");
  CHECK_OK(rvhal_program_free(d, pb));
  launch(&b, pb2, kb2, 0, 8, "B copy after freeing B");
  launch(&b, pa2, ka2, 1, 9, "A after freeing B");
  CHECK_OK(rvhal_program_free(d, pb2));
  CHECK_OK(rvhal_program_free(d, pa2));

  /* Loading and freeing many times must not leak global memory, where the
   * programs are staged (checked below: all of it can be allocated). */
  for (int i = 0; i < 200; i++) {
    hal_program_t p = fixture_program(d, i % 2 ? "dt_prog_a" : "dt_prog_b");
    CHECK_OK(rvhal_program_free(d, p));
  }
  hal_program_t pa3 = fixture_program(d, "dt_prog_a");
  launch(&b, pa3, fixture_kernel(d, pa3, "prog_a_affine"), 1, 10, "A after 200 load/free");
  CHECK_OK(rvhal_program_free(d, pa3));

  /* A kernel built for an extension the device lacks is refused at load,
   * naming both ISAs: dt_prog_a with its .riscv.attributes saying V where
   * they said C ("_c2p0" -> "_v2p0"; the code itself is unchanged). */
  {
    char path[1024];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/dt_prog_a.elf", fixture_kernel_dir(d));
    char *elf = dt_read_file(path, &len);
    char *c = elf ? memmem(elf, len, "_c2p0_", 6) : NULL;
    CHECK_MSG(c != NULL, "%s: no '_c2p0_' in its .riscv.attributes", path);
    if (c && !strchr(rvhal_device_get_info(d)->isa + 4, 'v')) {
      c[1] = 'v';
      hal_program_t pv;
      CHECK_FAILS(rvhal_program_load(d, elf, len, &pv), RVHAL_BAD_ELF, "lacks v");
      CHECK_LAST_ERROR_HAS(rvhal_device_get_info(d)->isa);
      CHECK_LAST_ERROR_HAS("_v2p0_");
    }
    free(elf);
  }

  /* A kernel built for another kernel ABI is refused at load, naming both
   * versions: dt_prog_a with its __rvhal_kernel_abi record's version
   * (after the magic word, rvhal_kernel_abi.h) raised by one. */
  {
    char path[1024];
    size_t len = 0;
    snprintf(path, sizeof path, "%s/dt_prog_a.elf", fixture_kernel_dir(d));
    char *elf = dt_read_file(path, &len);
    const uint32_t magic = RVHAL_KERNEL_ABI_MAGIC, other = RVHAL_KERNEL_ABI_VERSION + 1;
    char *m = elf ? memmem(elf, len, &magic, 4) : NULL;
    CHECK_MSG(m != NULL && m + 8 <= elf + len, "%s: no kernel ABI record", path);
    if (m && m + 8 <= elf + len) {
      memcpy(m + 4, &other, 4);
      hal_program_t pv;
      CHECK_FAILS(rvhal_program_load(d, elf, len, &pv), RVHAL_BAD_ELF, "kernel ABI version");
      char want[96];
      snprintf(want, sizeof want, "built for kernel ABI version %u", other);
      CHECK_LAST_ERROR_HAS(want);
    }
    free(elf);
  }

  CHECK_OK(rvhal_mem_free(d, b.in));
  CHECK_OK(rvhal_mem_free(d, b.out));
  hal_addr_t all;
  hal_size_t size = rvhal_device_get_info(d)->global_mem_size;
  CHECK_OK(rvhal_mem_alloc(d, size, 0, &all));
  CHECK_OK(rvhal_mem_free(d, all));
  rvhal_device_delete(d);
  return check_result("programs");
}
