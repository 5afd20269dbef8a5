/* Queues, events and timeline semaphores: asynchronous work on a device.
 *
 * A queue (rvhal_queue_t) runs its commands in the order they were
 * enqueued, one after another, on a thread of its own (an out-of-order
 * queue as their dependencies allow: below); the enqueueing call returns
 * at once. A device may have several queues; their commands
 * interleave on the device unless events or semaphores order them.
 *
 *  - An event (rvhal_event_t) is signalled once, when its command ends: with
 *    RVHAL_OK, or with the command's status and the same message the blocking
 *    call gives (rvhal_event_message). Events are reference-counted.
 *  - A timeline semaphore (rvhal_semaphore_t, as in IREE's HAL) holds a
 *    uint64_t that only grows: a command can wait until it is >= v and set it
 *    to v when it ends. A semaphore whose signalling command failed is failed
 *    for good, and so is everything that waits on it.
 *  - Every command can wait on events and semaphore values of any queue,
 *    of any device, and can signal semaphores (rvhal_dependencies_t).
 *
 * Failure: a command that fails (kernel trap, timeout, bad argument) fails
 * its event. Commands that wait on it, and every later command of the same
 * queue, are cancelled with RVHAL_CANCELLED and a message that names the
 * failed command and its cause; the device keeps working. rvhal_queue_finish
 * reports the first failure and puts the queue back in service.
 *
 * Threads: every function in this header may be called from any thread, on
 * any queue, at any time (a queue's own commands excepted: a host callback
 * must not wait on its own queue). Calls that use one device are serialised
 * by the device; devices do not share state and run in parallel.
 *
 * Every function returning int returns RVHAL_OK (0) or a negative status
 * with the reason in rvhal_last_error(). Output parameters come last.
 * docs/queues.md has the model and an example. */
#ifndef RVHAL_QUEUE_H
#define RVHAL_QUEUE_H

#include <stdint.h>

#include "rvhal/device.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* what librvhal exports: host/librvhal.map */

typedef struct rvhal_queue rvhal_queue_t;
typedef struct rvhal_event rvhal_event_t;
typedef struct rvhal_semaphore rvhal_semaphore_t;

/* Waits that never time out. */
#define RVHAL_WAIT_FOREVER UINT32_MAX

/* ---- timeline semaphores ------------------------------------------------ */

typedef struct rvhal_semaphore_value {
  rvhal_semaphore_t *semaphore;
  uint64_t value;
} rvhal_semaphore_value_t;

int rvhal_semaphore_create(uint64_t initial_value, rvhal_semaphore_t **out_semaphore);
/* Frees the semaphore. Nothing may wait on it or be about to signal it. */
void rvhal_semaphore_destroy(rvhal_semaphore_t *semaphore);
/* Sets the value to `value` from the host (it must not go down). */
int rvhal_semaphore_signal(rvhal_semaphore_t *semaphore, uint64_t value);
/* Fails the semaphore: every wait on it, now or later, fails with `status`
 * and `message`. */
void rvhal_semaphore_fail(rvhal_semaphore_t *semaphore, int status, const char *message);
/* The current value; returns the failure status if the semaphore failed. */
int rvhal_semaphore_query(rvhal_semaphore_t *semaphore, uint64_t *out_value);
/* Sleeps until the value is >= `value`: RVHAL_OK, RVHAL_TIMEOUT after
 * timeout_ms, or the failure status of a failed semaphore. */
int rvhal_semaphore_wait(rvhal_semaphore_t *semaphore, uint64_t value, uint32_t timeout_ms);

/* ---- events -------------------------------------------------------------- */

/* When a command went through its stages, host clock (CLOCK_MONOTONIC ns);
 * 0 for a stage it never reached. A kernel launch also gives its duration on
 * the device clock. */
typedef struct rvhal_event_times {
  uint64_t queued_ns;    /* enqueue call */
  uint64_t submitted_ns; /* its waits were satisfied and its turn came */
  uint64_t started_ns;   /* the device (or the host, for copies) started it */
  uint64_t ended_ns;
  uint64_t device_ns;    /* kernel launches: first hart start to last hart end, device clock */
  uint64_t device_start_ns, device_end_ns; /* kernel launches: the same span on the device clock (ns since
                                              the device booted): the gap between two launches is idle */
} rvhal_event_times_t;

void rvhal_event_retain(rvhal_event_t *event);
/* Drops a reference; the event is freed when its command has also ended. */
void rvhal_event_release(rvhal_event_t *event);
/* 1 if the command has ended (and *out_status, if given, holds its
 * status), 0 if not yet. */
int rvhal_event_query(const rvhal_event_t *event, int *out_status);
/* Sleeps until the command ends: its status, or RVHAL_TIMEOUT. */
int rvhal_event_wait(rvhal_event_t *event, uint32_t timeout_ms);
/* Why the command failed ("" while pending or after success). Valid while
 * the caller holds a reference. */
const char *rvhal_event_message(const rvhal_event_t *event);
int rvhal_event_times(const rvhal_event_t *event, rvhal_event_times_t *out_times);

/* ---- queues ---------------------------------------------------------------- */

int rvhal_queue_create(rvhal_device_t *device, rvhal_queue_t **out_queue);

/* Out-of-order queue (rvhal_queue_create_with_flags): a command starts as
 * soon as its dependencies are met, before earlier commands of the queue
 * that still wait (OpenCL's CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE).
 * Launches go onto the device's harts one after another, in the order they
 * become ready; writes, reads, copies, fills, markers and callbacks run on a
 * second thread of the queue, beside the launches. A barrier, a marker
 * without dependencies and a free are fences: each waits for every earlier
 * command of the queue, and no later one starts before it ends. Failure
 * works as in order: after a failed command, every command that had not
 * started is cancelled until rvhal_queue_finish. */
#define RVHAL_QUEUE_OUT_OF_ORDER 1u
/* A queue with flags (0 or RVHAL_QUEUE_OUT_OF_ORDER); 0 is rvhal_queue_create. */
int rvhal_queue_create_with_flags(rvhal_device_t *device, uint32_t flags, rvhal_queue_t **out_queue);
/* Runs what is still enqueued to its end, then frees the queue. Deleting the
 * device instead cancels what has not started. NULL is ignored. */
void rvhal_queue_destroy(rvhal_queue_t *queue);
/* Sleeps until every command enqueued so far has ended. Returns RVHAL_OK, or
 * the status (and message) of the first command that failed since the last
 * finish, and puts the queue back in service. */
int rvhal_queue_finish(rvhal_queue_t *queue, uint32_t timeout_ms);

/* Told once for each command of the queue that fails on its own (a kernel
 * that traps, hangs or overflows its stack, a lost device; not a command
 * cancelled because another failed), with its status and "<command>
 * failed: <message>" (the cause rvhal_event_message of what it cancels
 * names). Called on the queue's thread, before anything waiting for the
 * command is woken; it must not wait on this queue. NULL turns it off.
 * The OpenCL platform prints these lines on stderr (docs/opencl.md). */
typedef void (*rvhal_failure_fn_t)(void *user, int status, const char *failure);
void rvhal_queue_set_failure_fn(rvhal_queue_t *queue, rvhal_failure_fn_t fn, void *user);
rvhal_device_t *rvhal_queue_device(const rvhal_queue_t *queue);

/* What a command waits for before it starts, and what it signals when it
 * ends (in addition to its own event). NULL: nothing. The arrays are read
 * during the enqueue call only. */
typedef struct rvhal_dependencies {
  rvhal_event_t *const *wait_events;
  uint32_t num_wait_events;
  const rvhal_semaphore_value_t *wait_semaphores;
  uint32_t num_wait_semaphores;
  const rvhal_semaphore_value_t *signal_semaphores;
  uint32_t num_signal_semaphores;
} rvhal_dependencies_t;

/* Commands. `deps` may be NULL; `out_event` may be NULL (no event wanted).
 * A command that cannot be enqueued (bad argument found at enqueue) returns
 * the error and enqueues nothing. */

/* A kernel launch (rvhal_kernel_exec_ex). The argument descriptors and the
 * POD values they point to are copied: the caller may reuse them at once. */
int rvhal_enqueue_kernel(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, hal_program_t program,
                         hal_kernel_t kernel, const hal_ndrange_t *ndrange, const hal_arg_t *args,
                         uint32_t num_args, uint32_t work_dim, const rvhal_launch_options_t *options,
                         rvhal_event_t **out_event);
/* A launch request (rvhal_launch_request_create): the command holds a
 * reference to it, nothing is copied. */
int rvhal_enqueue_launch(rvhal_queue_t *queue, const rvhal_dependencies_t *deps,
                         const rvhal_launch_request_t *request, rvhal_event_t **out_event);
/* Host memory `src`/`dst` must stay valid until the command ends. */
int rvhal_enqueue_write(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, hal_addr_t dst, const void *src,
                        hal_size_t size, rvhal_event_t **out_event);
int rvhal_enqueue_read(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, void *dst, hal_addr_t src,
                       hal_size_t size, rvhal_event_t **out_event);
int rvhal_enqueue_copy(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, hal_addr_t dst, hal_addr_t src,
                       hal_size_t size, rvhal_event_t **out_event);
/* The pattern (1..RVHAL_FILL_PATTERN_MAX bytes) is copied at enqueue. */
int rvhal_enqueue_fill(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, hal_addr_t dst,
                       const void *pattern, hal_size_t pattern_size, hal_size_t size, rvhal_event_t **out_event);
/* Does nothing but wait and signal: an event that ends when everything
 * enqueued before it has (hipEventRecord), or a join of other queues. */
int rvhal_enqueue_marker(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, rvhal_event_t **out_event);
/* A marker that also holds back every later command of the queue until it
 * ends (OpenCL's barrier). On an in-order queue it is a marker. */
int rvhal_enqueue_barrier(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, rvhal_event_t **out_event);
/* Calls fn(user, status) on the queue's thread, in its turn; `status` is
 * RVHAL_OK, or RVHAL_CANCELLED if an earlier command failed (the callback
 * still runs, so it can release what it owns). */
typedef void (*rvhal_host_fn_t)(void *user, int status);
int rvhal_enqueue_callback(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, rvhal_host_fn_t fn, void *user,
                           rvhal_event_t **out_event);
/* Stream-ordered memory. The allocation is made at once (so later commands
 * can name its address); the free happens when the command's turn comes,
 * after everything enqueued before it. */
int rvhal_enqueue_alloc(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, hal_size_t size,
                        hal_size_t alignment, hal_addr_t *out_addr, rvhal_event_t **out_event);
int rvhal_enqueue_free(rvhal_queue_t *queue, const rvhal_dependencies_t *deps, hal_addr_t addr,
                       rvhal_event_t **out_event);

/* ---- command buffers --------------------------------------------------------
 * A sequence of launches, copies and fills recorded once and enqueued many
 * times (IREE's command buffers). A global-buffer argument of a recorded
 * launch may name a binding slot instead of an address: each enqueue gives
 * the addresses of the slots (re-binding). Enqueued, the buffer is one
 * queue command (its event is the whole buffer's) and, on the device, one
 * ring entry: the firmware runs its commands back to back from a command
 * list encoded once (docs/queues.md). The first failure stops it, with the
 * blocking call's message naming the command ("... (command 5 of 10 of the
 * command buffer)"); the commands before it have run, none after it.
 * Recording one buffer from several threads at once is not allowed;
 * enqueueing one buffer from any number of threads and queues is.
 * rvhal_command_buffer_destroy may be called with enqueues pending (they
 * keep the buffer alive until they end). */

typedef struct rvhal_command_buffer rvhal_command_buffer_t;

int rvhal_command_buffer_create(rvhal_device_t *device, rvhal_command_buffer_t **out_command_buffer);
void rvhal_command_buffer_destroy(rvhal_command_buffer_t *command_buffer);
/* A launch, as rvhal_enqueue_kernel (arguments and POD values are copied).
 * arg_bindings: NULL, or per argument -1 (use args[i]) or the binding slot
 * whose address a global-buffer argument takes at each enqueue. */
int rvhal_command_buffer_kernel(rvhal_command_buffer_t *command_buffer, hal_program_t program, hal_kernel_t kernel,
                                const hal_ndrange_t *ndrange, const hal_arg_t *args, uint32_t num_args,
                                uint32_t work_dim, const rvhal_launch_options_t *options, const int32_t *arg_bindings);
/* The same with a launch request: the buffer holds a reference to it. */
int rvhal_command_buffer_launch(rvhal_command_buffer_t *command_buffer, const rvhal_launch_request_t *request,
                                const int32_t *arg_bindings);
int rvhal_command_buffer_copy(rvhal_command_buffer_t *command_buffer, hal_addr_t dst, hal_addr_t src, hal_size_t size);
int rvhal_command_buffer_fill(rvhal_command_buffer_t *command_buffer, hal_addr_t dst, const void *pattern,
                              hal_size_t pattern_size, hal_size_t size);
/* Everything recorded before it ends before anything recorded after it
 * starts (always true of a queue's commands; recorded for clarity). */
int rvhal_command_buffer_barrier(rvhal_command_buffer_t *command_buffer);
/* Ends recording; the buffer can then be enqueued, and no longer changed. */
int rvhal_command_buffer_end(rvhal_command_buffer_t *command_buffer);
/* Enqueues the recorded commands with `bindings[0 .. num_bindings)` as the
 * binding slots' addresses (every slot the buffer uses must be given). */
int rvhal_enqueue_command_buffer(rvhal_queue_t *queue, const rvhal_dependencies_t *deps,
                                 const rvhal_command_buffer_t *command_buffer, const hal_addr_t *bindings,
                                 uint32_t num_bindings, rvhal_event_t **out_event);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif /* RVHAL_QUEUE_H */
