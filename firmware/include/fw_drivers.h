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
 * implementation; time from the time CSR. */
void sbi_ipi_send(uint32_t hart_index);
void sbi_ipi_clear(uint32_t hart_index);
uint64_t sbi_time_now(void);
void sbi_timer_set(uint32_t hart_index, uint64_t deadline);
int sbi_hart_start(uint32_t hart_index, uintptr_t entry);

#endif /* FW_DRIVERS_H */
