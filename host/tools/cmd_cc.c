/* rvhal cc FILE.cl -o FILE.elf: OpenCL C to a kernel ELF
 * (rvhal_opencl_compile), with the options clBuildProgram takes. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>

#include "cli.h"
#include "rvhal/rvhal.h"
#include "rvhal/compiler.h"

void cmd_cc_usage(FILE *f) {
  fprintf(f,
          "usage: rvhal cc [options] FILE.cl -o FILE.elf\n"
          "Compiles OpenCL C into a kernel ELF for rvhal devices (clang 16, the OpenCL C built-in\n"
          "library and the kernel SDK). Each __kernel function becomes a kernel of that name:\n"
          "`rvhal run FILE.elf NAME ...`, `rvhal kernels FILE.elf`.\n\n"
          "  -o FILE            the kernel ELF to write (required)\n"
          "  --xlen 32|64       the device's XLEN (default 64)\n"
          "  --isa ISA          the device's ISA (default rv<xlen>imafdc); rv64imac: soft-float, ABI lp64;\n"
          "                     with v (rv64imafdcv): clang's auto-vectorizer may emit RVV\n"
          "  --device NAME      compile for that device's ISA and XLEN (`rvhal info` lists them)\n"
          "  -DNAME[=VALUE]     define a macro (also -D NAME)\n"
          "  -IDIR              add an include directory (also -I DIR); FILE's directory is searched first\n"
          "  -cl-std=CLx.y      CL1.0, CL1.1, CL1.2 (default), CL2.0 or CL3.0\n"
          "  -cl-...            clBuildProgram's options (-cl-fast-relaxed-math, -cl-mad-enable,\n"
          "                     -cl-opt-disable, ...), passed on to clang\n"
          "  -w, -Werror, -g    as for clang\n"
          "  --depfile FILE     also write the headers FILE.cl includes, as a make rule for the ELF\n"
          "                     (what rvhal_add_kernel uses to rebuild when a header changes)\n"
          "  -h, --help         this help\n\n"
          "A compile error prints clang's diagnostic (file:line:column) and exits with status 1.\n"
          "Pipes and device-side enqueue are refused at compile time; kernels with images and\n"
          "samplers compile (the OpenCL platform passes those arguments, `rvhal run` does not).\n\n"
          "example:\n"
          "  $ rvhal cc vadd.cl -o vadd.elf\n"
          "  $ rvhal run vadd.elf vadd --global 8 buf:f32=iota buf:f32=iota buf:f32\n");
}

static char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *b = realloc(buf, cap * 2 + 1);
      if (!b) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
      cap *= 2;
    }
  }
  fclose(f);
  if (!buf) return NULL;
  buf[n] = '\0';
  *size = n;
  return buf;
}

/* The source's own headers as a make rule for `out` (clang -MM, with the
 * -D, -I and -cl-std= options given), for build systems. */
static int write_depfile(const char *depfile, const char *in, const char *out, int argc, char **argv) {
  const char *clang = getenv("RVHAL_CLANG");
  const char *v[64 + 16];
  int n = 0;
  v[n++] = clang && *clang ? clang : "clang-16";
  v[n++] = "-x";
  v[n++] = "cl";
  v[n++] = "-Xclang";
  v[n++] = "-finclude-default-header";
  v[n++] = "-MM";
  v[n++] = "-MT";
  v[n++] = out;
  v[n++] = "-MF";
  v[n++] = depfile;
  for (int i = 1; i < argc && n < 64 + 12; i++) {
    const char *a = argv[i];
    if ((!strcmp(a, "-D") || !strcmp(a, "-I")) && i + 1 < argc) v[n++] = a, v[n++] = argv[++i];
    else if (!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2) || !strncmp(a, "-cl-std=", 8)) v[n++] = a;
  }
  v[n++] = in;
  v[n] = NULL;
  pid_t pid;
  int st = 0;
  extern char **environ;
  if (posix_spawnp(&pid, v[0], NULL, NULL, (char *const *)v, environ) || waitpid(pid, &st, 0) < 0 ||
      !WIFEXITED(st) || WEXITSTATUS(st)) {
    fprintf(stderr, "rvhal cc: cannot write the dependencies of %s to %s (%s -MM failed)\n", in, depfile, v[0]);
    return -1;
  }
  return 0;
}

/* Appends " word" to *opts (growing). */
static int add_opt(char **opts, size_t *len, const char *a, const char *b) {
  size_t need = *len + strlen(a) + (b ? strlen(b) : 0) + 3;
  char *o = realloc(*opts, need);
  if (!o) return -1;
  *opts = o;
  *len += (size_t)sprintf(o + *len, " %s%s", a, b ? b : "");
  return 0;
}

int cmd_cc(int argc, char **argv) {
  const char *out = NULL, *in = NULL, *depfile = NULL;
  uint32_t xlen = 64;
  int xlen_given = 0;
  const char *isa = NULL;
  char *opts = calloc(1, 1);
  size_t olen = 0;
  int rc = CLI_USAGE;
  if (!opts) return CLI_FAIL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      cmd_cc_usage(stdout);
      free(opts);
      return CLI_OK;
    }
    if (!strcmp(a, "-o") || !strcmp(a, "--xlen") || !strcmp(a, "-D") || !strcmp(a, "-I") || !strcmp(a, "--depfile") ||
        !strcmp(a, "--isa") || !strcmp(a, "--device")) {
      if (i + 1 >= argc) {
        rc = cli_usage_error("cc", NULL, "option '%s' needs a value", a);
        goto done;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "-o")) out = v;
      else if (!strcmp(a, "--depfile")) depfile = v;
      else if (!strcmp(a, "--isa")) isa = v;
      else if (!strcmp(a, "--device")) {
        uint32_t index;
        const rvhal_device_info_t *di;
        if (rvhal_platform_find_device(v, &index) || rvhal_platform_device_info(index, &di)) {
          fprintf(stderr, "rvhal cc: --device %s: %s\n", v, rvhal_last_error());
          rc = CLI_FAIL;
          goto done;
        }
        isa = di->isa;
      }
      else if (!strcmp(a, "--xlen")) {
        if (strcmp(v, "32") && strcmp(v, "64")) {
          rc = cli_usage_error("cc", NULL, "--xlen '%s': expected 32 or 64", v);
          goto done;
        }
        xlen = (uint32_t)atoi(v);
        xlen_given = 1;
      } else if (add_opt(&opts, &olen, a, v)) goto oom;
      continue;
    }
    if (!strncmp(a, "--xlen=", 7)) {
      if (strcmp(a + 7, "32") && strcmp(a + 7, "64")) {
        rc = cli_usage_error("cc", NULL, "--xlen '%s': expected 32 or 64", a + 7);
        goto done;
      }
      xlen = (uint32_t)atoi(a + 7);
      xlen_given = 1;
      continue;
    }
    if (a[0] == '-' && a[1] == '-') { /* rvhal's own long options are above; clang's are single-dash */
      rc = cli_usage_error("cc", NULL, "unknown option '%s'", a);
      goto done;
    }
    if (a[0] == '-' && a[1]) {
      if (strchr(a, ' ')) {
        rc = cli_usage_error("cc", NULL, "option '%s' has a space", a);
        goto done;
      }
      if (add_opt(&opts, &olen, a, NULL)) goto oom; /* the library checks it */
      continue;
    }
    if (in) {
      rc = cli_usage_error("cc", NULL, "one source file at a time: '%s' and '%s'", in, a);
      goto done;
    }
    in = a;
  }
  if (!in) {
    rc = cli_usage_error("cc", cmd_cc_usage, "missing FILE.cl");
    goto done;
  }
  if (!out) {
    rc = cli_usage_error("cc", NULL, "missing -o FILE.elf");
    goto done;
  }
  if (isa) { /* the XLEN is the ISA's */
    const uint32_t isa_xlen = !strncmp(isa, "rv32", 4) ? 32 : !strncmp(isa, "rv64", 4) ? 64 : 0;
    if (!isa_xlen || (xlen_given && xlen != isa_xlen)) {
      rc = cli_usage_error("cc", NULL, "--isa '%s': expected rv32... or rv64...%s", isa,
                           xlen_given ? " matching --xlen" : "");
      goto done;
    }
    xlen = isa_xlen;
  }
  size_t size = 0;
  char *src = read_all(in, &size);
  if (!src) {
    fprintf(stderr, "rvhal cc: cannot read %s\n", in);
    rc = CLI_FAIL;
    goto done;
  }
  /* #include "x.h" beside the source, as a C compiler does. */
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", in);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  else snprintf(dir, sizeof dir, ".");
  char *all = NULL;
  if (asprintf(&all, "-I%s%s", dir, opts) < 0) {
    free(src);
    goto oom;
  }
  rvhal_opencl_compile_desc_t desc = {src, size, in, all, xlen, isa};
  void *elf = NULL;
  size_t elf_size = 0;
  char *log = NULL;
  int st = rvhal_opencl_compile(&desc, &elf, &elf_size, &log);
  free(src);
  free(all);
  if (log) fputs(log, stderr);
  free(log);
  if (st) {
    fprintf(stderr, "rvhal cc: %s\n", rvhal_last_error());
    rc = CLI_FAIL;
    goto done;
  }
  FILE *f = fopen(out, "wb");
  int bad = !f || fwrite(elf, 1, elf_size, f) != elf_size;
  if ((f && fclose(f)) || bad) {
    fprintf(stderr, "rvhal cc: cannot write %s\n", out);
    free(elf);
    rc = CLI_FAIL;
    goto done;
  }
  free(elf);
  rc = depfile && write_depfile(depfile, in, out, argc, argv) ? CLI_FAIL : CLI_OK;
  goto done;
oom:
  fprintf(stderr, "rvhal cc: out of memory\n");
  rc = CLI_FAIL;
done:
  free(opts);
  return rc;
}
