# On-device conformance of the packed-argument ABI (RV64 and RV32):
# device.abi_conformance and device.abi_conformance.rv32, labels "device"
# and "abi".
rvhal_device_test(abi_conformance RV32 BOARDS DIR abi SOURCE test_abi_conformance TIMEOUT 300)
set(_abi_tests device.abi_conformance)
if(RVHAL_BUILD_RV32)
  list(APPEND _abi_tests device.abi_conformance.rv32)
endif()
set_tests_properties(${_abi_tests} PROPERTIES LABELS "device;abi")
