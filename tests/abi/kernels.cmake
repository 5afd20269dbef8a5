# The ABI conformance kernel (device build).
rvhal_add_kernel(abi_check abi/abi_check_kernel.c)
target_include_directories(abi_check PRIVATE abi)
