/* rvhal: the command-line tool. Dispatches to one command per file. */
#include <string.h>

#include "cli.h"
#include "rvhal/rvhal.h"

static const cli_command_t commands[] = {
    {"info", "show the platform and its devices; --boot checks that a device starts", cmd_info, cmd_info_usage},
    {"run", "run a kernel from an ELF file with arguments given on the command line", cmd_run, cmd_run_usage},
    {"kernels", "list the kernels of a kernel ELF and their declared arguments", cmd_kernels, cmd_kernels_usage},
    {"cc", "compile OpenCL C into a kernel ELF", cmd_cc, cmd_cc_usage},
    {"abi", "show how kernel arguments are packed (offsets, sizes, C struct), or check an ELF's kernels", cmd_abi,
     cmd_abi_usage},
};
#define NUM_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
  fprintf(f,
          "usage: rvhal [--help | --version] COMMAND [options] [arguments]\n"
          "Runs compute kernels on emulated RISC-V devices (QEMU harts running the rvhal firmware).\n\n"
          "commands:\n");
  for (size_t i = 0; i < NUM_COMMANDS; i++) fprintf(f, "  %-7s %s\n", commands[i].name, commands[i].summary);
  fprintf(f,
          "  help    show a command's options and an example: rvhal help CMD (or rvhal CMD --help)\n\n"
          "  -h, --help     this help\n"
          "  -V, --version  the library and API version\n\n"
          "example:\n"
          "  rvhal info --boot          # does the installation work?\n"
          "  rvhal cc vadd.cl -o vadd.elf   # OpenCL C\n"
          "  rvhal run vadd.elf vadd --global 8 buf:f32=iota buf:f32=10 buf:f32\n"
          "  rvhal run vector_add.elf vector_add_entry --global 8 buf:u32=iota buf:u32=10 buf:u32\n"
          "  rvhal kernels vector_add.elf\n"
          "  rvhal abi ptr,i32,f64,local:256,bytes:24\n\n"
          "Exit status: 0 success, 1 the library or device failed, 2 wrong command line.\n");
}

static const cli_command_t *find_command(const char *name) {
  for (size_t i = 0; i < NUM_COMMANDS; i++)
    if (!strcmp(commands[i].name, name)) return &commands[i];
  return NULL;
}

static int unknown_command(const char *name) {
  const char *names[NUM_COMMANDS + 1];
  for (size_t i = 0; i < NUM_COMMANDS; i++) names[i] = commands[i].name;
  names[NUM_COMMANDS] = "help";
  const char *near = cli_closest(name, strlen(name), names, NUM_COMMANDS + 1);
  if (near) return cli_usage_error(NULL, NULL, "unknown command '%s'; did you mean '%s'?", name, near);
  return cli_usage_error(NULL, NULL, "unknown command '%s'", name);
}

int main(int argc, char **argv) {
  if (argc < 2) return cli_usage_error(NULL, usage, "no command given");
  const char *first = argv[1];
  if (!strcmp(first, "-h") || !strcmp(first, "--help")) {
    usage(stdout);
    return CLI_OK;
  }
  if (!strcmp(first, "-V") || !strcmp(first, "--version")) {
    const rvhal_platform_info_t *pi = rvhal_platform_info();
    printf("%s %s (API version %u)\n", pi->name, pi->version, pi->api_version);
    return CLI_OK;
  }
  if (!strcmp(first, "help")) {
    if (argc == 2) {
      usage(stdout);
      return CLI_OK;
    }
    if (argc > 3) return cli_usage_error(NULL, usage, "help takes one command, got %d", argc - 2);
    const cli_command_t *c = find_command(argv[2]);
    if (!c) return unknown_command(argv[2]);
    c->usage(stdout);
    return CLI_OK;
  }
  if (first[0] == '-') return cli_usage_error(NULL, NULL, "unknown option '%s' (before the command)", first);
  const cli_command_t *c = find_command(first);
  if (!c) return unknown_command(first);
  return c->run(argc - 1, argv + 1);
}
