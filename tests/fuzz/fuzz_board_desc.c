/* libFuzzer target: the board descriptor parser (host/src/backend/board_desc.c).
 * Descriptors are files beside the firmware, found on a search path: any
 * text must give a descriptor or an error naming the line, never a read
 * outside the text or a field outside its bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "backend/board_desc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  rvhal_board_desc_t desc;
  (void)rvhal_board_desc_parse(text, "fuzz.board", &desc);
  free(text);
  return 0;
}
