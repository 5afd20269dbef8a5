/* rvhal/version.h (generated from the project's version): its
 * RVHAL_VERSION_MAJOR/MINOR/PATCH spell RVHAL_VERSION_STRING and the
 * version the library reports, and RVHAL_VERSION orders releases. */
#include <stdio.h>

#include "check.h"
#include "rvhal/rvhal.h"

int main(void) {
  char spelled[64];
  snprintf(spelled, sizeof spelled, "%d.%d.%d", RVHAL_VERSION_MAJOR, RVHAL_VERSION_MINOR, RVHAL_VERSION_PATCH);
  CHECK_MSG(!strcmp(spelled, RVHAL_VERSION_STRING), "macros say %s, RVHAL_VERSION_STRING \"%s\"", spelled,
            RVHAL_VERSION_STRING);
  CHECK_MSG(!strcmp(spelled, rvhal_platform_info()->version), "header %s, library %s", spelled,
            rvhal_platform_info()->version);
  CHECK(RVHAL_VERSION == RVHAL_MAKE_VERSION(RVHAL_VERSION_MAJOR, RVHAL_VERSION_MINOR, RVHAL_VERSION_PATCH));
  CHECK(RVHAL_MAKE_VERSION(0, 10, 0) > RVHAL_MAKE_VERSION(0, 9, 99));
  CHECK(RVHAL_MAKE_VERSION(1, 0, 0) > RVHAL_MAKE_VERSION(0, 99, 99));
  printf("rvhal/version.h: %s\n", spelled);
  return check_result("version");
}
