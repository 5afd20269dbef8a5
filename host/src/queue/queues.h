/* The queue module's state on a device, the face of queue/ for the file
 * that composes a device: the device's queues, stopped with it. Queues,
 * events, semaphores and command buffers are the public API
 * (rvhal/queue.h). */
#ifndef RVHAL_HOST_QUEUES_H
#define RVHAL_HOST_QUEUES_H

typedef struct rvhal_queues rvhal_queues_t;

int rvhal_queues_create(rvhal_queues_t **out_queues);
/* Stops the device's queues, cancelling what has not started. */
void rvhal_queues_destroy(rvhal_queues_t *qs);

#endif /* RVHAL_HOST_QUEUES_H */
