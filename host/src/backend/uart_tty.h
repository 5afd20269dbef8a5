/* A board's UART reached as a host tty ("/dev/ttyUSB0[,baud]", $RVHAL_UART):
 * beside a JTAG probe, the serial port carries the firmware's wake-up byte
 * to the host and, on a board without a debug doorbell, the host's doorbell
 * byte to the firmware (its RX interrupt). Raw 8N1, no flow control. */
#ifndef RVHAL_HOST_UART_TTY_H
#define RVHAL_HOST_UART_TTY_H

/* Opens and configures the tty; the error names the spec and what failed
 * (an unknown baud rate lists the ones taken). */
int rvhal_uart_tty_open(const char *spec, int *out_fd);

#endif /* RVHAL_HOST_UART_TTY_H */
