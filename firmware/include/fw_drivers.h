/* Generic drivers a board can wire into its fw_board_t. Each uses the
 * addresses from the board's board.h. */
#ifndef FW_DRIVERS_H
#define FW_DRIVERS_H

#include <stdint.h>

/* ns16550a UART */
void ns16550_init(void);
void ns16550_enable_rx_irq(void);
void ns16550_putc(char c);
uint32_t ns16550_drain_rx(void);

/* PLIC: route one source to one hart's M-mode context. */
void plic_route_to_hart(uint32_t source, uint32_t hartid);
uint32_t plic_claim(uint32_t hartid);
void plic_complete(uint32_t hartid, uint32_t source);

/* The host link: doorbell in and notification out over the ns16550,
 * through the PLIC (uart_doorbell.c). */
void uart_doorbell_enable(void);
uint32_t uart_doorbell_ack(void);
void uart_notify_host(void);

/* CLINT / ACLINT */
void clint_ipi_send(uint32_t hart_index);
void clint_ipi_clear(uint32_t hart_index);
uint64_t clint_time_now(void);
void clint_timer_set(uint32_t hart_index, uint64_t deadline);

#endif /* FW_DRIVERS_H */
