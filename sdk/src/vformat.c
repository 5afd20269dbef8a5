/* Formatting for print() and OpenCL C printf: the firmware's own service
 * for a privileged kernel, in U-mode the firmware's formatter linked into
 * the program. Apart from services.c, so that a program that never
 * formats links no formatter (firmware/format.c). */
#include "rvhal_kernel.h"

int fw_vformat(char *buf, size_t cap, const char *fmt, va_list ap); /* format.c, linked in */

int rvhal_svc_vformat(const rvhal_call_info_t *ci, char *buf, size_t cap, const char *fmt, va_list ap) {
  if (ci->services) return ci->services->vformat(buf, cap, fmt, ap);
  return fw_vformat(buf, cap, fmt, ap); /* the firmware's formatter, in this program */
}
