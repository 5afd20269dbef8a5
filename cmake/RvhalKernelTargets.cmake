# add_subdirectory(rvhal), and this tree's own tests and benchmarks: the
# same kernel SDK targets and rvhal_add_kernel (C and OpenCL C) that
# find_package(rvhal) gives, over this build's device parts.
include(${RVHAL_SOURCE_DIR}/cmake/package/RvhalKernelSdk.cmake)
foreach(xlen ${RVHAL_DEVICE_XLENS})
  _rvhal_kernel_sdk_target(${xlen} ${CMAKE_BINARY_DIR}/device-rv${xlen}/sdk/librvhal_kernel.a
                           ${CMAKE_BINARY_DIR}/device-rv${xlen}/linker/kernel.ld
                           "${RVHAL_SOURCE_DIR}/sdk/include;${RVHAL_SOURCE_DIR}/abi")
  set_property(TARGET rvhal::kernel_sdk_rv${xlen} PROPERTY RVHAL_BUILT_BY rvhal-device-rv${xlen})
endforeach()
set(rvhal_XLENS ${RVHAL_DEVICE_XLENS} CACHE INTERNAL "")
include(${RVHAL_SOURCE_DIR}/cmake/package/RvhalAddKernel.cmake)
