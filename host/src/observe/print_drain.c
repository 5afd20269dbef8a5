/* Kernel print output: rings -> ordered records -> whole lines. The rings
 * live in device memory a kernel can write: every position and length read
 * from them is checked, and what the host keeps is bounded (records held
 * back, open lines and their lengths), so no device can make the host loop,
 * read outside a ring or grow without end. */
#include "observe/print_drain.h"

#include "base/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rvhal_print_record_copy {
  uint32_t order;
  uint64_t item;
  uint16_t flags;
  uint32_t len;
  char text[];
};

struct rvhal_partial_line {
  uint64_t item;
  char *text;
  size_t len;
  rvhal_partial_line_t *next;
};

static void default_print(void *user, const char *line, size_t len) {
  (void)user;
  fwrite(line, 1, len, stdout);
  fputc('\n', stdout);
}

void rvhal_print_init(rvhal_print_state_t *s, rvhal_print_fn_t fn, void *user) {
  memset(s, 0, sizeof *s);
  s->fn = fn ? fn : default_print;
  s->user = user;
}

void rvhal_print_set_output(rvhal_print_state_t *s, rvhal_print_fn_t fn, void *user) {
  s->fn = fn ? fn : default_print;
  s->user = user;
}

static void emit(rvhal_print_state_t *s, const char *text, size_t len) { s->fn(s->user, text, len); }

/* Bounds on what the host keeps for the device (a print bomb, or orders
 * that never close a gap, must not take the host's memory). */
#define MAX_PENDING 65536u   /* records held back waiting for an earlier order */
#define MAX_PENDING_BYTES (8u * 1024u * 1024u) /* and their text */
#define MAX_PARTIAL 1024u    /* work-items with an open line */
#define MAX_LINE (64u * 1024u) /* an open line longer than this goes out as it is */
#define MAX_PARTIAL_BYTES (1024u * 1024u) /* all open lines: past it the oldest goes out as it is */

static rvhal_partial_line_t **find_partial(rvhal_print_state_t *s, uint64_t item) {
  rvhal_partial_line_t **p = &s->partial;
  while (*p && (*p)->item != item) p = &(*p)->next;
  return p;
}

/* Unlinks the partial line *pp, printing it first if `emit_it`. */
static void drop_partial(rvhal_print_state_t *s, rvhal_partial_line_t **pp, int emit_it) {
  rvhal_partial_line_t *pl = *pp;
  if (emit_it) emit(s, pl->text, pl->len);
  *pp = pl->next;
  s->num_partial--;
  s->partial_bytes -= pl->len;
  free(pl->text);
  free(pl);
}

/* A record's text: complete lines go out now; a tail without a newline waits
 * for the same work-item's next record. */
static void print_record(rvhal_print_state_t *s, const rvhal_print_record_copy_t *r) {
  const char *t = r->text, *end = r->text + r->len;
  rvhal_partial_line_t **pp = find_partial(s, r->item);
  while (t < end) {
    const char *nl = memchr(t, '\n', (size_t)(end - t));
    size_t n = nl ? (size_t)(nl - t) : (size_t)(end - t);
    if (*pp) { /* join with what this work-item printed before */
      rvhal_partial_line_t *pl = *pp;
      char *joined = realloc(pl->text, pl->len + n + 1);
      if (joined) {
        memcpy(joined + pl->len, t, n);
        pl->text = joined;
        pl->len += n;
        s->partial_bytes += n;
      }
      if (!nl && pl->len < MAX_LINE) break;
      drop_partial(s, pp, 1);
      if (!nl) break;
      pp = find_partial(s, r->item); /* *pp was another work-item's line */
    } else if (nl) {
      emit(s, t, n);
    } else {
      if (s->num_partial >= MAX_PARTIAL) { /* the oldest open line (the first) goes out as it is */
        drop_partial(s, &s->partial, 1);
        pp = find_partial(s, r->item);
      }
      rvhal_partial_line_t *pl = calloc(1, sizeof *pl);
      if (pl && (pl->text = malloc(n + 1))) {
        memcpy(pl->text, t, n);
        pl->len = n;
        pl->item = r->item;
        *pp = pl; /* at the end: the list is oldest first */
        s->num_partial++;
        s->partial_bytes += n;
      } else {
        free(pl);
        emit(s, t, n); /* no memory: print the piece as its own line */
      }
      break;
    }
    t += n + 1;
  }
  while (s->partial_bytes > MAX_PARTIAL_BYTES && s->partial) drop_partial(s, &s->partial, 1);
  if (r->flags & RVHAL_PRINT_TRUNCATED) {
    /* The cut text lost its end (and newline): the line ends here. */
    pp = find_partial(s, r->item);
    if (*pp) drop_partial(s, pp, 1);
    char note[96];
    int n = snprintf(note, sizeof note, "[rvhal: a print() of work-item %llu was cut to %u bytes]",
                     (unsigned long long)r->item, r->len);
    emit(s, note, (size_t)n);
  }
}

static int order_cmp(const void *a, const void *b) {
  const rvhal_print_record_copy_t *x = *(rvhal_print_record_copy_t *const *)a;
  const rvhal_print_record_copy_t *y = *(rvhal_print_record_copy_t *const *)b;
  int32_t d = (int32_t)(x->order - y->order); /* orders wrap at 2^32 */
  return (d > 0) - (d < 0);
}

/* Takes hart h's records. The host keeps its own tail (the one in the
 * ring, which a kernel can overwrite, is only written, for the firmware);
 * a head behind it or more than a ring ahead of it is not a position the
 * firmware can write: an error naming the hart and the values. */
static int take_ring(rvhal_print_state_t *s, uint32_t h, rvhal_print_ring_t *ring, const uint8_t *data) {
  uint64_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
  uint64_t tail = s->tail[h];
  if (head < tail || head - tail > RVHAL_PRINT_RING_SIZE) {
    s->tail[h] = head; /* drop it all: the launch fails and the device restarts */
    return rvhal_error(RVHAL_FIRMWARE, "print ring of hart %u: head %llu is not within %u bytes after the "
                       "host's tail %llu (device memory overwritten?)", h, (unsigned long long)head,
                       RVHAL_PRINT_RING_SIZE, (unsigned long long)tail);
  }
  while (tail < head && s->num_pending < MAX_PENDING && s->pending_bytes < MAX_PENDING_BYTES) {
    uint64_t to_end = RVHAL_PRINT_RING_SIZE - tail % RVHAL_PRINT_RING_SIZE;
    if (to_end < sizeof(rvhal_print_record_t)) { /* too small for a header: skipped by the writer */
      tail += to_end;
      continue;
    }
    /* The header copied once: the device may change it meanwhile, and a
     * position it wrote need not be aligned. */
    const uint8_t *at = data + tail % RVHAL_PRINT_RING_SIZE;
    rvhal_print_record_t hdr, *r = &hdr;
    memcpy(&hdr, at, sizeof hdr);
    uint32_t size = r->size, len = r->len;
    uint16_t flags = r->flags;
    if (size < sizeof *r || size > head - tail || size > to_end || len > size - sizeof *r ||
        len > RVHAL_PRINT_MAX_TEXT) {
      /* Not a record the firmware writes: the ring was overwritten (a kernel's stray store?).
       * Drop what is left rather than stall the ring for good. */
      s->corrupt_bytes += head - tail;
      tail = head;
      break;
    }
    if (!(flags & RVHAL_PRINT_PAD)) {
      if (s->num_pending == s->cap_pending) {
        size_t cap = s->cap_pending ? 2 * s->cap_pending : 64;
        void *p = realloc(s->pending, cap * sizeof *s->pending);
        if (!p) break;
        s->pending = p;
        s->cap_pending = cap;
      }
      rvhal_print_record_copy_t *c = malloc(sizeof *c + len);
      if (!c) break;
      c->order = r->order;
      c->item = r->item;
      c->flags = flags;
      c->len = len;
      memcpy(c->text, at + sizeof hdr, len);
      s->pending[s->num_pending++] = c;
      s->pending_bytes += len;
    }
    tail += size;
  }
  s->tail[h] = tail;
  __atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
  return RVHAL_OK;
}

int rvhal_print_drain(rvhal_print_state_t *s, rvhal_ctrl_t *ctrl, const uint8_t *ram, uint32_t num_harts, int final) {
  int rc = RVHAL_OK;
  size_t before = s->num_pending;
  if (num_harts > RVHAL_MAX_HARTS) num_harts = RVHAL_MAX_HARTS;
  if (!s->tails_known) { /* a state set up on rings already in use: start where the host left them */
    for (uint32_t h = 0; h < RVHAL_MAX_HARTS; h++) s->tail[h] = __atomic_load_n(&ctrl->harts[h].print.tail, __ATOMIC_ACQUIRE);
    s->tails_known = 1;
  }
  for (uint32_t h = 0; h < num_harts; h++) {
    int r = take_ring(s, h, &ctrl->harts[h].print, ram + RVHAL_PRINT_OFFSET + (size_t)h * RVHAL_PRINT_RING_SIZE);
    if (r && !rc) rc = r; /* the first lie is the one reported */
  }
  /* Held back records at their bound: a gap that long is output lost. */
  if (s->num_pending >= MAX_PENDING || s->pending_bytes >= MAX_PENDING_BYTES) final = final ? final : 2;
  if (s->num_pending && (s->num_pending > before || final))
    qsort(s->pending, s->num_pending, sizeof *s->pending, order_cmp);
  /* Print the records whose predecessors have all been seen; at the end of
   * a launch, everything (a lost record leaves a gap). */
  size_t done = 0;
  while (done < s->num_pending) {
    rvhal_print_record_copy_t *r = s->pending[done];
    if (!final && r->order != s->next_order) break;
    print_record(s, r);
    s->next_order = r->order + 1;
    s->pending_bytes -= r->len;
    free(r);
    done++;
  }
  if (done) memmove(s->pending, s->pending + done, (s->num_pending - done) * sizeof *s->pending);
  s->num_pending -= done;

  if (final != 1) return rc;
  while (s->partial) drop_partial(s, &s->partial, 1); /* a last line without a newline */
  uint64_t lost_records = 0, lost_bytes = 0;
  for (uint32_t h = 0; h < num_harts; h++) {
    lost_records += __atomic_load_n(&ctrl->harts[h].print.lost_records, __ATOMIC_ACQUIRE);
    lost_bytes += __atomic_load_n(&ctrl->harts[h].print.lost_bytes, __ATOMIC_ACQUIRE);
  }
  if (s->corrupt_bytes) {
    char note[128];
    int n = snprintf(note, sizeof note, "[rvhal: %llu bytes of print output were unreadable (overwritten) and dropped]",
                     (unsigned long long)s->corrupt_bytes);
    emit(s, note, (size_t)n);
    s->corrupt_bytes = 0;
  }
  if (lost_records > s->lost_records) {
    char note[128];
    int n = snprintf(note, sizeof note, "[rvhal: %llu print() records (%llu bytes) were lost: print buffers full]",
                     (unsigned long long)(lost_records - s->lost_records),
                     (unsigned long long)(lost_bytes - s->lost_bytes));
    emit(s, note, (size_t)n);
    s->lost_records = lost_records;
    s->lost_bytes = lost_bytes;
  }
  return rc;
}

/* A rebooted device starts its print order and its lost-output counts at 0. */
void rvhal_print_reset_order(rvhal_print_state_t *s) {
  s->next_order = 0;
  memset(s->tail, 0, sizeof s->tail);
  s->tails_known = 1;
  s->lost_records = 0;
  s->lost_bytes = 0;
}

void rvhal_print_free(rvhal_print_state_t *s) {
  for (size_t i = 0; i < s->num_pending; i++) free(s->pending[i]);
  free(s->pending);
  while (s->partial) drop_partial(s, &s->partial, 0);
  memset(s, 0, sizeof *s);
}
