/* rvhal abi: how a list of kernel arguments is packed on RV32 and RV64, as
 * rvhal_arg_layout() computes it, and (--c-struct) the SDK argument struct
 * and RVHAL_KERNEL line that match it. */
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "run_args.h"
#include "rvhal/rvhal.h"
#include "rvhal/rvhal_kernel_meta.h"

#define CMD "abi"

void cmd_abi_usage(FILE *f) {
  fprintf(f,
          "usage: rvhal abi [--word 4|8] [--c-struct NAME | --json] LIST...\n"
          "       rvhal abi [--json] ELF...\n"
          "Shows where each kernel argument sits in the packed argument buffer, for RV64 and RV32\n"
          "(or only the --word given): each argument is aligned to the smallest power of two >= its\n"
          "packed size. LIST is comma-separated argument kinds; several LIST words are joined.\n"
          "With kernel ELF files: every kernel's arguments laid out by that rule next to the offsets of\n"
          "the kernel's own argument struct; exit status 1 if any differs.\n\n"
          "  -w, --word 4|8       only the device word size given (4: RV32, 8: RV64)\n"
          "  -c, --c-struct NAME  also print the SDK argument struct NAME_args and the RVHAL_KERNEL\n"
          "                       line for a kernel NAME with these arguments\n"
          "  -j, --json           the layouts (or the ELF's kernels) as one JSON object, for scripts\n"
          "  -h, --help           this help\n\n"
          "kinds:\n"
          "  ptr, global, buf     global buffer (a device address: one word)\n"
          "  local:N              local buffer of N bytes (packed as its size: one word)\n"
          "  %s  values of these types\n"
          "  %-38s  values of %s bytes\n"
          "  bytes:N              a value of N bytes (a struct)\n\n"
          "example:\n",
          cli_type_list(), cli_c_type_list(), cli_c_type_sizes());
  /* What the example prints, checked by the cli.help test. */
  fputs("  $ rvhal abi --word 8 --c-struct scale ptr,i32,f64,local:256,bytes:24\n"
        "  RV64 (8-byte words)\n"
        "    index  kind       offset  size  align\n"
        "        0  ptr             0     8      8\n"
        "        1  i32             8     4      4\n"
        "        2  f64            16     8      8\n"
        "        3  local:256      24     8      8\n"
        "        4  bytes:24       32    24     32\n"
        "    packed size 56 bytes (a C struct with this layout: 64 bytes)\n"
        "\n"
        "  /* Arguments of kernel scale: ptr,i32,f64,local:256,bytes:24 */\n"
        "  #include \"kernel_if.h\"\n"
        "\n"
        "  typedef struct { uint8_t b[24]; } scale_bytes24;\n"
        "\n"
        "  typedef struct {\n"
        "    __global void *arg0;                  /* ptr: offset 0 */\n"
        "    int32_t arg1;                         /* i32: offset 8 */\n"
        "    double arg2;                          /* f64: offset 16 */\n"
        "    uintptr_t arg3;                       /* local:256: offset 24, rvhal_local_arg(e, 0) */\n"
        "    RVHAL_PACKED_ARG(scale_bytes24) arg4; /* bytes:24: offset 32 */\n"
        "  } scale_args;\n"
        "\n"
        "  static void scale_item(const scale_args *a, exec_state_t *e) {\n"
        "    (void)a; /* one work-item: get_global_id(0, e), ... */\n"
        "    (void)e;\n"
        "  }\n"
        "\n"
        "  RVHAL_KERNEL(scale, scale_args, scale_item, RVHAL_GLOBAL(arg0), RVHAL_VALUE(arg1), RVHAL_VALUE(arg2), RVHAL_LOCAL(arg3), RVHAL_VALUE(arg4))\n",
        f);
}

/* One kind of the list: an argument of `rvhal run` (run_args.h) without
 * contents; its kind, type (NULL for bytes:N) and size are what the layout
 * and the C struct need. */
typedef struct abi_arg {
  char text[40]; /* the kind as written */
  run_arg_t arg;
} abi_arg_t;

static int is_bytes(const abi_arg_t *a) { return a->arg.kind == RUN_ARG_VALUE && !a->arg.type; }

/* One kind; -1 with the reason in why. */
static int parse_kind(const char *s, size_t len, abi_arg_t *a, char *why, size_t why_size) {
  if (len == 0) {
    snprintf(why, why_size, "empty kind (two commas, or a comma at an end)");
    return -1;
  }
  if (len >= sizeof a->text) {
    snprintf(why, why_size, "kind '%.*s...' is too long", 16, s);
    return -1;
  }
  memcpy(a->text, s, len);
  a->text[len] = 0;
  static uint8_t no_data[1]; /* a value's bytes (never freed): the layout reads sizes, never the bytes */
  a->arg = (run_arg_t){.kind = RUN_ARG_VALUE, .data = no_data};
  const char *t = a->text;
  if (!strcmp(t, "ptr") || !strcmp(t, "global") || !strcmp(t, "buf")) {
    a->arg.kind = RUN_ARG_BUFFER;
    return 0;
  }
  int local = !strncmp(t, "local:", 6), bytes = !strncmp(t, "bytes:", 6);
  if (local || bytes) {
    if (cli_parse_u64(t + 6, &a->arg.size) || a->arg.size == 0) {
      snprintf(why, why_size, "'%s': N must be a number of bytes >= 1", t);
      return -1;
    }
    if (local) a->arg.kind = RUN_ARG_LOCAL;
    return 0;
  }
  a->arg.type = cli_type_find(t, len, 1);
  if (!a->arg.type) {
    snprintf(why, why_size, "unknown kind '%s' (kinds: ptr global buf local:N %s %s bytes:N)", t, cli_type_list(),
             cli_c_type_list());
    return -1;
  }
  a->arg.size = a->arg.type->size;
  return 0;
}

/* The largest alignment: a C struct laid out like the pack is its size
 * rounded up to it. */
static uint32_t struct_size(const rvhal_arg_layout_t *l, uint32_t n, uint32_t total) {
  uint32_t align = 1;
  for (uint32_t i = 0; i < n; i++)
    if (l[i].align > align) align = l[i].align;
  return (total + align - 1) / align * align;
}

/* --json: {"list": [kinds], "layouts": [{"word_size", "args": [...],
 * "packed_size", "struct_size"}]}. */
static void json_layouts(const abi_arg_t *args, uint32_t n, const uint32_t words[2],
                         rvhal_arg_layout_t *const layouts[2], const uint32_t totals[2], uint32_t nwords) {
  cli_json_t j = {.f = stdout};
  cli_json_begin_object(&j, NULL);
  cli_json_begin_array(&j, "list");
  for (uint32_t i = 0; i < n; i++) cli_json_string(&j, NULL, args[i].text);
  cli_json_end_array(&j);
  cli_json_begin_array(&j, "layouts");
  for (uint32_t k = 0; k < nwords; k++) {
    cli_json_begin_object(&j, NULL);
    cli_json_u64(&j, "word_size", words[k]);
    cli_json_begin_array(&j, "args");
    for (uint32_t i = 0; i < n; i++) {
      cli_json_begin_object(&j, NULL);
      cli_json_u64(&j, "index", i);
      cli_json_string(&j, "kind", args[i].text);
      cli_json_u64(&j, "offset", layouts[k][i].offset);
      cli_json_u64(&j, "size", layouts[k][i].size);
      cli_json_u64(&j, "align", layouts[k][i].align);
      cli_json_end_object(&j);
    }
    cli_json_end_array(&j);
    cli_json_u64(&j, "packed_size", totals[k]);
    cli_json_u64(&j, "struct_size", struct_size(layouts[k], n, totals[k]));
    cli_json_end_object(&j);
  }
  cli_json_end_array(&j);
  cli_json_end_object(&j);
  cli_json_finish(&j);
}

static void print_table(uint32_t word, const abi_arg_t *args, const rvhal_arg_layout_t *l, uint32_t n,
                        uint32_t total) {
  int w = 4;
  for (uint32_t i = 0; i < n; i++)
    if ((int)strlen(args[i].text) > w) w = (int)strlen(args[i].text);
  printf("RV%u (%u-byte words)\n", word * 8, word);
  printf("  index  %-*s  offset  size  align\n", w, "kind");
  for (uint32_t i = 0; i < n; i++)
    printf("  %5u  %-*s  %6u  %4u  %5u\n", i, w, args[i].text, l[i].offset, l[i].size, l[i].align);
  printf("  packed size %u bytes (a C struct with this layout: %u bytes)\n", total, struct_size(l, n, total));
}

/* "offset 8" or, when the word sizes differ, "offset 8 (RV32: 4)". */
static void print_offsets(const uint32_t words[2], rvhal_arg_layout_t *const layouts[2], uint32_t nwords,
                          uint32_t i) {
  printf("offset %u", layouts[0][i].offset);
  if (nwords == 2 && layouts[1][i].offset != layouts[0][i].offset)
    printf(" (RV%u: %u)", words[1] * 8, layouts[1][i].offset);
}

static int print_c_struct(const char *name, const abi_arg_t *args, uint32_t n, const uint32_t words[2],
                          rvhal_arg_layout_t *const layouts[2], uint32_t nwords) {
  /* Members first, so that the comments line up after the longest. */
  char (*decl)[160] = calloc(n, sizeof *decl);
  int width = 0;
  if (!decl) {
    fprintf(stderr, "rvhal abi: out of host memory\n");
    return CLI_FAIL;
  }
  for (uint32_t i = 0; i < n; i++) {
    const abi_arg_t *a = &args[i];
    switch (a->arg.kind) {
    case RUN_ARG_BUFFER: snprintf(decl[i], sizeof decl[i], "__global void *arg%u;", i); break;
    case RUN_ARG_LOCAL: snprintf(decl[i], sizeof decl[i], "uintptr_t arg%u;", i); break;
    case RUN_ARG_VALUE:
      if (a->arg.type) {
        snprintf(decl[i], sizeof decl[i], "%s arg%u;", a->arg.type->c_type, i);
        break;
      }
      /* bytes:N, always aligned explicitly: a byte array's own alignment is
       * 1, even when its size is a power of two. A named type, because the
       * attribute after an inline struct { } would align (and pad) the type
       * itself. */
      snprintf(decl[i], sizeof decl[i], "RVHAL_PACKED_ARG(%s_bytes%" PRIu64 ") arg%u;", name, a->arg.size, i);
      break;
    }
    if ((int)strlen(decl[i]) > width) width = (int)strlen(decl[i]);
  }
  printf("\n/* Arguments of kernel %s: ", name);
  for (uint32_t i = 0; i < n; i++) printf("%s%s", i ? "," : "", args[i].text);
  printf(" */\n#include \"kernel_if.h\"\n\n");
  int typedefs = 0;
  for (uint32_t i = 0; i < n; i++) {
    int seen = 0;
    for (uint32_t j = 0; j < i; j++) seen |= is_bytes(&args[j]) && args[j].arg.size == args[i].arg.size;
    if (!is_bytes(&args[i]) || seen) continue;
    printf("typedef struct { uint8_t b[%" PRIu64 "]; } %s_bytes%" PRIu64 ";\n", args[i].arg.size, name,
           args[i].arg.size);
    typedefs = 1;
  }
  printf("%stypedef struct {\n", typedefs ? "\n" : "");
  uint32_t locals = 0;
  for (uint32_t i = 0; i < n; i++) {
    const abi_arg_t *a = &args[i];
    printf("  %-*s /* %s: ", width, decl[i], a->text);
    print_offsets(words, layouts, nwords, i);
    if (a->arg.kind == RUN_ARG_LOCAL) printf(", rvhal_local_arg(e, %u)", locals++);
    printf(" */\n");
  }
  free(decl);
  printf("} %s_args;\n\n", name);
  printf("static void %s_item(const %s_args *a, exec_state_t *e) {\n"
         "  (void)a; /* one work-item: get_global_id(0, e), ... */\n"
         "  (void)e;\n}\n\n",
         name, name);
  printf("RVHAL_KERNEL(%s, %s_args, %s_item", name, name, name);
  for (uint32_t i = 0; i < n; i++) {
    const run_arg_kind_t k = args[i].arg.kind;
    printf(", %s(arg%u)", k == RUN_ARG_BUFFER ? "RVHAL_GLOBAL" : k == RUN_ARG_LOCAL ? "RVHAL_LOCAL" : "RVHAL_VALUE", i);
  }
  printf(")\n");
  return CLI_OK;
}

static int is_identifier(const char *s) {
  if (!isalpha((unsigned char)*s) && *s != '_') return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_') return 0;
  return 1;
}

int cmd_abi(int argc, char **argv) {
  static const struct option opts[] = {
      {"word", 1, 0, 'w'}, {"c-struct", 1, 0, 'c'}, {"json", 0, 0, 'j'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
  uint32_t words[2] = {8, 4}, nwords = 2;
  const char *name = NULL;
  int c, json = 0;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":w:c:jh", opts, NULL)) != -1) {
    switch (c) {
    case 'w':
      if (strcmp(optarg, "4") && strcmp(optarg, "8"))
        return cli_usage_error(CMD, NULL, "--word '%s': expected 4 (RV32) or 8 (RV64)", optarg);
      words[0] = (uint32_t)(optarg[0] - '0');
      nwords = 1;
      break;
    case 'c':
      if (!is_identifier(optarg) || strlen(optarg) > 64)
        return cli_usage_error(CMD, NULL, "--c-struct '%s': not a C identifier of at most 64 characters", optarg);
      name = optarg;
      break;
    case 'j': json = 1; break;
    case 'h': cmd_abi_usage(stdout); return CLI_OK;
    default: return cli_getopt_error(CMD, argv, opts, c);
    }
  }
  if (optind == argc) return cli_usage_error(CMD, cmd_abi_usage, "missing LIST of argument kinds, or an ELF");
  if (cli_is_elf_file(argv[optind])) {
    if (name || nwords == 1) return cli_usage_error(CMD, NULL, "--word and --c-struct apply to a LIST, not an ELF");
    return cmd_abi_elf(argc - optind, argv + optind, json);
  }
  if (json && name) return cli_usage_error(CMD, NULL, "--json and --c-struct: choose one (--c-struct prints C)");

  uint32_t n = 0, cap = 0;
  abi_arg_t *args = NULL;
  hal_arg_t *desc = NULL;
  rvhal_arg_layout_t *layouts[2] = {NULL, NULL};
  int rc = CLI_OK;
  for (int w = optind; w < argc && rc == CLI_OK; w++) {
    for (const char *p = argv[w];; p++) {
      size_t len = strcspn(p, ",");
      if (n == cap) {
        cap = cap ? 2 * cap : 16;
        abi_arg_t *grown = realloc(args, cap * sizeof *args);
        if (!grown) {
          fprintf(stderr, "rvhal abi: out of host memory\n");
          rc = CLI_FAIL;
          break;
        }
        args = grown;
      }
      char why[256];
      if (parse_kind(p, len, &args[n], why, sizeof why)) {
        /* Name the whole word only when it holds more than this kind. */
        if (strchr(argv[w], ',')) rc = cli_usage_error(CMD, NULL, "'%s': %s", argv[w], why);
        else rc = cli_usage_error(CMD, NULL, "%s", why);
        break;
      }
      n++;
      p += len;
      if (!*p) break;
    }
  }
  if (rc == CLI_OK && name && n > RVHAL_META_MAX_ARGS)
    rc = cli_usage_error(CMD, NULL, "--c-struct: RVHAL_KERNEL describes at most %u arguments, the list has %u",
                         (unsigned)RVHAL_META_MAX_ARGS, n);
  if (rc == CLI_OK) {
    desc = calloc(n, sizeof *desc);
    layouts[0] = calloc(n, sizeof *layouts[0]);
    layouts[1] = calloc(n, sizeof *layouts[1]);
    if (!desc || !layouts[0] || !layouts[1]) {
      fprintf(stderr, "rvhal abi: out of host memory\n");
      rc = CLI_FAIL;
    }
  }
  for (uint32_t i = 0; rc == CLI_OK && i < n; i++) desc[i] = run_arg_desc(&args[i].arg);
  uint32_t totals[2];
  for (uint32_t k = 0; rc == CLI_OK && k < nwords; k++) {
    /* Only the list can be wrong here (a value too large, a local size
     * beyond a 32-bit word): a usage error. */
    if (rvhal_arg_layout(desc, n, words[k], layouts[k], &totals[k]))
      rc = cli_usage_error(CMD, NULL, "RV%u: %s", words[k] * 8, rvhal_last_error());
  }
  if (rc == CLI_OK && json) json_layouts(args, n, words, layouts, totals, nwords);
  for (uint32_t k = 0; rc == CLI_OK && !json && k < nwords; k++) {
    if (k) printf("\n");
    print_table(words[k], args, layouts[k], n, totals[k]);
  }
  if (rc == CLI_OK && name) rc = print_c_struct(name, args, n, words, layouts, nwords);
  free(layouts[0]);
  free(layouts[1]);
  free(desc);
  free(args);
  return rc;
}
