/* Several stubs for several devices: RVHAL_GDB_REMOTE (and RVHAL_UART)
 * may list one per device, comma-separated ("127.0.0.1:3333,127.0.0.1:3334"),
 * as OpenOCD gives one gdb_port per target. A stub serves one debugger, so
 * each device this process creates takes the first stub of the list that
 * none of its other devices holds, and gives it back when it is deleted;
 * a UART list is paired with the stubs by position. */
#ifndef RVHAL_HOST_GDB_STUB_POOL_H
#define RVHAL_HOST_GDB_STUB_POOL_H

#include <stddef.h>

/* The stub for a new device: list's first free entry into address (and
 * the UART at the same position of uart_list, if given, into uart; "" if
 * the UART list is shorter). RVHAL_BUSY naming the list when every stub is
 * held; RVHAL_INVALID_ARGUMENT for an empty entry or one over cap - 1. */
int rvhal_gdb_stub_claim(const char *list, const char *uart_list, char *address, size_t cap, char *uart,
                         size_t uart_cap);
/* Gives back a stub claimed from a list (others are ignored). */
void rvhal_gdb_stub_release(const char *address);

#endif /* RVHAL_HOST_GDB_STUB_POOL_H */
