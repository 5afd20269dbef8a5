/* rvhal_program_info_read on real kernel ELFs (no device): the kernels and
 * their typed arguments that RVHAL_KERNEL_ENTRY records, the untyped ones of
 * RVHAL_KERNEL, metadata version 2 still read, an unknown version refused
 * with a message. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rvhal/rvhal.h"

static uint8_t *read_all(const char *path, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  uint8_t *b = malloc((size_t)n);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) b = (free(b), NULL);
  fclose(f);
  *out_size = (size_t)n;
  return b;
}

/* Every metadata block's version field (after the "META" magic). */
static int set_meta_version(uint8_t *elf, size_t size, uint32_t version) {
  int n = 0;
  for (size_t i = 0; i + 8 <= size; i++)
    if (!memcmp(elf + i, "META", 4) && elf[i + 5] == 0 && elf[i + 6] == 0 && elf[i + 7] == 0 && elf[i + 4] <= 9) {
      memcpy(elf + i + 4, &version, 4);
      n++;
    }
  return n;
}

int main(void) {
  const char *dir = RVHAL_TEST_KERNEL_DIR_RV64;
  char path[1024];
  size_t size;

  /* pod_values: RVHAL_KERNEL_ENTRY, values of many types. */
  snprintf(path, sizeof path, "%s/pod_values.elf", RVHAL_EXAMPLE_KERNEL_DIR_RV64);
  uint8_t *elf = read_all(path, &size);
  CHECK_MSG(elf != NULL, "%s", path);
  if (!elf) return check_result("test_program_info");
  rvhal_program_info_t *info = NULL;
  CHECK_OK(rvhal_program_info_read(elf, size, &info));
  if (info) {
    CHECK_EQ_U64(info->word_size, 8);
    CHECK_EQ_U64(info->num_kernels, 1);
    const rvhal_kernel_info_t *k = &info->kernels[0];
    CHECK(!strcmp(k->name, "pod_values_entry"));
    CHECK_EQ_U64(k->num_args, 10);
    CHECK_EQ_U64(k->meta_version, RVHAL_META_VERSION);
    static const uint32_t types[10] = {0, RVHAL_TYPE_I8, RVHAL_TYPE_I64, RVHAL_TYPE_I16, RVHAL_TYPE_POD,
                                       RVHAL_TYPE_I32, RVHAL_TYPE_F32, RVHAL_TYPE_F64, 0, 0};
    for (uint32_t i = 0; i < 10 && i < k->num_args; i++) {
      CHECK_MSG(k->args[i].type == types[i], "argument %u: type %u, expected %u", i, k->args[i].type, types[i]);
      CHECK(k->args[i].name != NULL);
    }
    CHECK(k->args[6].name && !strcmp(k->args[6].name, "f"));
    CHECK(k->args[6].type_name && !strcmp(k->args[6].type_name, "float"));
    CHECK(k->args[0].type_name && !strcmp(k->args[0].type_name, "global int64_t *"));
    CHECK_EQ_U64(k->args[4].offset, 32); /* the 24-byte struct, aligned to 32 as the pack does */
    rvhal_program_info_free(info);
  }

  /* Version 2 (no types) is still read; an unknown version is refused. */
  CHECK(set_meta_version(elf, size, 2) == 1);
  info = NULL;
  CHECK_OK(rvhal_program_info_read(elf, size, &info));
  if (info) {
    CHECK_EQ_U64(info->kernels[0].meta_version, 2);
    rvhal_program_info_free(info);
  }
  set_meta_version(elf, size, 9);
  info = NULL;
  CHECK(rvhal_program_info_read(elf, size, &info) == RVHAL_BAD_ELF);
  CHECK_MSG(strstr(rvhal_last_error(), "is version 9; this rvhal reads versions 2 to 3: rebuild the kernel") != NULL,
            "%s", rvhal_last_error());
  free(elf);

  /* A program whose metadata is damaged after other kernels were read: each
   * metadata block in turn (one of them is not the first read), refused;
   * the names read before it are freed (the sanitize preset's leak check
   * fails this test otherwise). */
  snprintf(path, sizeof path, "%s/dt_hostile.elf", dir);
  elf = read_all(path, &size);
  CHECK_MSG(elf != NULL, "%s", path);
  int blocks = elf ? set_meta_version(elf, size, RVHAL_META_VERSION) : 0;
  CHECK_MSG(blocks >= 2, "%s has %d kernels with metadata, the test needs 2", path, blocks);
  for (int j = 0; elf && j < blocks; j++) {
    int seen = 0;
    for (size_t i = 0; i + 8 <= size; i++)
      if (!memcmp(elf + i, "META", 4) && elf[i + 5] == 0 && elf[i + 6] == 0 && elf[i + 7] == 0 && elf[i + 4] <= 9 &&
          seen++ == j) {
        elf[i + 4] = 9;
        info = NULL;
        CHECK(rvhal_program_info_read(elf, size, &info) == RVHAL_BAD_ELF && info == NULL);
        CHECK_MSG(strstr(rvhal_last_error(), "is version 9") != NULL, "%s", rvhal_last_error());
        elf[i + 4] = RVHAL_META_VERSION;
        break;
      }
  }
  free(elf);

  /* barrier_check: the older RVHAL_KERNEL form: kinds and sizes, no names. */
  snprintf(path, sizeof path, "%s/barrier_check.elf", dir);
  elf = read_all(path, &size);
  CHECK_MSG(elf != NULL, "%s", path);
  info = NULL;
  if (elf) CHECK_OK(rvhal_program_info_read(elf, size, &info));
  if (info) {
    CHECK(info->num_kernels >= 1);
    CHECK(info->kernels[0].num_args > 0 && info->kernels[0].args[0].name == NULL);
    rvhal_program_info_free(info);
  }
  free(elf);

  /* Not an ELF. */
  CHECK(rvhal_program_info_read("hello", 5, &info) == RVHAL_BAD_ELF && info == NULL);
  return check_result("test_program_info");
}
