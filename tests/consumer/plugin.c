/* librvhal.a linked into a shared library: the static library is
 * position-independent, its thread-local error message included. */
#include <rvhal/rvhal.h>

const char *consumer_plugin_platform(void) {
  return rvhal_last_error()[0] ? rvhal_last_error() : rvhal_platform_info()->name;
}
