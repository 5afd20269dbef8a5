/* Queues (queue.h): command lists, each run by a thread of its own that
 * waits for a command's dependencies, runs it on the device (under the
 * device's lock, as a blocking call would) and ends its event. An
 * out-of-order queue has two: one for launches, one for the rest. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch/launch.h"
#include "memory/memory.h"
#include "observe/observe.h"
#include "program/program.h"
#include "queue/command_buffer.h"
#include "queue/event.h"
#include "queue/queues.h"
#include "queue/sync.h"

typedef enum {
  CMD_KERNEL,
  CMD_WRITE,
  CMD_READ,
  CMD_COPY,
  CMD_FILL,
  CMD_MARKER,
  CMD_CALLBACK,
  CMD_FREE,
  CMD_COMMAND_BUFFER,
} cmd_kind_t;

/* Ended commands are kept for reuse, up to CMD_POOL a queue: most
 * enqueues then allocate nothing but their event (and a launch request,
 * unless the caller made one). */
#define CMD_POOL 64

typedef struct cmd {
  struct cmd *next;
  struct rvhal_queue *queue; /* to return to its pool */
  cmd_kind_t kind;
  rvhal_event_t *event; /* the command's reference */
  int fence;            /* out of order: waits for every earlier command, holds back every later one */
  rvhal_event_t **wait_events;
  uint32_t num_wait_events;
  rvhal_semaphore_value_t *wait_sems, *signal_sems;
  uint32_t num_wait_sems, num_signal_sems;
  union {
    struct {
      const rvhal_launch_request_t *launch; /* a reference */
      int named; /* the event's `what` has the kernel's name, not its handle */
    } k;
    struct {
      hal_addr_t dst, src;
      void *host_dst;
      const void *host_src;
      hal_size_t size;
      uint8_t pattern[RVHAL_FILL_PATTERN_MAX];
      hal_size_t pattern_size;
    } mem;
    struct {
      rvhal_host_fn_t fn;
      void *user;
    } cb;
    struct {
      rvhal_command_buffer_t *cb; /* a reference */
      hal_addr_t *bindings;
      uint32_t num_bindings;
    } list;
  } u;
} cmd_t;

struct rvhal_queue {
  rvhal_device_t *device;
  uint32_t id;          /* for messages: "queue 2 of device qemu-virt-rv64" */
  pthread_t thread;
  int out_of_order;     /* RVHAL_QUEUE_OUT_OF_ORDER: `thread` runs launches, host_thread the rest */
  pthread_t host_thread;
  cmd_t *head, *tail;   /* not started yet */
  uint32_t running;     /* taken off the list, not ended (launches on the device too) */
  int fence_running;
  uint64_t enqueued, ended; /* commands; finish waits for ended == enqueued */
  pthread_cond_t finish_cond; /* rvhal_queue_finish sleeps here: woken once `ended` reaches finish_min */
  uint32_t finish_waiters;
  uint64_t finish_min;
  cmd_t *pool;          /* ended commands for reuse (sync lock) */
  uint32_t num_pool;
  int stopping;         /* destroy: run what is left, then exit */
  int cancel_all;       /* device delete: cancel what has not started */
  int failed;           /* a command failed since the last finish */
  int fail_status;
  char *fail_message;   /* the failed command's own message, for finish */
  char *fail_cause;     /* "<command> failed: <message>", for what it cancels */
  rvhal_failure_fn_t fail_fn; /* told of each command that failed on its own */
  void *fail_user;
  struct rvhal_queue *next_on_device;
  /* Kernel launches on the device, oldest first (at most the ring's depth):
   * while there are any, this queue's thread holds the device's lock. */
  struct flight {
    cmd_t *c;
    rvhal_launch_t l;
    uint64_t t0;
    int rc;             /* the submission's status: a refused one completes in its turn */
    char *message;      /* ... with this message (heap) */
    int list;           /* a command buffer: lf, not l */
    int ran;            /* the host ran it at submission (rc is its result, times its run) */
    rvhal_launch_times_t times;
    rvhal_cmdlist_flight_t lf;
  } fly[RVHAL_RING_SLOTS]; /* a ring: the oldest at fly_head */
  uint32_t fly_head, num_fly;
};

struct rvhal_queues {
  rvhal_queue_t *list; /* the device's queues (under its lock) */
};

static uint32_t next_queue_id;

/* ---- dependencies ---------------------------------------------------------- */

enum { DEPS_PENDING, DEPS_MET, DEPS_FAILED };

/* Sync lock held. On DEPS_FAILED, *cause is the failure that started it
 * all: "<command> failed: <its message>" (the event's or semaphore's own
 * string: the command holds the event, a failed semaphore keeps its
 * message until destroyed). */
static int deps_state(const cmd_t *c, const char **cause) {
  for (uint32_t i = 0; i < c->num_wait_events; i++) {
    const rvhal_event_t *e = c->wait_events[i];
    if (!e->done) return DEPS_PENDING;
    if (e->status != RVHAL_OK) {
      *cause = e->cause;
      return DEPS_FAILED;
    }
  }
  for (uint32_t i = 0; i < c->num_wait_sems; i++) {
    const rvhal_semaphore_t *s = c->wait_sems[i].semaphore;
    if (s->status != RVHAL_OK) {
      *cause = s->message;
      return DEPS_FAILED;
    }
    if (s->value < c->wait_sems[i].value) return DEPS_PENDING;
  }
  return DEPS_MET;
}

/* ---- running a command -------------------------------------------------- */

/* The event's device times, from the launch's record. */
static void set_device_times(cmd_t *c, const rvhal_launch_times_t *t) {
  c->event->times.device_start_ns = t->start_ns;
  c->event->times.device_end_ns = t->end_ns;
  c->event->times.device_ns = t->device_ns;
}

static int run_command(rvhal_queue_t *q, cmd_t *c) {
  rvhal_device_t *d = q->device;
  rvhal_clear_error();
  switch (c->kind) {
  case CMD_KERNEL: {
    rvhal_launch_times_t t;
    int rc = rvhal_launch_run(d, c->u.k.launch, &t);
    if (rc == RVHAL_OK) set_device_times(c, &t);
    return rc;
  }
  case CMD_WRITE: return rvhal_mem_write(d, c->u.mem.dst, c->u.mem.host_src, c->u.mem.size);
  case CMD_READ: return rvhal_mem_read(d, c->u.mem.host_dst, c->u.mem.src, c->u.mem.size);
  case CMD_COPY: return rvhal_mem_copy(d, c->u.mem.dst, c->u.mem.src, c->u.mem.size);
  case CMD_FILL: return rvhal_mem_fill(d, c->u.mem.dst, c->u.mem.pattern, c->u.mem.pattern_size, c->u.mem.size);
  case CMD_FREE: return rvhal_mem_free(d, c->u.mem.dst);
  case CMD_COMMAND_BUFFER: {
    rvhal_launch_times_t t;
    int rc = rvhal_cmdlist_run(d, &c->u.list.cb->list, c->u.list.bindings, &t); /* (bindings checked at enqueue) */
    set_device_times(c, &t);
    return rc;
  }
  case CMD_MARKER:
  case CMD_CALLBACK: return RVHAL_OK;
  }
  return rvhal_error(RVHAL_INVALID_ARGUMENT, "unknown queue command kind %d", (int)c->kind);
}

static void free_command(cmd_t *c);

/* A command built but never put on the queue: its waits were not counted. */
static void discard_command(cmd_t *c) {
  rvhal_event_release_locked(c->event);
  c->num_wait_events = 0;
  free_command(c);
}

static void free_command(cmd_t *c) {
  for (uint32_t i = 0; i < c->num_wait_events; i++) rvhal_event_release_locked(c->wait_events[i]);
  free(c->wait_events);
  free(c->wait_sems);
  free(c->signal_sems);
  if (c->kind == CMD_KERNEL) rvhal_launch_request_release(c->u.k.launch);
  if (c->kind == CMD_COMMAND_BUFFER) {
    free(c->u.list.bindings);
    if (c->u.list.cb) rvhal_command_buffer_release_locked(c->u.list.cb);
  }
  rvhal_queue_t *q = c->queue;
  if (q && q->num_pool < CMD_POOL) {
    c->next = q->pool;
    q->pool = c;
    q->num_pool++;
    return;
  }
  free(c);
}

/* A command failed on its own: its failure_fn is told, unlocked (it may
 * print or call rvhal), before the command ends. Sync lock held. */
static void tell_failure(rvhal_queue_t *q, int status, const char *failure) {
  rvhal_failure_fn_t fn = q->fail_fn;
  void *user = q->fail_user;
  if (!fn) return;
  rvhal_sync_unlock();
  fn(user, status, failure);
  rvhal_sync_lock();
}

/* A command has ended (taken off the queue already). Sync lock held. */
static void finish_command(rvhal_queue_t *q, cmd_t *c, int status, const char *message, const char *cause) {
  q->running--;
  if (c->fence) q->fence_running = 0;
  /* The first failure stops the queue until rvhal_queue_finish. */
  if (status != RVHAL_OK && !q->failed && !q->cancel_all) {
    q->failed = 1;
    q->fail_status = status;
    q->fail_message = rvhal_sync_strdup(message);
    q->fail_cause = rvhal_sync_strdup(cause);
  }
  for (uint32_t i = 0; i < c->num_signal_sems; i++) {
    rvhal_semaphore_t *s = c->signal_sems[i].semaphore;
    if (status != RVHAL_OK) rvhal_semaphore_fail_locked(s, status, cause);
    else if (c->signal_sems[i].value > s->value) s->value = c->signal_sems[i].value;
  }
  q->ended++;
  if (q->finish_waiters && q->ended >= q->finish_min) pthread_cond_broadcast(&q->finish_cond);
  rvhal_event_complete_locked(c->event, status, message, cause); /* wakes what waits on events and semaphores */
  free_command(c);
}

/* A kernel command enqueued while the device was busy has its handle in
 * its `what` ("kernel #7 (command ...)"): give it the kernel's name now.
 * Device lock and sync lock held. */
static void name_kernel_command(rvhal_queue_t *q, cmd_t *c) {
  if (c->kind != CMD_KERNEL || c->u.k.named) return;
  const rvhal_program_obj_t *p = rvhal_program_get(q->device, c->u.k.launch->program);
  const rvhal_kernel_entry_t *k = p ? rvhal_kernel_get(p, c->u.k.launch->kernel) : NULL;
  if (!k || !k->name) return;
  const char *rest = strchr(c->event->what, '(');
  size_t n = strlen(k->name) + (rest ? strlen(rest) : 0) + 16;
  char *named = malloc(n);
  if (!named) return;
  snprintf(named, n, "kernel %s %s", k->name, rest ? rest : "");
  rvhal_sync_strfree(c->event->what);
  c->event->what = named;
  c->u.k.named = 1;
}

/* Takes c (prev is the command before it, or NULL) off the list of
 * commands not started. Sync lock held. */
static void take(rvhal_queue_t *q, cmd_t *c, cmd_t *prev) {
  if (prev) prev->next = c->next;
  else q->head = c->next;
  if (q->tail == c) q->tail = prev;
  c->next = NULL;
  q->running++;
  if (c->fence) q->fence_running = 1;
}

/* Runs a command taken off the list, its dependencies in `state` (cause:
 * the failed one's), and ends it. Sync lock held on entry and exit;
 * released while the command runs. Every failure is reported by its root
 * cause: a command that did not run says which command's failure stopped
 * it, however long the chain. */
static void run_taken(rvhal_queue_t *q, cmd_t *c, int state, const char *dep_cause) {
  char *message = NULL, *failure = NULL; /* this command's, on the heap */
  int status = RVHAL_OK;
  const char *cause = dep_cause;
  if (q->cancel_all) cause = "its device was deleted before it ran";
  else if (state != DEPS_FAILED && q->failed) cause = q->fail_cause;
  if (q->cancel_all || state == DEPS_FAILED || q->failed) {
    status = RVHAL_CANCELLED;
    message = rvhal_sync_strprintf("%s was cancelled because %s", c->event->what, cause);
    cause = failure = rvhal_sync_strdup(cause); /* a callback runs unlocked: q->fail_cause may go meanwhile */
  }
  c->event->times.submitted_ns = rvhal_now_ns();

  if (status == RVHAL_OK || c->kind == CMD_CALLBACK) {
    rvhal_sync_unlock();
    int rc = status;
    uint64_t t0 = rvhal_now_ns();
    if (status == RVHAL_OK) {
      /* Copies and fills need only the heap lock (memory.c): they run while
       * another queue's launches hold the device. The profile's file is the
       * device's, written under its lock. */
      rvhal_device_t *d = q->device;
      const int lock = c->kind == CMD_KERNEL || c->kind == CMD_COMMAND_BUFFER || rvhal_observe_profiling(d);
      if (lock) rvhal_device_lock(d);
      if (c->kind == CMD_KERNEL && !c->u.k.named) {
        rvhal_sync_lock();
        name_kernel_command(q, c);
        rvhal_sync_unlock();
      }
      rc = run_command(q, c);
      if (rc != RVHAL_OK) message = rvhal_sync_strdup(rvhal_last_error());
      if (lock) {
        rvhal_observe_queue_command(d, q->id, c->event->what, c->event->times.queued_ns, c->event->times.submitted_ns,
                                    t0, rvhal_now_ns());
        rvhal_device_unlock(d);
      }
    }
    /* Callbacks run outside the device lock: they may use the device. */
    if (c->kind == CMD_CALLBACK) c->u.cb.fn(c->u.cb.user, status);
    uint64_t t1 = rvhal_now_ns();
    rvhal_sync_lock();
    c->event->times.started_ns = t0;
    c->event->times.ended_ns = t1;
    if (rc != RVHAL_OK && status == RVHAL_OK) {
      cause = failure = rvhal_sync_strprintf("%s failed: %s", c->event->what, message);
      tell_failure(q, rc, failure);
    }
    status = rc;
  }
  finish_command(q, c, status, message ? message : "", cause);
  if (message) rvhal_sync_strfree(message);
  if (failure) rvhal_sync_strfree(failure);
}

/* In order: waits for the first command's dependencies, then runs it. */
static void process_head(rvhal_queue_t *q) {
  cmd_t *c = q->head;
  const char *dep_cause = "";
  int state;
  while ((state = deps_state(c, &dep_cause)) == DEPS_PENDING && !q->cancel_all) rvhal_sync_wait(UINT64_MAX);
  take(q, c, NULL);
  run_taken(q, c, state, dep_cause);
}

/* ---- launches back to back ----------------------------------------------
 * Consecutive kernel launches whose dependencies are met go onto the device
 * without waiting for each other, up to the ring's depth: when one retires,
 * the harts start the next with no host round trip. Each after the first
 * carries RVHAL_LAUNCH_AFTER_OK, so a failure cancels the rest on the
 * device, as the queue would. Not with counters or profiles: they describe
 * one launch at a time. */

static int is_launch(const cmd_t *c) { return c->kind == CMD_KERNEL || c->kind == CMD_COMMAND_BUFFER; }

static int can_submit(const rvhal_queue_t *q, const cmd_t *c) {
  const char *cause;
  const rvhal_device_t *d = q->device;
  if (!c || q->cancel_all || q->failed || q->num_fly >= RVHAL_RING_SLOTS || rvhal_device_options(d)->counters ||
      rvhal_observe_profiling(d))
    return 0;
  /* A command buffer goes behind launches on the device only if it needs no
   * encoding (the queue's thread holds the device's lock then). */
  if (c->kind != CMD_KERNEL &&
      (c->kind != CMD_COMMAND_BUFFER ||
       (q->num_fly && !rvhal_cmdlist_ready((rvhal_device_t *)d, &c->u.list.cb->list))))
    return 0;
  return deps_state(c, &cause) == DEPS_MET;
}

/* Puts a launch taken off the list onto the device. Sync lock held on
 * entry and exit. */
static void submit_taken(rvhal_queue_t *q, cmd_t *c) {
  rvhal_device_t *d = q->device;
  struct flight *f = &q->fly[(q->fly_head + q->num_fly++) % RVHAL_RING_SLOTS];
  f->c = c;
  c->event->times.submitted_ns = rvhal_now_ns();
  const int first = q->num_fly == 1;
  rvhal_sync_unlock();
  if (first) {
    rvhal_device_lock(d);
    (void)rvhal_device_hold(d); /* a print callback must not launch meanwhile (the lock keeps others out) */
  }
  rvhal_clear_error();
  f->t0 = rvhal_now_ns();
  f->list = c->kind == CMD_COMMAND_BUFFER;
  f->ran = 0;
  f->times = (rvhal_launch_times_t){0};
  if (f->list) {
    rvhal_command_list_t *list = &c->u.list.cb->list;
    f->rc = rvhal_cmdlist_submit(d, list, c->u.list.bindings, !first, &f->lf);
    if (f->rc == RVHAL_UNSUPPORTED) {
      /* the host runs it (can_submit let it through only with nothing on
       * the device), its launches the blocking way */
      rvhal_device_release(d);
      f->rc = first ? rvhal_cmdlist_run(d, list, c->u.list.bindings, &f->times)
                    : rvhal_error(RVHAL_BUSY, "command buffer: not ready behind other launches");
      (void)rvhal_device_hold(d);
      f->ran = 1;
    }
  } else {
    /* Out of order, a launch goes on the device only once what it waits
     * for has ended: it does not depend on those before it there. */
    uint32_t order = first ? 0 : RVHAL_LAUNCH_AFTER_OK | (q->out_of_order ? RVHAL_LAUNCH_OVERLAP : 0);
    if (q->out_of_order) order |= RVHAL_LAUNCH_WATCH; /* (launch_thread's watch_for_more) */
    f->rc = rvhal_launch_submit(d, c->u.k.launch, order, &f->l);
  }
  f->message = f->rc != RVHAL_OK ? rvhal_sync_strdup(rvhal_last_error()) : NULL;
  rvhal_sync_lock();
  name_kernel_command(q, c);
}

/* The oldest launch on the device: wait for it, end its command. Sync lock
 * held on entry and exit. */
static void complete_oldest(rvhal_queue_t *q) {
  rvhal_device_t *d = q->device;
  /* (the slot is not reused before this returns: only this thread submits) */
  const struct flight *of = &q->fly[q->fly_head];
  q->fly_head = (q->fly_head + 1) % RVHAL_RING_SLOTS;
  const int more = --q->num_fly > 0;
  rvhal_launch_t l = of->l;
  rvhal_launch_times_t times = of->times; /* (a command buffer the host ran at submission) */
  const uint64_t t0 = of->t0;
  const int list = of->list, ran = of->ran;
  cmd_t *c = of->c;
  rvhal_sync_unlock();
  int rc = of->rc;
  char *message = of->message, *failure = NULL; /* (the flight's message is this thread's now) */
  if (rc == RVHAL_OK && !ran) {
    rvhal_clear_error();
    rc = list ? rvhal_cmdlist_complete(d, &c->u.list.cb->list, &of->lf, more, &times)
              : rvhal_launch_complete(d, &l, more);
    if (!list) times = l.times;
    if (rc != RVHAL_OK) message = rvhal_sync_strdup(rvhal_last_error());
  }
  if (rc == RVHAL_OK) set_device_times(c, &times);
  uint64_t t1 = rvhal_now_ns();
  rvhal_observe_queue_command(d, q->id, c->event->what, c->event->times.queued_ns, c->event->times.submitted_ns, t0,
                              t1);
  if (!more) {
    rvhal_device_release(d);
    rvhal_device_unlock(d);
  }
  rvhal_sync_lock();
  c->event->times.started_ns = t0;
  c->event->times.ended_ns = t1;
  const char *cause = "";
  if (rc == RVHAL_CANCELLED && q->failed) {
    /* cancelled on the device (or lost in its restart) because an earlier
     * launch of this queue failed: say which */
    cause = q->fail_cause;
    if (message) rvhal_sync_strfree(message);
    message = rvhal_sync_strprintf("%s was cancelled because %s", c->event->what, cause);
  } else if (rc != RVHAL_OK) {
    cause = failure = rvhal_sync_strprintf("%s failed: %s", c->event->what, message ? message : "");
    if (rc != RVHAL_CANCELLED) tell_failure(q, rc, failure);
  }
  finish_command(q, c, rc, message ? message : "", cause);
  if (message) rvhal_sync_strfree(message);
  if (failure) rvhal_sync_strfree(failure);
}

static void *queue_thread(void *arg) {
  rvhal_queue_t *q = arg;
  rvhal_sync_lock();
  for (;;) {
    while (!q->head && !q->num_fly && !q->stopping) rvhal_sync_wait(UINT64_MAX);
    if (!q->head && !q->num_fly) break;
    if (q->head && can_submit(q, q->head)) {
      cmd_t *c = q->head;
      take(q, c, NULL);
      submit_taken(q, c);
    } else if (q->num_fly) {
      complete_oldest(q);
    } else {
      process_head(q);
    }
  }
  rvhal_sync_unlock();
  return NULL;
}

/* ---- out of order ---------------------------------------------------------
 * Two threads share the list: the launch thread takes launches (and keeps
 * the ring full, as above), the host thread everything else, each the
 * oldest command of its kind whose dependencies are met. While launches
 * are on the device the launch thread holds the device's lock; what the
 * host thread runs needs only the heap lock (a profile's or counters'
 * device runs launches one at a time, without holding the lock between). */

/* The oldest ready command for the launch thread (launches) or the host
 * thread, taken off the list; NULL if none. Nothing passes a fence, and a
 * fence starts once all before it have ended. Sync lock held. */
static cmd_t *take_ready(rvhal_queue_t *q, int launches) {
  if (q->fence_running) return NULL;
  cmd_t *prev = NULL;
  for (cmd_t *c = q->head; c; prev = c, c = c->next) {
    const char *cause;
    if (c->fence && (launches || c != q->head || q->running)) return NULL;
    if (is_launch(c) != launches) continue;
    if (!q->cancel_all && deps_state(c, &cause) == DEPS_PENDING) {
      if (c->fence) return NULL;
      continue;
    }
    if (launches && q->num_fly && !can_submit(q, c)) continue;
    take(q, c, prev);
    return c;
  }
  return NULL;
}

static void run_ready(rvhal_queue_t *q, cmd_t *c) {
  const char *cause = "";
  int state = deps_state(c, &cause);
  run_taken(q, c, state, cause);
}

/* One launch on the device, leaving harts idle, and nothing ready to send:
 * while no host thread waits for a result the program is likely still
 * enqueueing, and a launch sent now can start beside the running one (its
 * watcher hart: RVHAL_LAUNCH_WATCH). So rather than wait for the launch
 * (a wait that new commands cannot interrupt), look at it now and then:
 * the nanoseconds to sleep before the next look, 0 to wait for it. A look
 * after a quarter of its time so far, from 50 us to 2 ms: a launch ends
 * at most that much later than it would be seen to. For its first second
 * only: the wait also drains print output and times a hung kernel out. */
static uint64_t watch_for_more(rvhal_queue_t *q) {
  const struct flight *f = &q->fly[q->fly_head];
  rvhal_device_t *d = q->device;
  if (q->num_fly != 1 || f->list || f->ran || f->rc != RVHAL_OK || q->stopping || q->cancel_all ||
      rvhal_sync_awaiting() || f->l.harts >= rvhal_device_get_info(d)->num_harts || !rvhal_launch_running(d, &f->l))
    return 0;
  const uint64_t ran = rvhal_now_ns() - f->t0, look = ran / 4;
  if (ran >= 1000000000ull) return 0;
  return look < 50000 ? 50000 : look > 2000000 ? 2000000 : look;
}

static void *launch_thread(void *arg) {
  rvhal_queue_t *q = arg;
  rvhal_sync_lock();
  for (;;) {
    cmd_t *c = take_ready(q, 1);
    uint64_t look;
    if (c && can_submit(q, c)) submit_taken(q, c);
    else if (c) run_ready(q, c); /* nothing on the device: the blocking way */
    else if (q->num_fly && q->out_of_order && (look = watch_for_more(q))) rvhal_sync_wait(rvhal_now_ns() + look);
    else if (q->num_fly) complete_oldest(q);
    else if (q->stopping && !q->head) break;
    else rvhal_sync_wait(UINT64_MAX);
  }
  rvhal_sync_unlock();
  return NULL;
}

static void *host_thread(void *arg) {
  rvhal_queue_t *q = arg;
  rvhal_sync_lock();
  for (;;) {
    cmd_t *c = take_ready(q, 0);
    if (c) run_ready(q, c);
    else if (q->stopping && !q->head) break;
    else rvhal_sync_wait(UINT64_MAX);
  }
  rvhal_sync_unlock();
  return NULL;
}

/* ---- queue lifetime ----------------------------------------------------- */

int rvhal_queue_create_with_flags(rvhal_device_t *device, uint32_t flags, rvhal_queue_t **out_queue) {
  if (!device || !out_queue) return rvhal_error(RVHAL_INVALID_ARGUMENT, "queue_create: device or out_queue is NULL");
  const uint32_t unknown = flags & ~RVHAL_QUEUE_OUT_OF_ORDER;
  if (unknown) return rvhal_error(RVHAL_INVALID_ARGUMENT, "queue_create: unknown flags 0x%x", (unsigned)unknown);
  rvhal_queue_t *q = calloc(1, sizeof *q);
  if (!q) return rvhal_error(RVHAL_HOST_IO, "out of host memory for a queue");
  q->device = device;
  q->out_of_order = (flags & RVHAL_QUEUE_OUT_OF_ORDER) != 0;
  rvhal_sync_cond_init(&q->finish_cond);
  rvhal_sync_lock();
  q->id = next_queue_id++;
  rvhal_sync_unlock();
  int err = pthread_create(&q->thread, NULL, q->out_of_order ? launch_thread : queue_thread, q);
  if (!err && q->out_of_order && (err = pthread_create(&q->host_thread, NULL, host_thread, q))) {
    rvhal_sync_lock();
    q->stopping = 1;
    rvhal_sync_broadcast();
    rvhal_sync_unlock();
    pthread_join(q->thread, NULL);
  }
  if (err) {
    pthread_cond_destroy(&q->finish_cond);
    free(q);
    return rvhal_error(RVHAL_HOST_IO, "queue_create: cannot start the queue's thread: %s", strerror(err));
  }
  rvhal_queues_t *qs = rvhal_device_modules(device)->queues;
  rvhal_device_lock(device);
  q->next_on_device = qs->list;
  qs->list = q;
  rvhal_device_unlock(device);
  *out_queue = q;
  return RVHAL_OK;
}

int rvhal_queue_create(rvhal_device_t *device, rvhal_queue_t **out_queue) {
  return rvhal_queue_create_with_flags(device, 0, out_queue);
}

static void stop_and_free(rvhal_queue_t *q, int cancel) {
  rvhal_sync_lock();
  q->stopping = 1;
  if (cancel) q->cancel_all = 1;
  rvhal_sync_broadcast();
  rvhal_sync_unlock();
  pthread_join(q->thread, NULL);
  if (q->out_of_order) pthread_join(q->host_thread, NULL);
  for (cmd_t *c = q->pool, *n; c; c = n) {
    n = c->next;
    free(c);
  }
  if (q->fail_message) rvhal_sync_strfree(q->fail_message);
  if (q->fail_cause) rvhal_sync_strfree(q->fail_cause);
  pthread_cond_destroy(&q->finish_cond);
  free(q);
}

void rvhal_queue_destroy(rvhal_queue_t *q) {
  if (!q) return;
  rvhal_device_t *d = q->device;
  rvhal_queues_t *qs = rvhal_device_modules(d)->queues;
  rvhal_device_lock(d);
  for (rvhal_queue_t **p = &qs->list; *p; p = &(*p)->next_on_device)
    if (*p == q) {
      *p = q->next_on_device;
      break;
    }
  rvhal_device_unlock(d);
  stop_and_free(q, 0);
}

int rvhal_queues_create(rvhal_queues_t **out_queues) {
  if (!(*out_queues = calloc(1, sizeof **out_queues))) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  return RVHAL_OK;
}

void rvhal_queues_destroy(rvhal_queues_t *qs) {
  if (!qs) return;
  while (qs->list) {
    rvhal_queue_t *q = qs->list;
    qs->list = q->next_on_device;
    stop_and_free(q, 1);
  }
  free(qs);
}

rvhal_device_t *rvhal_queue_device(const rvhal_queue_t *q) { return q ? q->device : NULL; }

void rvhal_queue_set_failure_fn(rvhal_queue_t *q, rvhal_failure_fn_t fn, void *user) {
  if (!q) return;
  rvhal_sync_lock();
  q->fail_fn = fn;
  q->fail_user = user;
  rvhal_sync_unlock();
}

int rvhal_queue_finish(rvhal_queue_t *q, uint32_t timeout_ms) {
  if (!q) return rvhal_error(RVHAL_INVALID_ARGUMENT, "queue is NULL");
  uint64_t deadline = rvhal_sync_deadline(timeout_ms), waited_from = rvhal_now_ns();
  rvhal_sync_lock();
  uint64_t target = q->enqueued;
  q->finish_waiters++;
  rvhal_sync_await_begin();
  while (q->ended < target) {
    if (q->finish_min <= q->ended || target < q->finish_min) q->finish_min = target;
    if (rvhal_sync_wait_on(&q->finish_cond, deadline)) break;
  }
  rvhal_sync_await_end();
  q->finish_waiters--;
  int rc = RVHAL_OK;
  if (q->ended < target) {
    rc = rvhal_error(RVHAL_TIMEOUT, "queue %u: %llu of %llu commands still pending after %u ms", q->id,
                     (unsigned long long)(target - q->ended), (unsigned long long)(target), timeout_ms);
  } else if (q->failed) {
    rc = rvhal_error(q->fail_status, "%s", q->fail_message);
    q->failed = 0;
    rvhal_sync_strfree(q->fail_message);
    rvhal_sync_strfree(q->fail_cause);
    q->fail_message = q->fail_cause = NULL;
  }
  rvhal_sync_unlock();
  char what[48];
  snprintf(what, sizeof what, "queue %u: finish", q->id);
  rvhal_observe_host_wait(q->device, what, waited_from, rvhal_now_ns());
  return rc;
}

/* ---- enqueueing --------------------------------------------------------- */

static const char *kind_name(cmd_kind_t k) {
  static const char *const names[] = {"kernel", "write", "read", "copy", "fill", "marker", "callback", "free",
                                      "command_buffer"};
  return names[k];
}

static cmd_t *new_command(rvhal_queue_t *q, cmd_kind_t kind, const rvhal_dependencies_t *deps, const char *label,
                          int *out_rc) {
  *out_rc = RVHAL_OK;
  if (!q) {
    *out_rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_%s: queue is NULL", kind_name(kind));
    return NULL;
  }
  static const rvhal_dependencies_t none;
  if (!deps) deps = &none;
  if ((deps->num_wait_events && !deps->wait_events) || (deps->num_wait_semaphores && !deps->wait_semaphores) ||
      (deps->num_signal_semaphores && !deps->signal_semaphores)) {
    *out_rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_%s: a dependency count is set but its array is NULL",
                          kind_name(kind));
    return NULL;
  }
  for (uint32_t i = 0; i < deps->num_wait_events; i++)
    if (!deps->wait_events[i]) {
      *out_rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_%s: wait_events[%u] is NULL", kind_name(kind), i);
      return NULL;
    }
  for (uint32_t i = 0; i < deps->num_wait_semaphores; i++)
    if (!deps->wait_semaphores[i].semaphore) {
      *out_rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_%s: wait_semaphores[%u] is NULL", kind_name(kind), i);
      return NULL;
    }
  for (uint32_t i = 0; i < deps->num_signal_semaphores; i++)
    if (!deps->signal_semaphores[i].semaphore) {
      *out_rc =
          rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_%s: signal_semaphores[%u] is NULL", kind_name(kind), i);
      return NULL;
    }
  /* Dependency arrays only when there are dependencies: most commands have
   * none, and an allocation is a good part of an enqueue's cost. */
  rvhal_sync_lock();
  cmd_t *c = q->pool;
  if (c) {
    q->pool = c->next;
    q->num_pool--;
  }
  rvhal_sync_unlock();
  if (c) memset(c, 0, sizeof *c);
  else c = calloc(1, sizeof *c);
  if (c) c->queue = q;
  if (c && deps->num_wait_events) c->wait_events = calloc(deps->num_wait_events, sizeof *c->wait_events);
  if (c && deps->num_wait_semaphores) c->wait_sems = calloc(deps->num_wait_semaphores, sizeof *c->wait_sems);
  if (c && deps->num_signal_semaphores)
    c->signal_sems = calloc(deps->num_signal_semaphores, sizeof *c->signal_sems);
  if (!c || (deps->num_wait_events && !c->wait_events) || (deps->num_wait_semaphores && !c->wait_sems) ||
      (deps->num_signal_semaphores && !c->signal_sems)) {
    if (c) {
      free(c->wait_events);
      free(c->wait_sems);
      free(c->signal_sems);
      free(c);
    }
    *out_rc = rvhal_error(RVHAL_HOST_IO, "enqueue_%s: out of host memory", kind_name(kind));
    return NULL;
  }
  c->kind = kind;
  c->num_wait_events = deps->num_wait_events;
  c->num_wait_sems = deps->num_wait_semaphores;
  c->num_signal_sems = deps->num_signal_semaphores;
  /* (memcpy from NULL is undefined even for 0 bytes) */
  if (c->num_wait_sems) memcpy(c->wait_sems, deps->wait_semaphores, c->num_wait_sems * sizeof *c->wait_sems);
  if (c->num_signal_sems)
    memcpy(c->signal_sems, deps->signal_semaphores, c->num_signal_sems * sizeof *c->signal_sems);
  if (c->num_wait_events) memcpy(c->wait_events, deps->wait_events, c->num_wait_events * sizeof *c->wait_events);
  char what[256];
  rvhal_sync_lock();
  snprintf(what, sizeof what, "%s%s%s (command %llu of queue %u)", kind_name(kind), label ? " " : "",
           label ? label : "", (unsigned long long)q->enqueued + 1, q->id);
  rvhal_sync_unlock();
  c->event = rvhal_event_new(what);
  if (!c->event) {
    free(c->wait_events);
    free(c->wait_sems);
    free(c->signal_sems);
    free(c);
    *out_rc = rvhal_error(RVHAL_HOST_IO, "enqueue_%s: out of host memory", kind_name(kind));
    return NULL;
  }
  c->event->times.queued_ns = rvhal_now_ns();
  return c;
}

/* Appends commands first..last (linked by next) in one go: no other
 * thread's command lands between them. The event handed out is the last's. */
static int submit_chain(rvhal_queue_t *q, cmd_t *first, cmd_t *last, rvhal_event_t **out_event) {
  rvhal_sync_lock();
  for (cmd_t *c = first; c; c = c->next) {
    for (uint32_t i = 0; i < c->num_wait_events; i++) c->wait_events[i]->refs++;
    q->enqueued++;
  }
  if (out_event) {
    last->event->refs++;
    *out_event = last->event;
  }
  if (q->tail) q->tail->next = first;
  else q->head = first;
  q->tail = last;
  rvhal_sync_broadcast();
  rvhal_sync_unlock();
  return RVHAL_OK;
}

static int submit(rvhal_queue_t *q, cmd_t *c, rvhal_event_t **out_event) { return submit_chain(q, c, c, out_event); }

/* A kernel command, not yet on the queue (submit puts it there); it takes
 * over the caller's reference to r. */
static cmd_t *build_kernel(rvhal_queue_t *q, const rvhal_dependencies_t *deps, const rvhal_launch_request_t *r,
                           int *out_rc) {
  /* The kernel's name for messages, if the device is free to say: never
   * wait here for launches under way (the queue names it when it submits). */
  char label[64];
  snprintf(label, sizeof label, "#%llu", (unsigned long long)r->kernel);
  int named = 0;
  if (q && rvhal_device_trylock(q->device)) {
    const rvhal_program_obj_t *p = rvhal_program_get(q->device, r->program);
    const rvhal_kernel_entry_t *k = p ? rvhal_kernel_get(p, r->kernel) : NULL;
    if (k && k->name) named = snprintf(label, sizeof label, "%s", k->name) > 0;
    rvhal_device_unlock(q->device);
  }
  cmd_t *c = new_command(q, CMD_KERNEL, deps, label, out_rc);
  if (!c) {
    rvhal_launch_request_release(r);
    return NULL;
  }
  c->u.k.named = named;
  c->u.k.launch = r;
  return c;
}

int rvhal_enqueue_kernel(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_program_t program,
                         hal_kernel_t kernel, const hal_ndrange_t *ndrange, const hal_arg_t *args,
                         uint32_t num_args, uint32_t work_dim, const rvhal_launch_options_t *options,
                         rvhal_event_t **out_event) {
  rvhal_launch_request_t *r;
  RVHAL_RETURN_IF_ERROR(
      rvhal_launch_request_make("enqueue_kernel", program, kernel, ndrange, args, num_args, work_dim, options, &r));
  int rc;
  cmd_t *c = build_kernel(q, deps, r, &rc);
  return c ? submit(q, c, out_event) : rc;
}

int rvhal_enqueue_launch(rvhal_queue_t *q, const rvhal_dependencies_t *deps, const rvhal_launch_request_t *request,
                         rvhal_event_t **out_event) {
  if (!request) return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_launch: request is NULL");
  rvhal_launch_request_retain(request);
  int rc;
  cmd_t *c = build_kernel(q, deps, request, &rc);
  return c ? submit(q, c, out_event) : rc;
}

static cmd_t *build_mem(rvhal_queue_t *q, cmd_kind_t kind, const rvhal_dependencies_t *deps, hal_addr_t dst,
                        hal_addr_t src, void *host_dst, const void *host_src, hal_size_t size, int *out_rc) {
  if ((kind == CMD_WRITE && !host_src && size) || (kind == CMD_READ && !host_dst && size)) {
    *out_rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_%s: host pointer is NULL for %llu bytes", kind_name(kind),
                          (unsigned long long)size);
    return NULL;
  }
  cmd_t *c = new_command(q, kind, deps, NULL, out_rc);
  if (!c) return NULL;
  c->u.mem.dst = dst;
  c->u.mem.src = src;
  c->u.mem.host_dst = host_dst;
  c->u.mem.host_src = host_src;
  c->u.mem.size = size;
  c->fence = q->out_of_order && kind == CMD_FREE; /* after everything enqueued before it */
  return c;
}

static int enqueue_mem(rvhal_queue_t *q, cmd_kind_t kind, const rvhal_dependencies_t *deps, hal_addr_t dst,
                       hal_addr_t src, void *host_dst, const void *host_src, hal_size_t size,
                       rvhal_event_t **out_event) {
  int rc;
  cmd_t *c = build_mem(q, kind, deps, dst, src, host_dst, host_src, size, &rc);
  return c ? submit(q, c, out_event) : rc;
}

int rvhal_enqueue_write(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_addr_t dst, const void *src,
                        hal_size_t size, rvhal_event_t **out_event) {
  return enqueue_mem(q, CMD_WRITE, deps, dst, 0, NULL, src, size, out_event);
}

int rvhal_enqueue_read(rvhal_queue_t *q, const rvhal_dependencies_t *deps, void *dst, hal_addr_t src,
                       hal_size_t size, rvhal_event_t **out_event) {
  return enqueue_mem(q, CMD_READ, deps, 0, src, dst, NULL, size, out_event);
}

int rvhal_enqueue_copy(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_addr_t dst, hal_addr_t src,
                       hal_size_t size, rvhal_event_t **out_event) {
  return enqueue_mem(q, CMD_COPY, deps, dst, src, NULL, NULL, size, out_event);
}

static cmd_t *build_fill(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_addr_t dst, const void *pattern,
                         hal_size_t pattern_size, hal_size_t size, int *out_rc) {
  if ((*out_rc = rvhal_check_fill_pattern("enqueue_fill", pattern, pattern_size)) != RVHAL_OK) return NULL;
  cmd_t *c = new_command(q, CMD_FILL, deps, NULL, out_rc);
  if (!c) return NULL;
  c->u.mem.dst = dst;
  c->u.mem.size = size;
  memcpy(c->u.mem.pattern, pattern, (size_t)pattern_size);
  c->u.mem.pattern_size = pattern_size;
  return c;
}

int rvhal_enqueue_fill(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_addr_t dst, const void *pattern,
                       hal_size_t pattern_size, hal_size_t size, rvhal_event_t **out_event) {
  int rc;
  cmd_t *c = build_fill(q, deps, dst, pattern, pattern_size, size, &rc);
  return c ? submit(q, c, out_event) : rc;
}

/* ---- command buffers (command_buffer.c records them) --------------------- */

/* The buffer as one queue command; it holds a reference. */
int rvhal_enqueue_command_buffer(rvhal_queue_t *q, const rvhal_dependencies_t *deps,
                                 const rvhal_command_buffer_t *command_buffer, const hal_addr_t *bindings,
                                 uint32_t num_bindings, rvhal_event_t **out_event) {
  if (!q || !command_buffer)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: NULL queue or command buffer");
  rvhal_command_buffer_t *cb = (rvhal_command_buffer_t *)command_buffer;
  if (!cb->ended)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: still recording (call command_buffer_end)");
  if (q->device != cb->device)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: recorded for another device than the queue's");
  if (num_bindings < cb->num_slots || (num_bindings && !bindings))
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: the buffer uses %u binding slots, %u given%s",
                       cb->num_slots, num_bindings, num_bindings && !bindings ? " (bindings is NULL)" : "");
  int rc;
  cmd_t *c = new_command(q, CMD_COMMAND_BUFFER, deps, NULL, &rc);
  if (!c) return rc;
  if (num_bindings && !(c->u.list.bindings = malloc(num_bindings * sizeof *bindings))) {
    rvhal_sync_lock();
    discard_command(c);
    rvhal_sync_unlock();
    return rvhal_error(RVHAL_HOST_IO, "enqueue_command_buffer: out of host memory for %u bindings", num_bindings);
  }
  if (num_bindings) memcpy(c->u.list.bindings, bindings, num_bindings * sizeof *bindings);
  c->u.list.num_bindings = num_bindings;
  rvhal_sync_lock();
  cb->refs++;
  rvhal_sync_unlock();
  c->u.list.cb = cb;
  return submit(q, c, out_event);
}

enum { NOT_FENCE, FENCE, FENCE_IF_NO_WAITS };

static int enqueue_marker(rvhal_queue_t *q, const rvhal_dependencies_t *deps, int fence, rvhal_event_t **out_event) {
  int rc;
  cmd_t *c = new_command(q, CMD_MARKER, deps, NULL, &rc);
  if (!c) return rc;
  c->fence = q->out_of_order && (fence == FENCE || (fence == FENCE_IF_NO_WAITS && !c->num_wait_events &&
                                                    !c->num_wait_sems));
  return submit(q, c, out_event);
}

/* (Without dependencies: "after everything enqueued before it", in any queue.) */
int rvhal_enqueue_marker(rvhal_queue_t *q, const rvhal_dependencies_t *deps, rvhal_event_t **out_event) {
  return enqueue_marker(q, deps, FENCE_IF_NO_WAITS, out_event);
}

int rvhal_enqueue_barrier(rvhal_queue_t *q, const rvhal_dependencies_t *deps, rvhal_event_t **out_event) {
  return enqueue_marker(q, deps, FENCE, out_event);
}

int rvhal_enqueue_callback(rvhal_queue_t *q, const rvhal_dependencies_t *deps, rvhal_host_fn_t fn, void *user,
                           rvhal_event_t **out_event) {
  if (!fn) return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_callback: fn is NULL");
  int rc;
  cmd_t *c = new_command(q, CMD_CALLBACK, deps, NULL, &rc);
  if (!c) return rc;
  c->u.cb.fn = fn;
  c->u.cb.user = user;
  return submit(q, c, out_event);
}

int rvhal_enqueue_alloc(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_size_t size, hal_size_t alignment,
                        hal_addr_t *out_addr, rvhal_event_t **out_event) {
  if (!q || !out_addr) return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_alloc: queue or out_addr is NULL");
  hal_addr_t a;
  int rc = rvhal_mem_alloc(q->device, size, alignment, &a);
  if (rc != RVHAL_OK) return rc;
  rc = enqueue_marker(q, deps, NOT_FENCE, out_event);
  if (rc != RVHAL_OK) {
    rvhal_mem_free(q->device, a);
    return rc;
  }
  *out_addr = a;
  return RVHAL_OK;
}

int rvhal_enqueue_free(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_addr_t addr,
                       rvhal_event_t **out_event) {
  return enqueue_mem(q, CMD_FREE, deps, addr, 0, NULL, NULL, 0, out_event);
}
