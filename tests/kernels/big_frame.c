/* Must NOT compile with the kernel flags (cmake/RvhalDevice.cmake): a fixed
 * 40 KiB frame is more than half the stack guard, and GCC 12 does not
 * probe fixed frames on RISC-V, so it could jump the guard. Checked when
 * the device build is configured (tests/kernels/kernels.cmake). */
void big_frame_sink(volatile char *p);

void big_frame(void) {
  volatile char big[40 * 1024];
  big[0] = 1;
  big_frame_sink(big);
}
