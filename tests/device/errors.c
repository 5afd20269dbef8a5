/* Bad inputs to program loading and kernel launches: each gets its status
 * and a message naming the problem, and the device keeps working: after
 * every case a good kernel runs and its result is checked.
 *
 * With the argument "kernel-handles": kernel handles that do not belong to
 * the program (another program's, 0, addresses that find_kernel never
 * returned) must be refused with RVHAL_NOT_FOUND. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev_util.h"
#include "dt_shared.h"

#define N 64

typedef struct {
  rvhal_device_t *d;
  uint32_t word_size;
  hal_program_t pa, pb, pb2;
  hal_kernel_t affine, local, mix, mix2;
  hal_addr_t in, out;
  uint32_t host_in[N];
  uint32_t k; /* changes at every good launch */
  unsigned good_runs;
} ctx_t;

static ctx_t c;

/* The good kernel: prog_a_affine over N items, result checked. */
static void good_at(int line) {
  uint32_t k = ++c.k * 1000003u;
  const uint32_t poison = 0xdeadbeef;
  CHECK_OK(rvhal_mem_fill(c.d, c.out, &poison, 4, N * 4));
  hal_arg_t args[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {4}};
  int rc = rvhal_kernel_exec(c.d, c.pa, c.affine, &nd, args, 3, 1);
  CHECK_MSG(rc == RVHAL_OK, "good kernel after the case at line %d: %s: %s", line, rvhal_status_name(rc),
            rvhal_last_error());
  uint32_t out[N];
  CHECK_OK(rvhal_mem_read(c.d, out, c.out, sizeof out));
  unsigned bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += out[i] != want_a(c.host_in[i], k, i);
  CHECK_MSG(bad == 0, "good kernel after the case at line %d: %u wrong results", line, bad);
  c.good_runs++;
}
#define GOOD() good_at(__LINE__)

/* A call that must fail, then the good kernel. */
#define CASE(expr, status, needle) \
  do {                             \
    CHECK_FAILS(expr, status, needle); \
    GOOD();                        \
  } while (0)

static int exec1(hal_program_t p, hal_kernel_t k, uint64_t g, uint64_t l, const hal_arg_t *args, uint32_t n,
                 uint32_t dim) {
  hal_ndrange_t nd = {.global = {g, g, g}, .local = {l, l, l}};
  return rvhal_kernel_exec(c.d, p, k, &nd, args, n, dim);
}

static int exec_nd(hal_kernel_t k, hal_ndrange_t nd, uint32_t dim) {
  uint32_t kv = 1;
  hal_arg_t args[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  return rvhal_kernel_exec(c.d, c.pa, k, &nd, args, 3, dim);
}

static void ndranges(void) {
  hal_kernel_t k = c.affine;
  CASE(exec_nd(k, (hal_ndrange_t){.global = {0}, .local = {4}}, 1), RVHAL_INVALID_ARGUMENT, "global[0] is 0");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {8, 0}, .local = {4, 1}}, 2), RVHAL_INVALID_ARGUMENT, "global[1] is 0");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {8}, .local = {0}}, 1), RVHAL_INVALID_ARGUMENT, "local[0] is 0");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {8, 2, 2}, .local = {4, 1, 0}}, 3), RVHAL_INVALID_ARGUMENT,
       "local[2] is 0");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {10}, .local = {4}}, 1), RVHAL_INVALID_ARGUMENT,
       "global[0]=10 is not a multiple of local[0]=4");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {8, 9}, .local = {4, 2}}, 2), RVHAL_INVALID_ARGUMENT, "not a multiple");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {8}, .local = {4}}, 0), RVHAL_INVALID_ARGUMENT, "work_dim 0");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {8, 1, 1}, .local = {4, 1, 1}}, 4), RVHAL_INVALID_ARGUMENT, "work_dim 4");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {2048}, .local = {2048}}, 1), RVHAL_INVALID_ARGUMENT, "exceeds");
  CASE(exec_nd(k, (hal_ndrange_t){.global = {64, 64}, .local = {64, 64}}, 2), RVHAL_INVALID_ARGUMENT, "exceeds");
  CASE(exec_nd(k, (hal_ndrange_t){.offset = {UINT64_MAX}, .global = {4}, .local = {4}}, 1), RVHAL_INVALID_ARGUMENT,
       "exceeds");
  if (c.word_size == 4)
    CASE(exec_nd(k, (hal_ndrange_t){.global = {1ull << 32}, .local = {1}}, 1), RVHAL_INVALID_ARGUMENT, "32-bit");
  uint32_t kv = 1;
  hal_arg_t args[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  CASE(rvhal_kernel_exec(c.d, c.pa, k, NULL, args, 3, 1), RVHAL_INVALID_ARGUMENT, "NULL");
  hal_ndrange_t nd = {.global = {8}, .local = {4}};
  CASE(rvhal_kernel_exec(NULL, c.pa, k, &nd, args, 3, 1), RVHAL_INVALID_ARGUMENT, "NULL");

  /* Launch options the device cannot honour. */
  const uint32_t h = rvhal_device_get_info(c.d)->num_harts;
  rvhal_launch_options_t o1 = {.harts = h + 1};
  CASE(rvhal_kernel_exec_ex(c.d, c.pa, k, &nd, args, 3, 1, &o1), RVHAL_INVALID_ARGUMENT, "harts requested");
  rvhal_launch_options_t o2 = {.harts_per_group = h + 1};
  CASE(rvhal_kernel_exec_ex(c.d, c.pa, k, &nd, args, 3, 1, &o2), RVHAL_INVALID_ARGUMENT, "must divide");
  hal_ndrange_t small = {.global = {8}, .local = {1}};
  rvhal_launch_options_t o3 = {.harts_per_group = h};
  if (h > 1)
    CASE(rvhal_kernel_exec_ex(c.d, c.pa, k, &small, args, 3, 1, &o3), RVHAL_INVALID_ARGUMENT, "only 1 work-items");
}

static void arguments(void) {
  hal_kernel_t k = c.affine;
  uint32_t kv = 5;
  uint64_t k8 = 5;
  uint16_t k2 = 5;
  /* Count. */
  hal_arg_t two[2] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in)};
  CASE(exec1(c.pa, k, 8, 4, two, 2, 1), RVHAL_INVALID_ARGUMENT, "takes 3 arguments, 2 given");
  hal_arg_t four[4] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4),
                       rvhal_arg_value(&kv, 4)};
  CASE(exec1(c.pa, k, 8, 4, four, 4, 1), RVHAL_INVALID_ARGUMENT, "takes 3 arguments, 4 given");
  CASE(exec1(c.pa, k, 8, 4, NULL, 0, 1), RVHAL_INVALID_ARGUMENT, "takes 3 arguments, 0 given");
  CASE(exec1(c.pa, k, 8, 4, NULL, 3, 1), RVHAL_INVALID_ARGUMENT, "args is NULL");
  /* Kind. */
  hal_arg_t kind0[3] = {rvhal_arg_value(&k8, 8), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  CASE(exec1(c.pa, k, 8, 4, kind0, 3, 1), RVHAL_INVALID_ARGUMENT, "argument 0 must be a global buffer, got a POD value");
  hal_arg_t kind1[3] = {rvhal_arg_global(c.out), rvhal_arg_local(64), rvhal_arg_value(&kv, 4)};
  CASE(exec1(c.pa, k, 8, 4, kind1, 3, 1), RVHAL_INVALID_ARGUMENT, "argument 1 must be a global buffer, got a local buffer");
  hal_arg_t kind2[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_global(c.in)};
  CASE(exec1(c.pa, k, 8, 4, kind2, 3, 1), RVHAL_INVALID_ARGUMENT, "argument 2 must be a POD value, got a global buffer");
  hal_arg_t kind3[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  kind3[1].space = (hal_addr_space_t)7;
  CASE(exec1(c.pa, k, 8, 4, kind3, 3, 1), RVHAL_INVALID_ARGUMENT, "neither global nor local");
  kind3[1] = rvhal_arg_global(c.in);
  kind3[2].kind = (hal_arg_kind_t)5;
  CASE(exec1(c.pa, k, 8, 4, kind3, 3, 1), RVHAL_INVALID_ARGUMENT, "neither address nor value");
  /* POD size. */
  hal_arg_t size8[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&k8, 8)};
  CASE(exec1(c.pa, k, 8, 4, size8, 3, 1), RVHAL_INVALID_ARGUMENT, "argument 2 is a POD value of 4 bytes, got 8 bytes");
  hal_arg_t size2[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&k2, 2)};
  CASE(exec1(c.pa, k, 8, 4, size2, 3, 1), RVHAL_INVALID_ARGUMENT, "got 2 bytes");
  hal_arg_t size0[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 0)};
  CASE(exec1(c.pa, k, 8, 4, size0, 3, 1), RVHAL_INVALID_ARGUMENT, "size 0");
  hal_arg_t nulldata[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(NULL, 4)};
  CASE(exec1(c.pa, k, 8, 4, nulldata, 3, 1), RVHAL_INVALID_ARGUMENT, "NULL data");
  static uint8_t big[8192];
  hal_arg_t huge[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(big, sizeof big)};
  CASE(exec1(c.pa, k, 8, 4, huge, 3, 1), RVHAL_INVALID_ARGUMENT, "larger than any pack");
  hal_arg_t many[RVHAL_META_MAX_ARGS + 1];
  for (int i = 0; i < RVHAL_META_MAX_ARGS + 1; i++) many[i] = rvhal_arg_value(&kv, 4);
  char many_msg[32];
  snprintf(many_msg, sizeof many_msg, "%d arguments", RVHAL_META_MAX_ARGS + 1);
  CASE(exec1(c.pa, k, 8, 4, many, RVHAL_META_MAX_ARGS + 1, 1), RVHAL_INVALID_ARGUMENT, many_msg);

  /* Buffers that are not inside any allocation. */
  hal_arg_t unmapped[3] = {rvhal_arg_global(c.out), rvhal_arg_global(0x1000), rvhal_arg_value(&kv, 4)};
  CASE(exec1(c.pa, k, 8, 4, unmapped, 3, 1), RVHAL_OUT_OF_RANGE, "argument 1: buffer address 0x1000 is not inside any");
  /* Just past the end of an allocation that has free memory after it (it
   * is alone in its MiB). */
  hal_addr_t lone;
  CHECK_OK(rvhal_mem_alloc(c.d, 256, 1u << 20, &lone));
  hal_arg_t past[3] = {rvhal_arg_global(lone + 256), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  CASE(exec1(c.pa, k, 8, 4, past, 3, 1), RVHAL_OUT_OF_RANGE, "not inside any allocation");
  CHECK_OK(rvhal_mem_free(c.d, lone));
  hal_addr_t freed;
  CHECK_OK(rvhal_mem_alloc(c.d, 256, 0, &freed));
  CHECK_OK(rvhal_mem_free(c.d, freed));
  hal_arg_t gone[3] = {rvhal_arg_global(freed), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  CASE(exec1(c.pa, k, 8, 4, gone, 3, 1), RVHAL_OUT_OF_RANGE, "argument 0");
  hal_arg_t prog_area[3] = {rvhal_arg_global(c.out), rvhal_arg_global(rvhal_device_get_info(c.d)->program_area_base),
                            rvhal_arg_value(&kv, 4)};
  CASE(exec1(c.pa, k, 8, 4, prog_area, 3, 1), RVHAL_OUT_OF_RANGE, "not inside any allocation");

  /* Local memory: over the limit is refused before the launch, with both
   * numbers in the message; exactly the limit works. */
  const uint64_t lm = rvhal_device_get_info(c.d)->local_mem_size;
  char lm_str[32], need_str[32];
  snprintf(lm_str, sizeof lm_str, "%llu", (unsigned long long)lm);
  hal_arg_t loc[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_local(lm + 1)};
  snprintf(need_str, sizeof need_str, "needs %llu bytes", (unsigned long long)(lm + RVHAL_LOCAL_ALIGN));
  CHECK_FAILS(exec1(c.pa, c.local, 8, 4, loc, 3, 1), RVHAL_LOCAL_MEMORY, need_str);
  CHECK_LAST_ERROR_HAS(lm_str);
  GOOD();
  loc[2] = rvhal_arg_local(70000);
  CHECK_FAILS(exec1(c.pa, c.local, 8, 4, loc, 3, 1), RVHAL_LOCAL_MEMORY, "70016");
  CHECK_LAST_ERROR_HAS(lm_str);
  GOOD();
  loc[2] = rvhal_arg_local(1ull << 31);
  CHECK_FAILS(exec1(c.pa, c.local, 8, 4, loc, 3, 1), RVHAL_LOCAL_MEMORY, "2147483648");
  GOOD();
  /* A 0-byte local buffer: the kernel would get address 0 and trap there. */
  loc[2] = rvhal_arg_local(0);
  CHECK_FAILS(exec1(c.pa, c.local, 8, 4, loc, 3, 1), RVHAL_INVALID_ARGUMENT, "argument 2");
  CHECK_LAST_ERROR_HAS("local buffer of 0 bytes");
  GOOD();
  loc[2] = rvhal_arg_local(lm);
  int rc = exec1(c.pa, c.local, 8, 4, loc, 3, 1);
  CHECK_MSG(rc == RVHAL_OK, "local buffer of exactly local_mem_size (%llu): %s: %s", (unsigned long long)lm,
            rvhal_status_name(rc), rvhal_last_error());
  uint32_t out[8];
  CHECK_OK(rvhal_mem_read(c.d, out, c.out, sizeof out));
  for (int g = 0; g < 2; g++) {
    uint32_t s = 0;
    for (int j = 0; j < 4; j++) s += c.host_in[g * 4 + j] * (uint32_t)(j + 1);
    for (int j = 0; j < 4; j++) CHECK_EQ_U64(out[g * 4 + j], s);
  }
  GOOD();
}

/* A kernel file's bytes; a failed CHECK if it cannot be read. */
static uint8_t *read_kernel_file(const char *path, size_t *size) {
  uint8_t *elf = (uint8_t *)dt_read_file(path, size);
  CHECK_MSG(elf != NULL, "cannot open %s", path);
  return elf;
}

static void programs(void) {
  char path[1024];
  hal_program_t p = 12345;
  /* Truncated: every prefix of a real kernel file is refused. */
  snprintf(path, sizeof path, "%s/dt_prog_a.elf", fixture_kernel_dir(c.d));
  size_t size;
  uint8_t *elf = read_kernel_file(path, &size);
  if (elf) {
    CHECK_OK(rvhal_program_load(c.d, elf, size, &p)); /* the whole file is fine */
    CHECK_OK(rvhal_program_free(c.d, p));
    const size_t cuts[] = {0, 1, 4, 16, 52, 63, 64, 120, size / 4, size / 2, size - 64, size - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
      p = 12345;
      CHECK_FAILS(rvhal_program_load(c.d, elf, cuts[i], &p), RVHAL_BAD_ELF, "ELF");
      CHECK_EQ_U64(p, hal_invalid_program);
    }
    unsigned accepted = 0;
    for (size_t cut = 0; cut < size; cut += 7) {
      if (rvhal_program_load(c.d, elf, cut, &p) == RVHAL_OK) {
        if (accepted++ == 0) fprintf(stderr, "  truncated to %zu of %zu bytes: accepted\n", cut, size);
        rvhal_program_free(c.d, p);
      }
    }
    CHECK_MSG(accepted == 0, "%u truncated copies of %s were accepted", accepted, path);
    GOOD();
    /* A file on disk, cut. */
    char cutpath[] = "/tmp/rvhal-test-cut-XXXXXX";
    int fd = mkstemp(cutpath);
    if (fd >= 0) {
      CHECK(write(fd, elf, size / 3) == (ssize_t)(size / 3));
      close(fd);
      CASE(rvhal_program_load_file(c.d, cutpath, &p), RVHAL_BAD_ELF, cutpath);
      unlink(cutpath);
    }
    /* Valid magic, random rest. */
    uint8_t *junk = malloc(size);
    dt_fill_random(junk, size, 17);
    memcpy(junk, elf, 4);
    CASE(rvhal_program_load(c.d, junk, size, &p), RVHAL_BAD_ELF, "ELF");
    /* Random bytes. */
    dt_fill_random(junk, size, 18);
    junk[0] = 0; /* not 0x7f */
    CASE(rvhal_program_load(c.d, junk, size, &p), RVHAL_BAD_ELF, "not an ELF file");
    free(junk);
    free(elf);
  }
  CASE(rvhal_program_load(c.d, NULL, 100, &p), RVHAL_INVALID_ARGUMENT, NULL);
  CASE(rvhal_program_load_file(c.d, "/nonexistent/kernel.elf", &p), RVHAL_NOT_FOUND, "/nonexistent/kernel.elf");

  /* An ELF for another machine: this test program (on the RV32 device its
   * class is refused first), and a kernel file with e_machine changed. */
  CASE(rvhal_program_load_file(c.d, "/proc/self/exe", &p), RVHAL_BAD_ELF, c.word_size == 8 ? "RISC-V" : "ELF");
  snprintf(path, sizeof path, "%s/dt_prog_a.elf", fixture_kernel_dir(c.d));
  elf = read_kernel_file(path, &size);
  if (elf && size > 20) {
    const uint16_t machines[] = {3 /* EM_386 */, 62 /* EM_X86_64 */, 183 /* EM_AARCH64 */, 0};
    for (int i = 0; i < 4; i++) {
      memcpy(elf + 18, &machines[i], 2); /* e_machine, the same offset in both classes */
      CASE(rvhal_program_load(c.d, elf, size, &p), RVHAL_BAD_ELF, "expected 243 (RISC-V)");
    }
  }
  free(elf);

  /* A kernel for the other word size. */
  const char *other = c.word_size == 8 ? RVHAL_TEST_KERNEL_DIR_RV32 : RVHAL_TEST_KERNEL_DIR_RV64;
  snprintf(path, sizeof path, "%s/dt_prog_a.elf", other);
  if (access(path, R_OK) == 0)
    CASE(rvhal_program_load_file(c.d, path, &p), RVHAL_BAD_ELF,
         c.word_size == 8 ? "class is ELFCLASS32 (RV32) but the device is RV64"
                          : "class is ELFCLASS64 (RV64) but the device is RV32");
  else
    fprintf(stderr, "  (no %s: skipped the other word size)\n", path);

  /* Kernel names. */
  hal_kernel_t k = 1;
  CHECK_FAILS(rvhal_program_find_kernel(c.d, c.pa, "no_such_kernel", &k), RVHAL_NOT_FOUND, "no_such_kernel");
  CHECK_LAST_ERROR_HAS("prog_a_affine"); /* the message lists the kernels */
  CHECK_EQ_U64(k, hal_invalid_kernel);
  GOOD();
  CASE(rvhal_program_find_kernel(c.d, c.pa, "", &k), RVHAL_NOT_FOUND, "not found");
  /* Symbols that are not kernels: a static function, the metadata object. */
  CASE(rvhal_program_find_kernel(c.d, c.pa, "prog_a_local_item", &k), RVHAL_NOT_FOUND, "not found");
  CASE(rvhal_program_find_kernel(c.d, c.pa, "prog_a_affine__rvhal_meta", &k), RVHAL_NOT_FOUND, "not found");
  CASE(rvhal_program_find_kernel(c.d, c.pa, "prog_a_table", &k), RVHAL_NOT_FOUND, "not found");
  CASE(rvhal_program_find_kernel(c.d, c.pa, "Prog_A_Affine", &k), RVHAL_NOT_FOUND, "not found");
  CASE(rvhal_program_find_kernel(c.d, c.pa, NULL, &k), RVHAL_INVALID_ARGUMENT, "NULL");

  /* Program handles. */
  uint32_t kv = 1;
  hal_arg_t args[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  CASE(rvhal_program_find_kernel(c.d, 9999, "prog_a_affine", &k), RVHAL_NOT_FOUND, "no loaded program has handle 9999");
  CASE(rvhal_program_find_kernel(c.d, hal_invalid_program, "prog_a_affine", &k), RVHAL_NOT_FOUND, "no loaded program");
  CASE(exec1(9999, c.affine, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "no loaded program has handle 9999");
  CASE(exec1(hal_invalid_program, c.affine, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "no loaded program");
  CASE(rvhal_program_free(c.d, 9999), RVHAL_NOT_FOUND, "9999");

  /* Kernel handles from another program, or not from find_kernel. */
  CASE(exec1(c.pb, c.affine, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "not a kernel of program"); /* A's on B */
  CASE(exec1(c.pa, c.mix, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "not a kernel of program");    /* B's on A */
  CASE(exec1(c.pa, c.affine + 2, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "not a kernel of program");
  CASE(exec1(c.pa, 0x12345678, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "not a kernel of program");
}

/* Kernel handles that do not belong to the program but that the library
 * takes for one (errors_kernel_handles). */
static void kernel_handles(void) {
  uint32_t kv = 1;
  hal_arg_t args[3] = {rvhal_arg_global(c.out), rvhal_arg_global(c.in), rvhal_arg_value(&kv, 4)};
  /* hal_invalid_kernel. */
  CASE(exec1(c.pa, hal_invalid_kernel, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "not a kernel of program");
  /* B's handle on B2, the same code built with other constants (so its
   * kernels sit at the same addresses, which must not make the handles
   * interchangeable). */
  CHECK(c.mix != c.mix2);
  CASE(exec1(c.pb2, c.mix, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "not a kernel of program");
  /* A handle that no find_kernel returned: the program's first function,
   * a static helper at the start of the program area. */
  hal_addr_t start = rvhal_device_get_info(c.d)->program_area_base;
  CASE(exec1(c.pa, start, 8, 4, args, 3, 1), RVHAL_NOT_FOUND, "not a kernel of program");
}

int main(int argc, char **argv) {
  c.d = fixture_device(2);
  c.word_size = rvhal_device_get_info(c.d)->word_size;
  for (uint32_t i = 0; i < N; i++) c.host_in[i] = i * 40503u + 7;
  c.in = dt_buffer(c.d, sizeof c.host_in, c.host_in);
  c.out = dt_buffer(c.d, N * 4, NULL);
  c.pa = fixture_program(c.d, "dt_prog_a");
  c.pb = fixture_program(c.d, "dt_prog_b");
  c.pb2 = fixture_program(c.d, "dt_prog_b2");
  c.affine = fixture_kernel(c.d, c.pa, "prog_a_affine");
  c.local = fixture_kernel(c.d, c.pa, "prog_a_local");
  c.mix = fixture_kernel(c.d, c.pb, "prog_b_mix");
  c.mix2 = fixture_kernel(c.d, c.pb2, "prog_b_mix");
  GOOD();
  if (argc > 1 && !strcmp(argv[1], "kernel-handles")) {
    kernel_handles();
    rvhal_device_delete(c.d);
    return check_result("errors_kernel_handles");
  }
  ndranges();
  arguments();
  programs();
  printf("good kernel ran %u times\n", c.good_runs);
  rvhal_device_delete(c.d);
  return check_result("errors");
}
