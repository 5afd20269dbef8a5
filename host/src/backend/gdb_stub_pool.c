/* Which of the listed stubs each device holds (gdb_stub_pool.h). */
#include "backend/gdb_stub_pool.h"

#include <pthread.h>
#include <string.h>

#include "base/internal.h"

#define MAX_HELD 64 /* devices attached at once */
#define ADDRESS_MAX 300

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char held[MAX_HELD][ADDRESS_MAX];

static int is_held(const char *a) {
  for (int i = 0; i < MAX_HELD; i++)
    if (held[i][0] && !strcmp(held[i], a)) return 1;
  return 0;
}

/* Entry `index` of a comma-separated list into out; 0 if there is none. */
static int entry(const char *list, unsigned index, char *out, size_t cap, int *too_long) {
  *too_long = 0;
  for (const char *p = list; p; index--) {
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    if (!index) {
      if (n >= cap) *too_long = 1;
      else {
        memcpy(out, p, n);
        out[n] = '\0';
      }
      return 1;
    }
    p = end ? end + 1 : NULL;
  }
  return 0;
}

int rvhal_gdb_stub_claim(const char *list, const char *uart_list, char *address, size_t cap, char *uart,
                         size_t uart_cap) {
  if (cap > ADDRESS_MAX) cap = ADDRESS_MAX;
  pthread_mutex_lock(&lock);
  int rc = RVHAL_BUSY, all_held = 1;
  unsigned i = 0;
  for (int too_long; entry(list, i, address, cap, &too_long); i++) {
    if (too_long || !address[0]) {
      rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_GDB_REMOTE=%s: entry %u is %s", list, i + 1,
                       too_long ? "too long" : "empty");
      all_held = 0;
      break;
    }
    if (is_held(address)) continue;
    int slot = 0;
    while (slot < MAX_HELD && held[slot][0]) slot++;
    if (slot == MAX_HELD) {
      rc = rvhal_error(RVHAL_BUSY, "RVHAL_GDB_REMOTE: %d devices hold stubs already", MAX_HELD);
      all_held = 0;
      break;
    }
    memcpy(held[slot], address, strlen(address) + 1);
    if (uart) uart[0] = '\0';
    if (uart && uart_list && (!entry(uart_list, i, uart, uart_cap, &too_long) || too_long)) uart[0] = '\0';
    rc = RVHAL_OK;
    all_held = 0;
    break;
  }
  if (all_held)
    rvhal_error(RVHAL_BUSY, "RVHAL_GDB_REMOTE=%s: all %u stubs are held by other devices of this process (a stub "
                "serves one debugger; list one per device)", list, i);
  pthread_mutex_unlock(&lock);
  return rc;
}

void rvhal_gdb_stub_release(const char *address) {
  if (!address) return;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < MAX_HELD; i++)
    if (held[i][0] && !strcmp(held[i], address)) {
      held[i][0] = '\0';
      break;
    }
  pthread_mutex_unlock(&lock);
}
