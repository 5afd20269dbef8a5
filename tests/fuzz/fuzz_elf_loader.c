/* libFuzzer target: the kernel ELF loader on any bytes. The first byte
 * picks the device word (4 or 8); the rest is the file. Every symbol found
 * is looked up again by name and by address. */
#include <stdint.h>
#include <string.h>

#include "base/elf_loader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint32_t word = (data[0] & 1) ? 4 : 8;
  rvhal_elf_image_t *img = NULL;
  if (rvhal_elf_parse(data + 1, size - 1, word, 0x80200000u, 0x800000u, &img) == 0) {
    for (uint32_t i = 0; i < img->num_symbols; i++) {
      uint64_t a;
      (void)rvhal_elf_find_function(img, img->symbols[i].name, &a);
      (void)rvhal_elf_symbol_named(img, img->symbols[i].name);
      (void)rvhal_elf_symbol_at(img, img->symbols[i].value);
    }
    rvhal_elf_free(img);
  }
  return 0;
}
