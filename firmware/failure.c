/* The firmware's own failure (not a kernel's): reported to the host in the
 * control block, then the hart stops for good. */
#include "fw.h"
#include "fw_board.h"
#include "fw_mmio.h"

void fw_fail(int32_t status, const char *what, uint64_t value) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  fw_format(ctrl->fw.message, sizeof ctrl->fw.message, "%s (0x%llx)", what, (unsigned long long)value);
  ctrl->fw.error = status;
  fw_fence();
  ctrl->fw.state = RVHAL_FW_FAILED;
  fw_fence();
  fw_host_notify();
  xcsr_write(CSR_XIE, 0);
  for (;;) fw_wfi();
}
