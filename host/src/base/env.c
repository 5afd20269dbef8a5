/* Environment overrides: one parser for the numbers the library reads
 * from the environment, so any program can be steered without code
 * changes and a bad value is refused alike everywhere. */
#include <errno.h>
#include <stdlib.h>

#include "base/internal.h"

int rvhal_env_u32(const char *name, uint32_t *v) {
  const char *s = getenv(name);
  if (!s || !*s) return RVHAL_OK;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end || x > UINT32_MAX) return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s=%s is not a number", name, s);
  *v = (uint32_t)x;
  return RVHAL_OK;
}
