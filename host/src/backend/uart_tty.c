/* A UART as a host tty (uart_tty.h). */
#define _GNU_SOURCE
#include "backend/uart_tty.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "base/internal.h"

static const struct {
  unsigned long rate;
  speed_t code;
} bauds[] = {{9600, B9600},     {19200, B19200},     {38400, B38400},     {57600, B57600},
             {115200, B115200}, {230400, B230400},   {460800, B460800},   {921600, B921600},
             {1000000, B1000000}, {1500000, B1500000}, {2000000, B2000000}, {3000000, B3000000}};

int rvhal_uart_tty_open(const char *spec, int *out_fd) {
  *out_fd = -1;
  char path[256];
  const char *comma = strchr(spec, ',');
  size_t pl = comma ? (size_t)(comma - spec) : strlen(spec);
  if (!pl || pl >= sizeof path)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_UART='%s': use /dev/ttyX[,baud]", spec);
  memcpy(path, spec, pl);
  path[pl] = '\0';
  speed_t speed = B115200;
  if (comma) {
    char *end;
    unsigned long rate = strtoul(comma + 1, &end, 10);
    size_t i = 0;
    while (i < sizeof bauds / sizeof bauds[0] && bauds[i].rate != rate) i++;
    if (*end || comma[1] < '0' || comma[1] > '9' || i == sizeof bauds / sizeof bauds[0])
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_UART='%s': baud rate '%s' is not one of 9600, 19200, 38400, "
                         "57600, 115200, 230400, 460800, 921600, 1000000, 1500000, 2000000, 3000000", spec, comma + 1);
    speed = bauds[i].code;
  }
  int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return rvhal_error(RVHAL_NOT_FOUND, "RVHAL_UART='%s': %s: %s", spec, path, strerror(errno));
  struct termios t;
  if (!isatty(fd) || tcgetattr(fd, &t) < 0) {
    close(fd);
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_UART='%s': %s is not a tty", spec, path);
  }
  cfmakeraw(&t);
  t.c_cflag |= CLOCAL | CREAD;
  t.c_cflag &= ~(CSTOPB | CRTSCTS);
  t.c_iflag &= ~(IXON | IXOFF);
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  cfsetispeed(&t, speed);
  cfsetospeed(&t, speed);
  if (tcsetattr(fd, TCSANOW, &t) < 0) {
    int e = errno;
    close(fd);
    return rvhal_error(RVHAL_HOST_IO, "RVHAL_UART='%s': configuring %s: %s", spec, path, strerror(e));
  }
  tcflush(fd, TCIOFLUSH); /* bytes from before this device are not its wake-ups */
  *out_fd = fd;
  return RVHAL_OK;
}
