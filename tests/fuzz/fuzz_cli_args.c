/* libFuzzer target: `rvhal run`'s command-line parsing. The input is a
 * NUL-separated list of tokens: the first is a --global value, the others
 * kernel arguments (buf:..., TYPE:VALUE, bytes:HEX, local:SIZE). Buffers of
 * up to 64 KiB are also filled as their INIT says. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  char why[256];
  uint64_t dims[3] = {1, 1, 1}, items = 1;
  uint32_t n = 0;
  const char *tok = text, *end = text + size;
  if (cli_parse_dims(tok, 1, dims, &n, why, sizeof why) == 0 &&
      (__builtin_mul_overflow(dims[0], dims[1], &items) || __builtin_mul_overflow(items, dims[2], &items)))
    items = UINT64_MAX;
  tok += strlen(tok) + 1;
  for (uint32_t i = 0; tok < end && i < 16; i++, tok += strlen(tok) + 1) {
    run_arg_t a;
    if (run_arg_parse(&a, i, tok, items, why, sizeof why) == 0) {
      if (a.kind != RUN_ARG_BUFFER || a.size <= 65536) (void)run_arg_fill(&a, why, sizeof why);
      (void)run_arg_desc(&a);
    }
    run_arg_free(&a);
  }
  free(text);
  return 0;
}
