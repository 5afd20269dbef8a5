/* The firmware's formatter (vsnprintf semantics; returns the length the full
 * output would have). Self-contained so host unit tests can build it. */
#ifndef FW_FORMAT_H
#define FW_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

int fw_vformat(char *buf, size_t cap, const char *fmt, va_list ap);
int fw_format(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* FW_FORMAT_H */
