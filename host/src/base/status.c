/* Status names and messages from the shared X-macro table, and the
 * per-thread detailed message. */
#include <stdarg.h>
#include <stdio.h>

#include "base/internal.h"

static _Thread_local char last_error[1024];

const char *rvhal_status_name(int status) {
  switch (status) {
#define RVHAL_STATUS_NAME_(name, value, msg) \
  case value:                                \
    return "RVHAL_" #name;
    RVHAL_STATUS_MAP(RVHAL_STATUS_NAME_)
#undef RVHAL_STATUS_NAME_
  }
  return "RVHAL_UNKNOWN";
}

const char *rvhal_status_string(int status) {
  switch (status) {
#define RVHAL_STATUS_MSG_(name, value, msg) \
  case value:                               \
    return msg;
    RVHAL_STATUS_MAP(RVHAL_STATUS_MSG_)
#undef RVHAL_STATUS_MSG_
  }
  return "unknown status";
}

const char *rvhal_last_error(void) { return last_error; }

int rvhal_error(int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return status;
}

void rvhal_clear_error(void) { last_error[0] = '\0'; }
