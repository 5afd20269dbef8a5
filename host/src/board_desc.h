/* The host's view of a board (from boards/<name>/board.h). */
#ifndef RVHAL_HOST_BOARD_DESC_H
#define RVHAL_HOST_BOARD_DESC_H

#include <stdint.h>

typedef struct rvhal_board_desc {
  const char *name;
  uint64_t ram_base;
  uint64_t ram_top_reserved; /* bytes at the top of RAM the machine uses itself */
  uint64_t default_ram_size;
  uint32_t max_harts;
  uint64_t timebase_hz;
  const char *qemu_machine;
  uint32_t first_hart; /* mhartid of hart index 0 */
} rvhal_board_desc_t;


/* The board this library was built for (RVHAL_BOARD). */
extern const rvhal_board_desc_t rvhal_board;

#endif /* RVHAL_HOST_BOARD_DESC_H */
