/* The firmware services a kernel reaches through hal_extra (see
 * abi/rvhal/rvhal_kernel_abi.h). */
#include "fw.h"

static void svc_print(const rvhal_call_info_t *ci, uint64_t item, const char *text, uint32_t len, uint32_t flags) {
  fw_print_record(ci->hart_index, item, text, len, flags);
}

const rvhal_services_t fw_services = {
    .abi_version = RVHAL_KERNEL_ABI_VERSION,
    .size = sizeof(rvhal_services_t),
    .team_barrier = fw_team_barrier,
    .print = svc_print,
    .vformat = fw_vformat,
    .fail = fw_kernel_fail,
};
