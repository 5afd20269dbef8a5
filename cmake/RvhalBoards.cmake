# The devices (board x XLEN) the build makes, in the platform's order
# (host/src/device/platform.c): qemu-virt rv64, qemu-virt rv32, then the other
# boards by name, RV64 before RV32. Each entry is "<board>-rv<xlen>", the
# device's name in `rvhal info`.
function(rvhal_board_devices out_var)
  set(first)
  set(rest)
  set(boards ${RVHAL_BOARDS})
  list(SORT boards)
  foreach(board ${boards})
    unset(RVHAL_BOARD_XLENS)
    include(${RVHAL_SOURCE_DIR}/boards/${board}/board.cmake)
    foreach(xlen 64 32)
      if(xlen IN_LIST RVHAL_BOARD_XLENS AND xlen IN_LIST RVHAL_DEVICE_XLENS)
        if(board STREQUAL "qemu-virt")
          list(APPEND first ${board}-rv${xlen})
        else()
          list(APPEND rest ${board}-rv${xlen})
        endif()
      endif()
    endforeach()
  endforeach()
  set(${out_var} ${first} ${rest} PARENT_SCOPE)
endfunction()

# rvhal_board_kernel_abi(<board> <xlen> <out_abi>): the kernel ABI of the
# board's harts at <xlen>: from board.cmake's RVHAL_BOARD_ISA ("rv64imac",
# its rv32/rv64 prefix taken as <xlen>), else the build's (lp64d/ilp32d).
function(rvhal_board_kernel_abi board xlen out_abi)
  unset(RVHAL_BOARD_ISA)
  include(${RVHAL_SOURCE_DIR}/boards/${board}/board.cmake)
  set(isa rv${xlen}imafdc)
  if(RVHAL_BOARD_ISA)
    string(REGEX REPLACE "^rv(32|64)" "rv${xlen}" isa ${RVHAL_BOARD_ISA})
  endif()
  rvhal_isa_kernel_abi(${isa} abi)
  set(${out_abi} ${abi} PARENT_SCOPE)
endfunction()

# The kernel ABIs the build makes a kernel set for: the hard-float one of
# each XLEN built (it also builds the firmware), and each other one some
# board of RVHAL_BOARDS needs (cmake/package/RvhalKernelFlags.cmake).
function(rvhal_kernel_abis out_var)
  set(result lp64d)
  if(32 IN_LIST RVHAL_DEVICE_XLENS)
    list(APPEND result ilp32d)
  endif()
  foreach(board ${RVHAL_BOARDS})
    unset(RVHAL_BOARD_XLENS)
    include(${RVHAL_SOURCE_DIR}/boards/${board}/board.cmake)
    foreach(xlen ${RVHAL_BOARD_XLENS})
      if(xlen IN_LIST RVHAL_DEVICE_XLENS)
        rvhal_board_kernel_abi(${board} ${xlen} abi)
        string(TOUPPER ${abi} up)
        if(NOT DEFINED RVHAL_KERNEL_ARCH_FLAGS_${up})
          message(FATAL_ERROR "boards/${board}/board.cmake: RVHAL_BOARD_ISA ${RVHAL_BOARD_ISA} gives kernel ABI ${abi} "
                              "at RV${xlen}, which has no kernel set (D or neither F nor D: lp64d, lp64, ilp32d, ilp32)")
        endif()
        list(APPEND result ${abi})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES result)
  set(${out_var} ${result} PARENT_SCOPE)
endfunction()

# The devices the test suite runs on: every device of the build (each
# runs the kernel set of its ABI).
function(rvhal_kernel_devices out_var)
  set(${out_var} ${RVHAL_DEVICES} PARENT_SCOPE)
endfunction()

# rvhal_device_kernel_set(<device> <out_set>): the kernel set device
# "qemu-virt-imac-rv64" runs ("rv64-lp64"); its kernels are in
# ${CMAKE_BINARY_DIR}/device-<set>/kernels.
function(rvhal_device_kernel_set dev out_set)
  if(NOT dev MATCHES "^(.*)-rv(32|64)$")
    message(FATAL_ERROR "rvhal_device_kernel_set: \"${dev}\" is not <board>-rv<xlen>")
  endif()
  set(xlen ${CMAKE_MATCH_2})
  rvhal_board_kernel_abi(${CMAKE_MATCH_1} ${xlen} abi)
  rvhal_kernel_set(${abi} _x set)
  set(${out_set} ${set} PARENT_SCOPE)
endfunction()
