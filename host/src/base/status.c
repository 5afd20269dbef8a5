/* Status names and messages from the shared X-macro table, and the
 * per-thread detailed message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* The message so far, placed in a new one: where fmt has "{}", else
 * after "fmt: ". The copy is made here, so callers carry no buffers. */
int rvhal_error_annotate(int status, const char *fmt, ...) {
  char before[sizeof last_error], text[sizeof last_error], f[256];
  memcpy(before, last_error, sizeof before);
  /* "{}" is found in fmt, not in what it formats (a path may hold "{}"):
   * it becomes a control byte no message holds */
  const char *mark = strstr(fmt, "{}");
  if (mark && strlen(fmt) < sizeof f) {
    snprintf(f, sizeof f, "%.*s\x1d%s", (int)(mark - fmt), fmt, mark + 2);
    fmt = f;
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  char *at = mark ? strchr(text, '\x1d') : NULL;
  const char *tail = at ? at + 1 : "";
  if (at) *at = '\0';
  else tail = "", strncat(text, ": ", sizeof text - strlen(text) - 1);
  /* text, the message so far, the rest of text: cut at the buffer's end */
  size_t n = 0;
  const char *parts[3] = {text, before, tail};
  for (int i = 0; i < 3; i++)
    for (const char *c = parts[i]; *c && n < sizeof last_error - 1; c++) last_error[n++] = *c;
  last_error[n] = '\0';
  return status;
}

void rvhal_clear_error(void) { last_error[0] = '\0'; }
