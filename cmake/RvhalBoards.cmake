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

# The devices whose harts run the build's kernels (the board's ISA is the
# build's: board.cmake sets no RVHAL_BOARD_ISA): the test suite runs on
# these. A board with an ISA of its own (qemu-virt-imac) gets its firmware
# only, and the host refuses the build's kernels there.
function(rvhal_kernel_devices out_var)
  set(result)
  foreach(dev ${RVHAL_DEVICES})
    string(REGEX REPLACE "-rv(32|64)$" "" board ${dev})
    unset(RVHAL_BOARD_ISA)
    include(${RVHAL_SOURCE_DIR}/boards/${board}/board.cmake)
    if(NOT RVHAL_BOARD_ISA)
      list(APPEND result ${dev})
    endif()
  endforeach()
  set(${out_var} ${result} PARENT_SCOPE)
endfunction()
