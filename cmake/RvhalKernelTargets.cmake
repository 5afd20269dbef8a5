# add_subdirectory(rvhal), and this tree's own tests and benchmarks: the
# same kernel SDK targets and rvhal_add_kernel (C and OpenCL C) that
# find_package(rvhal) gives, over this build's device parts.
include(${RVHAL_SOURCE_DIR}/cmake/package/RvhalKernelSdk.cmake)
foreach(set ${RVHAL_KERNEL_SETS})
  _rvhal_kernel_sdk_target(${set} ${CMAKE_BINARY_DIR}/device-${set}/sdk/librvhal_kernel.a
                           ${CMAKE_BINARY_DIR}/device-${set}/linker/kernel.ld
                           "${RVHAL_SOURCE_DIR}/sdk/include;${RVHAL_SOURCE_DIR}/abi")
  string(REPLACE "-" "_" _t rvhal::kernel_sdk_${set})
  set_property(TARGET ${_t} PROPERTY RVHAL_BUILT_BY rvhal-device-${set})
endforeach()
set(rvhal_XLENS ${RVHAL_DEVICE_XLENS} CACHE INTERNAL "")
set(rvhal_KERNEL_SETS ${RVHAL_KERNEL_SETS} CACHE INTERNAL "")
include(${RVHAL_SOURCE_DIR}/cmake/package/RvhalAddKernel.cmake)
