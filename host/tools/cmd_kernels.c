/* rvhal kernels ELF...: the kernels an ELF declares and their arguments;
 * rvhal abi ELF...: their packed layouts, checked against the structs the
 * kernels were built with. Both read the SDK metadata without a device
 * (rvhal_program_info_read). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "rvhal/rvhal.h"
#include "rvhal/rvhal_protocol.h"

void cmd_kernels_usage(FILE *f) {
  fprintf(f,
          "usage: rvhal kernels [--json] ELF...\n"
          "Lists the kernels of each kernel ELF (the entry points the SDK's RVHAL_KERNEL_ENTRY or\n"
          "RVHAL_KERNEL made: the names to give `rvhal run`) with their arguments: kind, declared\n"
          "type and name (RVHAL_KERNEL_ENTRY records them), size and offset in the argument struct.\n"
          "`rvhal abi ELF` checks the same arguments against the packing rule.\n\n"
          "  -j, --json  the same as one JSON object {\"files\": [...]}, for scripts\n"
          "  -h, --help  this help\n\n"
          "example:\n"
          "  $ rvhal kernels saxpy.elf\n"
          "  saxpy.elf: RV64, 1 kernel\n"
          "  saxpy_entry(global const float * x, global float * y, float a, uint n)\n"
          "      0  global  x  global const float *  offset 0, 8 bytes\n"
          "      1  global  y  global float *        offset 8, 8 bytes\n"
          "      2  value   a  float (f32)           offset 16, 4 bytes\n"
          "      3  value   n  uint (u32)            offset 20, 4 bytes\n");
}

/* The file's bytes (malloc'ed) in *out; CLI_FAIL with a message if not. */
static int read_file(const char *cmd, const char *path, uint8_t **out, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "rvhal %s: %s: %s\n", cmd, path, strerror(errno));
    return CLI_FAIL;
  }
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) {
      uint8_t *grown = realloc(buf, cap *= 2);
      if (!grown) free(buf);
      buf = grown;
    }
  }
  fclose(f);
  if (!buf) {
    fprintf(stderr, "rvhal %s: out of host memory\n", cmd);
    return CLI_FAIL;
  }
  *out = buf;
  *out_size = n;
  return CLI_OK;
}

static int load_info(const char *cmd, const char *path, rvhal_program_info_t **out) {
  uint8_t *bytes;
  size_t size;
  if (read_file(cmd, path, &bytes, &size)) return CLI_FAIL;
  int rc = rvhal_program_info_read(bytes, size, out);
  free(bytes);
  if (rc) {
    fprintf(stderr, "rvhal %s: %s: %s\n", cmd, path, rvhal_last_error());
    return CLI_FAIL;
  }
  return CLI_OK;
}

int cli_is_elf_file(const char *path) {
  FILE *f = fopen(path, "rb");
  char magic[4] = {0};
  if (!f) return 0;
  size_t n = fread(magic, 1, 4, f);
  fclose(f);
  return n == 4 && !memcmp(magic, "\177ELF", 4);
}

static const char *kind_name(uint32_t kind) {
  return kind == RVHAL_ARG_KIND_GLOBAL ? "global" : kind == RVHAL_ARG_KIND_LOCAL ? "local" : "value";
}

/* What the kernel declared ("float (f32)"), or what the metadata tells. */
static void declared(const rvhal_kernel_arg_info_t *a, char *buf, size_t cap) {
  if (a->type_name && a->type != RVHAL_TYPE_UNKNOWN) snprintf(buf, cap, "%s (%s)", a->type_name, rvhal_type_name(a->type));
  else if (a->type_name) snprintf(buf, cap, "%s", a->type_name);
  else if (a->kind == RVHAL_ARG_KIND_VALUE) snprintf(buf, cap, "%u-byte value", a->size);
  else snprintf(buf, cap, "%s buffer", kind_name(a->kind));
}

/* An OpenCL C parameter as written: "__global const float*". */
static void opencl_param(const rvhal_kernel_arg_info_t *a, char *buf, size_t cap) {
  static const char *const space[] = {"", "__global ", "__constant ", "__local "};
  snprintf(buf, cap, "%s%s%s%s", a->address_space < 4 ? space[a->address_space] : "",
           a->type_qualifiers & RVHAL_TYPE_QUAL_CONST ? "const " : "",
           a->type_qualifiers & RVHAL_TYPE_QUAL_VOLATILE ? "volatile " : "", a->type_name ? a->type_name : "?");
  if (a->type_qualifiers & RVHAL_TYPE_QUAL_RESTRICT) snprintf(buf + strlen(buf), cap - strlen(buf), " restrict");
}

static void print_kernel(const rvhal_kernel_info_t *k) {
  int cl = k->language == RVHAL_KERNEL_LANG_OPENCL;
  printf("%s%s(", cl ? "__kernel " : "", k->name);
  for (uint32_t i = 0; i < k->num_args; i++) {
    const rvhal_kernel_arg_info_t *a = &k->args[i];
    char p[192];
    if (cl) opencl_param(a, p, sizeof p);
    if (a->name) printf("%s%s %s", i ? ", " : "", cl ? p : a->type_name, a->name);
    else printf("%s%s", i ? ", " : "", a->kind == RVHAL_ARG_KIND_VALUE ? "value" : kind_name(a->kind));
  }
  printf(")%s\n", k->num_args && !k->args[0].name ? "  (RVHAL_KERNEL: no declared types or names)" : "");
  int nw = 1, tw = 1;
  char decl[160];
  for (uint32_t i = 0; i < k->num_args; i++) {
    declared(&k->args[i], decl, sizeof decl);
    if (k->args[i].name && (int)strlen(k->args[i].name) > nw) nw = (int)strlen(k->args[i].name);
    if ((int)strlen(decl) > tw) tw = (int)strlen(decl);
  }
  for (uint32_t i = 0; i < k->num_args; i++) {
    const rvhal_kernel_arg_info_t *a = &k->args[i];
    declared(a, decl, sizeof decl);
    printf("  %5u  %-6s  %-*s  %-*s  offset %u, %u bytes\n", i, kind_name(a->kind), nw, a->name ? a->name : "-", tw,
           decl, a->offset, a->size);
  }
}

/* The arguments of kernel k as a JSON array "args". */
static void json_args(cli_json_t *j, const rvhal_kernel_info_t *k, const rvhal_arg_layout_t *lay) {
  cli_json_begin_array(j, "args");
  for (uint32_t i = 0; i < k->num_args; i++) {
    const rvhal_kernel_arg_info_t *a = &k->args[i];
    cli_json_begin_object(j, NULL);
    cli_json_u64(j, "index", i);
    cli_json_string(j, "kind", kind_name(a->kind));
    cli_json_string(j, "name", a->name);
    cli_json_string(j, "type_name", a->type_name);
    cli_json_string(j, "type", a->type != RVHAL_TYPE_UNKNOWN ? rvhal_type_name(a->type) : NULL);
    cli_json_u64(j, "offset", a->offset); /* in the kernel's argument struct */
    cli_json_u64(j, "size", a->size);
    if (lay) { /* rvhal abi: where the packing rule puts it */
      cli_json_u64(j, "packed_offset", lay[i].offset);
      cli_json_u64(j, "packed_size", lay[i].size);
      cli_json_u64(j, "packed_align", lay[i].align);
    }
    cli_json_end_object(j);
  }
  cli_json_end_array(j);
}

/* rvhal kernels --json: {"files": [{"file", "word_size", "kernels": [...]}]};
 * a file that cannot be read has "error" instead (and exit status 1). */
static int kernels_json(int argc, char **argv) {
  cli_json_t j = {.f = stdout};
  int rc = CLI_OK;
  cli_json_begin_object(&j, NULL);
  cli_json_begin_array(&j, "files");
  for (int i = 0; i < argc; i++) {
    rvhal_program_info_t *info;
    cli_json_begin_object(&j, NULL);
    cli_json_string(&j, "file", argv[i]);
    if (load_info("kernels", argv[i], &info)) {
      cli_json_string(&j, "error", rvhal_last_error());
      cli_json_end_object(&j);
      rc = CLI_FAIL;
      continue;
    }
    cli_json_u64(&j, "word_size", info->word_size);
    cli_json_begin_array(&j, "kernels");
    for (uint32_t k = 0; k < info->num_kernels; k++) {
      const rvhal_kernel_info_t *ki = &info->kernels[k];
      cli_json_begin_object(&j, NULL);
      cli_json_string(&j, "name", ki->name);
      cli_json_string(&j, "source_name", ki->source_name ? ki->source_name : ki->name);
      cli_json_string(&j, "language", ki->language == RVHAL_KERNEL_LANG_OPENCL ? "opencl" : "c");
      cli_json_u64(&j, "args_size", ki->args_size);
      json_args(&j, ki, NULL);
      cli_json_end_object(&j);
    }
    cli_json_end_array(&j);
    cli_json_end_object(&j);
    rvhal_program_info_free(info);
  }
  cli_json_end_array(&j);
  cli_json_end_object(&j);
  cli_json_finish(&j);
  return rc;
}

int cmd_kernels(int argc, char **argv) {
  static const struct option opts[] = {{"json", 0, 0, 'j'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
  int c, json = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
    if (c == 'h') {
      cmd_kernels_usage(stdout);
      return CLI_OK;
    }
    if (c == 'j') {
      json = 1;
      continue;
    }
    return cli_getopt_error("kernels", argv, opts, c);
  }
  if (optind == argc) return cli_usage_error("kernels", cmd_kernels_usage, "missing ELF");
  if (json) return kernels_json(argc - optind, argv + optind);
  int rc = CLI_OK;
  for (int i = optind; i < argc; i++) {
    rvhal_program_info_t *info;
    if (load_info("kernels", argv[i], &info)) {
      rc = CLI_FAIL;
      continue;
    }
    printf("%s%s: RV%u, %u kernel%s%s\n", i > optind ? "\n" : "", argv[i], info->word_size * 8, info->num_kernels,
           info->num_kernels == 1 ? "" : "s", info->num_kernels ? "" : " built with the SDK (no metadata found)");
    for (uint32_t k = 0; k < info->num_kernels; k++) print_kernel(&info->kernels[k]);
    rvhal_program_info_free(info);
  }
  return rc;
}

/* rvhal abi ELF...: each kernel's arguments laid out by the packing rule
 * (rvhal_arg_layout) next to where the kernel's struct keeps them; with
 * json, as {"files": [{"file", "word_size", "kernels": [{..., "ok"}]}]}. */
int cmd_abi_elf(int argc, char **argv, int json) {
  int rc = CLI_OK;
  cli_json_t j = {.f = stdout};
  if (json) {
    cli_json_begin_object(&j, NULL);
    cli_json_begin_array(&j, "files");
  }
  for (int i = 0; i < argc; i++) {
    rvhal_program_info_t *info;
    if (json) {
      cli_json_begin_object(&j, NULL);
      cli_json_string(&j, "file", argv[i]);
    }
    if (load_info("abi", argv[i], &info)) {
      if (json) {
        cli_json_string(&j, "error", rvhal_last_error());
        cli_json_end_object(&j);
      }
      rc = CLI_FAIL;
      continue;
    }
    uint32_t word = info->word_size;
    if (json) {
      cli_json_u64(&j, "word_size", word);
      cli_json_begin_array(&j, "kernels");
    } else {
      printf("%s%s: RV%u (%u-byte words), %u kernel%s\n", i ? "\n" : "", argv[i], word * 8, word, info->num_kernels,
             info->num_kernels == 1 ? "" : "s");
    }
    for (uint32_t k = 0; k < info->num_kernels; k++) {
      const rvhal_kernel_info_t *ki = &info->kernels[k];
      hal_arg_t desc[RVHAL_META_MAX_ARGS];
      rvhal_arg_layout_t lay[RVHAL_META_MAX_ARGS];
      static const uint8_t bytes[RVHAL_ARGS_MAX];
      for (uint32_t a = 0; a < ki->num_args; a++) {
        const rvhal_kernel_arg_info_t *ai = &ki->args[a];
        desc[a] = ai->kind == RVHAL_ARG_KIND_GLOBAL ? rvhal_arg_global(0)
                  : ai->kind == RVHAL_ARG_KIND_LOCAL ? rvhal_arg_local(1)
                                                     : rvhal_arg_value(bytes, ai->size);
      }
      uint32_t total = 0, bad = 0;
      if (rvhal_arg_layout(desc, ki->num_args, word, lay, &total)) {
        if (json) {
          cli_json_begin_object(&j, NULL);
          cli_json_string(&j, "name", ki->name);
          cli_json_string(&j, "error", rvhal_last_error());
          cli_json_bool(&j, "ok", 0);
          cli_json_end_object(&j);
        } else {
          printf("kernel %s: cannot be packed: %s\n", ki->name, rvhal_last_error());
        }
        rc = CLI_FAIL;
        continue;
      }
      for (uint32_t a = 0; a < ki->num_args; a++)
        bad += ki->args[a].offset != lay[a].offset || ki->args[a].size != lay[a].size;
      if (ki->num_args && ki->args_size < total) bad++;
      if (bad) rc = CLI_FAIL;
      if (json) {
        cli_json_begin_object(&j, NULL);
        cli_json_string(&j, "name", ki->name);
        cli_json_u64(&j, "packed_size", total);
        cli_json_u64(&j, "args_size", ki->args_size);
        cli_json_bool(&j, "ok", !bad);
        json_args(&j, ki, lay);
        cli_json_end_object(&j);
        continue;
      }
      printf("kernel %s\n  index  kind    offset  size  align  struct  declared\n", ki->name);
      for (uint32_t a = 0; a < ki->num_args; a++) {
        const rvhal_kernel_arg_info_t *ai = &ki->args[a];
        int ok = ai->offset == lay[a].offset && ai->size == lay[a].size;
        char decl[160];
        declared(ai, decl, sizeof decl);
        printf("  %5u  %-6s  %6u  %4u  %5u  %6u  %s%s%s%s\n", a, kind_name(ai->kind), lay[a].offset, lay[a].size,
               lay[a].align, ai->offset, decl, ai->name ? " " : "", ai->name ? ai->name : "",
               ok ? "" : "  MISMATCH: the kernel's struct member is elsewhere or another size");
      }
      printf("  packed size %u bytes, kernel's argument struct %u bytes: %s\n", total, ki->args_size,
             bad ? "MISMATCH (declare the members with RVHAL_PACKED_ARG, or use RVHAL_KERNEL_ENTRY)" : "ok");
    }
    if (json) {
      cli_json_end_array(&j);
      cli_json_end_object(&j);
    }
    rvhal_program_info_free(info);
  }
  if (json) {
    cli_json_end_array(&j);
    cli_json_end_object(&j);
    cli_json_finish(&j);
  }
  return rc;
}
