/* Drivers a board can wire into its fw_board_t (listed per board in
 * boards/<name>/board.cmake). Each uses the addresses of the board's
 * board.h. */
#ifndef FW_DRIVERS_H
#define FW_DRIVERS_H

#include <stdint.h>

/* The console UART: one of ns16550.c, sifive_uart.c. */
void fw_uart_init(void);
void fw_uart_enable_rx_irq(void);
void fw_uart_putc(char c);
uint32_t fw_uart_drain_rx(void);

/* PLIC: route one source to the firmware's context of one hart. */
void plic_route_to_hart(uint32_t source, uint32_t hartid);
uint32_t plic_claim(uint32_t hartid);
void plic_complete(uint32_t hartid, uint32_t source);

/* The host link over the console UART whose receive interrupt goes through
 * the PLIC to hart 0 (uart_doorbell.c). */
int uart_link_init(void); /* the board's init hook when the UART is all it sets up */
void uart_doorbell_enable(void);
uint32_t uart_doorbell_ack(void);
void uart_notify_host(void);

/* CLINT / ACLINT (M-mode) */
void clint_ipi_send(uint32_t hart_index);
void clint_ipi_clear(uint32_t hart_index);
uint64_t clint_time_now(void);
void clint_timer_set(uint32_t hart_index, uint64_t deadline);

/* HTIF (spike): the console is the host link, output only. */
void htif_notify_host(void);

/* SBI (S-mode firmware): IPIs, timer and hart start through the SBI
 * implementation; time from the time CSR, read inline (fw_board_t.time_csr:
 * such a board sets RVHAL_BOARD_TIME_CSR 1; no time_now hook). */
void sbi_ipi_send(uint32_t hart_index);
void sbi_ipi_clear(uint32_t hart_index);
void sbi_timer_set(uint32_t hart_index, uint64_t deadline);
int sbi_hart_start(uint32_t hart_index, uintptr_t entry);

/* The fw_board_t hooks of a driver group, for a board's initializer (after
 * FW_BOARD_FACTS): a board lists the groups it has, then its own hooks. */
#define FW_HOOKS_UART_LINK                                                                 \
  .doorbell = FW_DOORBELL_IRQ, .doorbell_enable = uart_doorbell_enable, .doorbell_ack = uart_doorbell_ack, \
  .host_notify = uart_notify_host
#define FW_HOOKS_CLINT                                                                     \
  .ipi_send = clint_ipi_send, .ipi_clear = clint_ipi_clear, .time_now = clint_time_now, .timer_set = clint_timer_set
#define FW_HOOKS_SBI                                                                       \
  .hart_start = sbi_hart_start, .ipi_send = sbi_ipi_send, .ipi_clear = sbi_ipi_clear, .timer_set = sbi_timer_set

#endif /* FW_DRIVERS_H */
