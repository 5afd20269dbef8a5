/* The words of a profile specification (profile_spec.h). */
#include "base/profile_spec.h"

#include <stdlib.h>
#include <string.h>

#include "base/internal.h"

int rvhal_profile_spec_each(const char *spec, rvhal_profile_out_fn_t fn, void *user) {
  char *copy = strdup(spec ? spec : "");
  if (!copy) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  int rc = RVHAL_OK, any = 0;
  for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save)) {
    any = 1;
    rvhal_profile_out_t out;
    const char *file = NULL;
    if (!strcmp(item, "table")) out = RVHAL_PROFILE_OUT_TABLE;
    else if (!strncmp(item, "csv=", 4) && item[4]) out = RVHAL_PROFILE_OUT_CSV, file = item + 4;
    else if (!strncmp(item, "trace=", 6) && item[6]) out = RVHAL_PROFILE_OUT_TRACE, file = item + 6;
    else if (!strncmp(item, "svg=", 4) && item[4]) out = RVHAL_PROFILE_OUT_SVG, file = item + 4;
    else {
      rc = rvhal_error(RVHAL_INVALID_ARGUMENT,
                       "profile: '%s' in '%s' is not table, csv=FILE, trace=FILE or svg=FILE", item, spec);
      break;
    }
    if (fn) rc = fn(user, out, file);
  }
  free(copy);
  if (!rc && !any)
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "profile: empty specification; use table, csv=FILE, trace=FILE, svg=FILE");
  return rc;
}
