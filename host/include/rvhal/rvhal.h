/* rvhal: run GPU-style compute kernels on (emulated) RISC-V harts. */
#ifndef RVHAL_RVHAL_H
#define RVHAL_RVHAL_H

#include "rvhal/arg_pack.h"
#include "rvhal/compiler.h"
#include "rvhal/counters.h"
#include "rvhal/device.h"
#include "rvhal/queue.h"
#include "rvhal/program_info.h"
#include "rvhal/status.h"
#include "rvhal/version.h"

#endif /* RVHAL_RVHAL_H */
