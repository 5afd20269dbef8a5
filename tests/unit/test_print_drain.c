/* Unit test of kernel print() collection (host/src/observe/print_drain.c). A fake
 * device (a RAM buffer holding the print rings, and a control block) gets
 * print records from a writer that follows the protocol of
 * abi/rvhal/rvhal_protocol.h the way firmware/print_service.c does; the drained lines are
 * captured through the print callback. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "observe/print_drain.h"
#include "rvhal/rvhal_protocol.h"

#define RING RVHAL_PRINT_RING_SIZE
#define HDR ((uint32_t)sizeof(rvhal_print_record_t))

/* ---- the fake device ----------------------------------------------------- */

typedef struct fake {
  uint8_t *ram; /* from RAM offset 0 to the end of the last print ring */
  rvhal_ctrl_t *ctrl;
  uint32_t order; /* the device-wide print order */
} fake_t;

static void fake_init(fake_t *f) {
  f->ram = calloc(1, RVHAL_PRINT_OFFSET + RVHAL_MAX_HARTS * (size_t)RING);
  f->ctrl = calloc(1, sizeof *f->ctrl);
  f->order = 0;
}

static void fake_free(fake_t *f) {
  free(f->ram);
  free(f->ctrl);
}

/* The device rebooted: fresh control block and rings, order from 0. */
static void fake_reboot(fake_t *f) {
  memset(f->ram + RVHAL_PRINT_OFFSET, 0, RVHAL_MAX_HARTS * (size_t)RING);
  memset(f->ctrl, 0, sizeof *f->ctrl);
  f->order = 0;
}

static rvhal_print_ring_t *ring_of(fake_t *f, uint32_t hart) { return &f->ctrl->harts[hart].print; }

/* Appends one record with a given order to a hart's ring, as
 * firmware/print_service.c does: text over RVHAL_PRINT_MAX_TEXT is cut and flagged;
 * a record that would not fit before the end of the ring is preceded by a
 * PAD record filling the rest (or, with fewer than a header's bytes left,
 * by nothing: the reader skips them); a record that does not fit in the
 * free space is counted as lost. Returns 1 if written. */
static int put_record(fake_t *f, uint32_t hart, uint32_t order, uint64_t item, const char *text, uint32_t len,
                      uint32_t flags) {
  rvhal_print_ring_t *ring = ring_of(f, hart);
  uint8_t *data = f->ram + RVHAL_PRINT_OFFSET + (size_t)hart * RING;
  if (len > RVHAL_PRINT_MAX_TEXT) {
    len = RVHAL_PRINT_MAX_TEXT;
    flags |= RVHAL_PRINT_TRUNCATED;
  }
  uint32_t size = (HDR + len + 7u) & ~7u;
  uint64_t head = ring->head, tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
  uint32_t at = (uint32_t)(head % RING);
  uint32_t to_end = RING - at;
  uint32_t need = size + (to_end < size ? to_end : 0);
  if (RING - (head - tail) < need) {
    ring->lost_bytes += len;
    ring->lost_records++;
    return 0;
  }
  if (to_end < size) {
    if (to_end >= HDR) {
      rvhal_print_record_t pad = {.size = to_end, .len = 0, .order = 0, .hart = (uint16_t)hart,
                                  .flags = RVHAL_PRINT_PAD, .item = 0};
      memcpy(data + at, &pad, HDR);
      memset(data + at + HDR, 0xee, to_end - HDR); /* junk under the PAD */
    }
    head += to_end;
    at = 0;
  }
  rvhal_print_record_t r = {.size = size, .len = len, .order = order, .hart = (uint16_t)hart,
                            .flags = (uint16_t)flags, .item = item};
  memcpy(data + at, &r, HDR);
  memcpy(data + at + HDR, text, len);
  memset(data + at + HDR + len, 0xee, size - HDR - len); /* junk in the rounding bytes */
  __atomic_store_n(&ring->head, head + size, __ATOMIC_RELEASE);
  return 1;
}

/* A print() call: takes the next order number, then writes its record. */
static int dev_print(fake_t *f, uint32_t hart, uint64_t item, const char *text) {
  return put_record(f, hart, f->order++, item, text, (uint32_t)strlen(text), 0);
}

/* ---- captured output ------------------------------------------------------- */

typedef struct capture {
  char *lines[4096];
  size_t n;
  int calls;
} capture_t;

static void capture_fn(void *user, const char *line, size_t len) {
  capture_t *c = user;
  c->calls++;
  if (c->n == sizeof c->lines / sizeof *c->lines) return;
  char *s = malloc(len + 1);
  memcpy(s, line, len);
  s[len] = '\0';
  c->lines[c->n++] = s;
}

/* A second output function, to see which one is called. */
static int other_fn_calls;
static void other_fn(void *user, const char *line, size_t len) {
  other_fn_calls++;
  capture_fn(user, line, len);
}

static void capture_clear(capture_t *c) {
  for (size_t i = 0; i < c->n; i++) free(c->lines[i]);
  c->n = 0;
  c->calls = 0;
}

/* The captured lines must be exactly `want` (n_want of them); clears. */
static void expect_lines_(int line, capture_t *c, const char *const *want, size_t n_want) {
  int same = c->n == n_want;
  for (size_t i = 0; same && i < n_want; i++) same = strcmp(c->lines[i], want[i]) == 0;
  CHECK_MSG(same, "line %d: %zu lines printed, %zu expected", line, c->n, n_want);
  if (!same) {
    for (size_t i = 0; i < c->n || i < n_want; i++) {
      const char *g = i < c->n ? c->lines[i] : NULL, *w = i < n_want ? want[i] : NULL;
      fprintf(stderr, "    %3zu: got  %s%.70s%s%s\n", i, g ? "\"" : "", g ? g : "(none)", g && strlen(g) > 70 ? "..." : "",
              g ? "\"" : "");
      fprintf(stderr, "         want %s%.70s%s%s\n", w ? "\"" : "", w ? w : "(none)", w && strlen(w) > 70 ? "..." : "",
              w ? "\"" : "");
    }
  }
  capture_clear(c);
}

#define EXPECT_LINES(c, ...)                                                \
  do {                                                                      \
    static const char *const want_[] = {__VA_ARGS__};                       \
    expect_lines_(__LINE__, (c), want_, sizeof want_ / sizeof *want_);      \
  } while (0)
#define EXPECT_NO_LINES(c) expect_lines_(__LINE__, (c), NULL, 0)

/* Every ring of harts [0, n) consumed up to its head. */
static void expect_consumed(int line, fake_t *f, uint32_t n) {
  for (uint32_t h = 0; h < n; h++)
    CHECK_MSG(ring_of(f, h)->tail == ring_of(f, h)->head, "line %d: hart %u: tail %" PRIu64 ", head %" PRIu64, line, h,
              ring_of(f, h)->tail, ring_of(f, h)->head);
}

/* ---- tests ----------------------------------------------------------------- */

static void test_order_across_harts(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);

  /* Later harts print first: hart 3 has order 0, hart 0 order 3. The
   * drain walks the rings from hart 0 but prints in order. */
  dev_print(&f, 3, 30, "zero\n");
  dev_print(&f, 2, 20, "one\n");
  dev_print(&f, 1, 10, "two\n");
  dev_print(&f, 0, 0, "three\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
  EXPECT_LINES(&c, "zero", "one", "two", "three");
  expect_consumed(__LINE__, &f, 4);

  /* Interleaved over 8 harts, drained now and then, twice per hart set. */
  static char want_buf[400][16];
  const char *want[400];
  uint64_t x = 12345;
  for (int i = 0; i < 400; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t hart = (uint32_t)(x >> 61);
    snprintf(want_buf[i], sizeof want_buf[i], "line %d", i);
    want[i] = want_buf[i];
    char text[24];
    snprintf(text, sizeof text, "line %d\n", i);
    CHECK(dev_print(&f, hart, (uint64_t)i, text));
    if ((x >> 20) % 7 == 0) rvhal_print_drain(&s, f.ctrl, f.ram, 8, 0);
  }
  rvhal_print_drain(&s, f.ctrl, f.ram, 8, 1);
  expect_lines_(__LINE__, &c, want, 400);
  expect_consumed(__LINE__, &f, 8);

  /* A drain of fewer harts leaves the others' rings alone. */
  dev_print(&f, 5, 1, "from hart 5\n");
  dev_print(&f, 0, 2, "from hart 0\n");
  uint64_t tail5 = ring_of(&f, 5)->tail;
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_NO_LINES(&c); /* hart 5's earlier record was not read */
  CHECK(ring_of(&f, 5)->tail == tail5 && tail5 < ring_of(&f, 5)->head);
  rvhal_print_drain(&s, f.ctrl, f.ram, 8, 0);
  EXPECT_LINES(&c, "from hart 5", "from hart 0");

  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_missing_order(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);

  /* Hart 2 took order 0 but has not written its record yet. */
  uint32_t late = f.order++;
  dev_print(&f, 1, 11, "b\n");
  dev_print(&f, 0, 12, "c\n");
  for (int i = 0; i < 3; i++) {
    rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
    EXPECT_NO_LINES(&c);
  }
  put_record(&f, 2, late, 10, "a\n", 2, 0);
  dev_print(&f, 3, 13, "d\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
  EXPECT_LINES(&c, "a", "b", "c", "d");

  /* Two holes: what comes before the second is printed. */
  dev_print(&f, 0, 1, "e\n");    /* 4 */
  uint32_t hole1 = f.order++;    /* 5 */
  dev_print(&f, 1, 2, "g\n");    /* 6 */
  uint32_t hole2 = f.order++;    /* 7 */
  dev_print(&f, 2, 3, "i\n");    /* 8 */
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
  EXPECT_LINES(&c, "e");
  put_record(&f, 3, hole1, 4, "f\n", 2, 0);
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
  EXPECT_LINES(&c, "f", "g");
  /* The second never comes (a lost record): the final drain prints the rest. */
  (void)hole2;
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 1);
  EXPECT_LINES(&c, "i");
  /* and the order carries on after the gap */
  dev_print(&f, 0, 5, "j\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
  EXPECT_LINES(&c, "j");

  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_pieces_and_lines(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);

  /* A work-item's line in pieces, interleaved with another item's. */
  dev_print(&f, 0, 7, "abc");
  dev_print(&f, 1, 8, "x = ");
  dev_print(&f, 0, 7, "def");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_NO_LINES(&c); /* nothing complete yet */
  dev_print(&f, 1, 8, "42\n");
  dev_print(&f, 0, 7, "ghi\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_LINES(&c, "x = 42", "abcdefghi");

  /* Several lines in one record; empty lines count. */
  dev_print(&f, 2, 9, "one\ntwo\n\nfour\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 3, 0);
  EXPECT_LINES(&c, "one", "two", "", "four");

  /* A record ending mid-line continues with the item's next record. */
  dev_print(&f, 2, 9, "first\nsec");
  dev_print(&f, 2, 9, "ond\nthi");
  dev_print(&f, 2, 9, "rd\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 3, 0);
  EXPECT_LINES(&c, "first", "second", "third");

  /* Items 1 and 2 both have a line open; item 1 then finishes its line
   * and prints a whole second one in one record: item 2's open line must
   * not be touched. */
  dev_print(&f, 0, 1, "A");
  dev_print(&f, 1, 2, "B");
  dev_print(&f, 0, 1, "a\nsecond line of 1\n");
  dev_print(&f, 1, 2, "b\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_LINES(&c, "Aa", "second line of 1", "Bb");

  /* Many items with open lines at once, finished in reverse. */
  for (uint64_t item = 100; item < 110; item++) {
    char t[16];
    snprintf(t, sizeof t, "item %" PRIu64, item);
    dev_print(&f, (uint32_t)(item % 4), item, t);
  }
  for (uint64_t item = 110; item-- > 100;) dev_print(&f, (uint32_t)(item % 4), item, " done\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
  EXPECT_LINES(&c, "item 109 done", "item 108 done", "item 107 done", "item 106 done", "item 105 done",
               "item 104 done", "item 103 done", "item 102 done", "item 101 done", "item 100 done");

  /* An open line at the end of the launch is printed by the final drain,
   * and only then. */
  dev_print(&f, 0, 3, "no newline");
  dev_print(&f, 1, 4, "also ");
  dev_print(&f, 1, 4, "none");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_NO_LINES(&c);
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 1);
  EXPECT_LINES(&c, "no newline", "also none");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 1);
  EXPECT_NO_LINES(&c);

  /* A record with no text prints nothing and holds nothing up. */
  put_record(&f, 0, f.order++, 5, "", 0, 0);
  dev_print(&f, 1, 6, "after empty\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_LINES(&c, "after empty");

  rvhal_print_free(&s);
  fake_free(&f);
}

/* Prints `count` lines of varied length on one hart, draining after each
 * `drain_every` prints, and checks they all come out in order. Record sizes
 * are multiples of `granule` (8: any size the firmware can produce). */
static void wrap_rounds(int line, uint32_t granule, int count, int drain_every) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);
  static char text[RVHAL_PRINT_MAX_TEXT + 1];
  uint64_t x = 99 + granule;
  int printed = 0, pads = 0, mismatched = 0;
  for (int i = 0; i < count; i++) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    /* a record of a whole number of granules, 40 to 1048 bytes, text
     * "<i>:" then letters and a newline */
    uint32_t kmin = (HDR + 16 + granule - 1) / granule, kmax = (HDR + RVHAL_PRINT_MAX_TEXT) / granule;
    uint32_t size = granule * (kmin + (uint32_t)((x >> 33) % (kmax - kmin + 1)));
    uint32_t len = size - HDR - (uint32_t)((x >> 20) % 8); /* rounds up to size again */
    int n = snprintf(text, sizeof text, "%d:", i);
    for (uint32_t k = (uint32_t)n; k + 1 < len; k++) text[k] = (char)('a' + (i + k) % 26);
    text[len - 1] = '\n';
    uint64_t head_before = ring_of(&f, 0)->head;
    CHECK_MSG(put_record(&f, 0, f.order++, (uint64_t)i, text, len, 0), "line %d: print %d lost", line, i);
    pads += ring_of(&f, 0)->head - head_before != ((HDR + len + 7u) & ~7u);
    if (i % drain_every == drain_every - 1) rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
    for (size_t k = 0; k < c.n; k++, printed++) {
      char want[16];
      snprintf(want, sizeof want, "%d:", printed);
      if (strncmp(c.lines[k], want, strlen(want)) != 0 && mismatched++ < 5)
        fprintf(stderr, "line %d: line %d printed as \"%.20s...\"\n", line, printed, c.lines[k]);
    }
    capture_clear(&c);
  }
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 1);
  printed += (int)c.n; /* final drain: any lines still held back */
  capture_clear(&c);
  CHECK_MSG(mismatched == 0, "line %d: %d lines out of order or wrong", line, mismatched);
  CHECK_MSG(printed == count, "line %d: %d of %d lines printed", line, printed, count);
  CHECK_MSG(ring_of(&f, 0)->head > 10ull * RING, "line %d: only %" PRIu64 " bytes written", line, ring_of(&f, 0)->head);
  CHECK_MSG(pads > 10, "line %d: only %d PAD records", line, pads);
  CHECK_MSG(ring_of(&f, 0)->lost_records == 0, "line %d: %" PRIu64 " records lost", line, ring_of(&f, 0)->lost_records);
  expect_consumed(line, &f, 1);
  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_wrap(void) {
  /* Sizes in multiples of 32: the space left before the end of the ring
   * always holds a PAD header. */
  wrap_rounds(__LINE__, 32, 3000, 3);
  wrap_rounds(__LINE__, 32, 3000, 40);
  /* Any size the firmware writes: 8 or 16 bytes can be left at the end. */
  wrap_rounds(__LINE__, 8, 3000, 3);
}

/* Exactly `left` bytes before the end of hart 0's ring, then a print that
 * does not fit there. */
static void tail_of(uint32_t left) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);
  static char text[RVHAL_PRINT_MAX_TEXT];
  memset(text, 'x', sizeof text);
  uint32_t fill = RING - left, i = 0;
  while (fill > 0) { /* records of at most 1000 bytes, at least a header and a newline */
    uint32_t size = fill <= 1000 ? fill : fill - 1000 < 40 ? fill - 40 : 1000;
    text[size - HDR - 1] = '\n';
    CHECK(put_record(&f, 0, f.order++, i++, text, size - HDR, 0));
    text[size - HDR - 1] = 'x';
    fill -= size;
    rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  }
  capture_clear(&c);
  CHECK_EQ_U64(ring_of(&f, 0)->head % RING, RING - left);
  dev_print(&f, 0, 1, "after the wrap\n");
  dev_print(&f, 0, 2, "and another\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  CHECK_MSG(c.n == 2 && !strcmp(c.lines[0], "after the wrap") && !strcmp(c.lines[1], "and another"),
            "%u bytes left at the end of the ring: %zu lines printed after it", left, c.n);
  capture_clear(&c);
  expect_consumed(__LINE__, &f, 1);
  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_ring_tail(void) {
  tail_of(64);
  tail_of(32);
  tail_of(24); /* a PAD of only a header */
  tail_of(16); /* less than a header: skipped without one */
  tail_of(8);
}

/* A stray store over a record: what cannot be read is dropped, not left
 * to stall the ring, and the final drain says how much. */
static void test_corrupt(void) {
  for (int how = 0; how < 3; how++) {
    fake_t f;
    capture_t c = {0};
    rvhal_print_state_t s;
    fake_init(&f);
    rvhal_print_init(&s, capture_fn, &c);
    dev_print(&f, 0, 1, "good\n");         /* at 0, 32 bytes */
    dev_print(&f, 0, 2, "overwritten\n");  /* at 32, 40 bytes */
    dev_print(&f, 0, 3, "lost with it\n"); /* at 72, 40 bytes */
    rvhal_print_record_t *r = (rvhal_print_record_t *)(f.ram + RVHAL_PRINT_OFFSET + 32);
    if (how == 0) r->size = 5;           /* smaller than a header */
    else if (how == 1) r->size = 0x8000; /* past the head */
    else r->len = 100;                   /* more text than the record holds */
    rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
    EXPECT_LINES(&c, "good");
    expect_consumed(__LINE__, &f, 1);
    dev_print(&f, 0, 4, "later\n");
    rvhal_print_drain(&s, f.ctrl, f.ram, 1, 1);
    EXPECT_LINES(&c, "later", "[rvhal: 80 bytes of print output were unreadable (overwritten) and dropped]");
    rvhal_print_drain(&s, f.ctrl, f.ram, 1, 1);
    EXPECT_NO_LINES(&c); /* reported once */
    rvhal_print_free(&s);
    fake_free(&f);
  }
}

/* A record longer than the firmware writes (RVHAL_PRINT_MAX_TEXT) is not a
 * record: it and what follows are dropped, as for any overwritten ring. */
static void test_too_long(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);
  dev_print(&f, 0, 1, "good\n");
  rvhal_print_ring_t *ring = ring_of(&f, 0);
  uint32_t len = RVHAL_PRINT_MAX_TEXT + 1, size = (HDR + len + 7u) & ~7u;
  rvhal_print_record_t r = {.size = size, .len = len, .order = f.order++, .hart = 0, .flags = 0, .item = 2};
  uint8_t *at = f.ram + RVHAL_PRINT_OFFSET + ring->head % RING;
  memcpy(at, &r, HDR);
  memset(at + HDR, 'z', len - 1);
  at[HDR + len - 1] = '\n';
  ring->head += size;
  dev_print(&f, 0, 3, "after it\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  EXPECT_LINES(&c, "good");
  char note[128];
  snprintf(note, sizeof note, "[rvhal: %u bytes of print output were unreadable (overwritten) and dropped]",
           size + 40);
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 1);
  const char *want[] = {note};
  expect_lines_(__LINE__, &c, want, 1);
  rvhal_print_free(&s);
  fake_free(&f);
}

/* Records held back behind an order that never comes are bounded in bytes
 * as well as in number: long lines from every hart, drained as they come,
 * go out before the launch ends once the host holds enough of them, and the
 * host never holds more than that. */
static void test_pending_bytes_bound(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);
  static char line[RVHAL_PRINT_MAX_TEXT + 1];
  memset(line, 'p', RVHAL_PRINT_MAX_TEXT - 1);
  line[RVHAL_PRINT_MAX_TEXT - 1] = '\n';
  f.order++; /* order 0: taken, never written */
  enum { limit = 16u << 20 };
  size_t written = 0, most_held = 0, lines_out = 0;
  while (written < 2 * limit && lines_out == 0) {
    for (uint32_t h = 0; h < 4; h++)
      while (dev_print(&f, h, h, line)) written += RVHAL_PRINT_MAX_TEXT;
    CHECK(rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0) == RVHAL_OK);
    if (s.pending_bytes > most_held) most_held = s.pending_bytes;
    lines_out = (size_t)c.calls;
    capture_clear(&c);
  }
  CHECK(lines_out > 0);                      /* out before the final drain */
  CHECK(most_held > 0 && most_held < limit); /* bounded */
  CHECK(s.pending_bytes == 0);               /* all that was held went out */
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 1);
  size_t lines_last = 0; /* and a note of the records a full ring refused */
  for (size_t i = 0; i < c.n; i++) lines_last += c.lines[i][0] == 'p';
  CHECK(c.n < sizeof c.lines / sizeof *c.lines);
  CHECK(lines_out + lines_last == written / RVHAL_PRINT_MAX_TEXT); /* none lost */
  capture_clear(&c);
  rvhal_print_free(&s);
  fake_free(&f);
}

/* Open lines are bounded in bytes as well as in number: work-items that
 * print long pieces and never a newline have their oldest line go out
 * before the launch ends, whole and unmixed, and no text is lost. */
static void test_partial_bytes_bound(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);
  enum { ITEMS = 32, ROUNDS = 40, PIECE = 1000, LIMIT = 2u << 20 };
  static char piece[ITEMS][PIECE + 1];
  for (int i = 0; i < ITEMS; i++) {
    memset(piece[i], 'A' + i % 26, PIECE);
    piece[i][PIECE] = '\0';
  }
  size_t most_open = 0, out_chars = 0;
  int first_out = -1, mixed = 0;
  for (int round = 0; round <= ROUNDS; round++) {
    if (round < ROUNDS)
      for (int i = 0; i < ITEMS; i++) CHECK(dev_print(&f, (uint32_t)i % 4, (uint64_t)i, piece[i]));
    CHECK(rvhal_print_drain(&s, f.ctrl, f.ram, 4, round == ROUNDS) == RVHAL_OK);
    if (s.partial_bytes > most_open) most_open = s.partial_bytes;
    if (c.calls && first_out < 0) first_out = round;
    for (size_t k = 0; k < c.n; k++) {
      size_t len = strlen(c.lines[k]);
      out_chars += len;
      mixed += len == 0 || strspn(c.lines[k], (char[]){c.lines[k][0], 0}) != len;
    }
    capture_clear(&c);
  }
  CHECK(first_out >= 0 && first_out < ROUNDS); /* before the final drain */
  CHECK(most_open > 0 && most_open < LIMIT);
  CHECK(mixed == 0);
  CHECK(out_chars == (size_t)ITEMS * ROUNDS * PIECE); /* none lost */
  CHECK(s.partial == NULL && s.partial_bytes == 0);
  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_truncated(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);

  /* A cut record whose text kept its newline: the line, then the note. */
  put_record(&f, 0, f.order++, 5, "whole line\n", 11, RVHAL_PRINT_TRUNCATED);
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  EXPECT_LINES(&c, "whole line", "[rvhal: a print() of work-item 5 was cut to 11 bytes]");

  /* Text over RVHAL_PRINT_MAX_TEXT: cut by the writer (as the firmware
   * does), newline lost. The cut text is a line of its own, followed by
   * the note; the item's next print starts a new line. */
  static char big[RVHAL_PRINT_MAX_TEXT + 100];
  memset(big, 'y', sizeof big - 1);
  big[sizeof big - 2] = '\n';
  big[sizeof big - 1] = '\0';
  dev_print(&f, 1, 6, big);
  dev_print(&f, 1, 6, "next\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 1);
  char cut[RVHAL_PRINT_MAX_TEXT + 1];
  memset(cut, 'y', RVHAL_PRINT_MAX_TEXT);
  cut[RVHAL_PRINT_MAX_TEXT] = '\0';
  const char *want[] = {cut, "[rvhal: a print() of work-item 6 was cut to 1024 bytes]", "next"};
  expect_lines_(__LINE__, &c, want, 3);

  /* The same cut as the SDK's print() makes (511 bytes, flag set). */
  put_record(&f, 0, f.order++, 7, big, 511, RVHAL_PRINT_TRUNCATED);
  dev_print(&f, 0, 7, "more\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  cut[511] = '\0';
  const char *want2[] = {cut, "[rvhal: a print() of work-item 7 was cut to 511 bytes]", "more"};
  expect_lines_(__LINE__, &c, want2, 3);

  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_lost(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);

  ring_of(&f, 1)->lost_records = 3;
  ring_of(&f, 1)->lost_bytes = 120;
  ring_of(&f, 3)->lost_records = 2;
  ring_of(&f, 3)->lost_bytes = 50;
  dev_print(&f, 0, 0, "kept\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 0);
  EXPECT_LINES(&c, "kept"); /* no note before the end of the launch */
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 1);
  EXPECT_LINES(&c, "[rvhal: 5 print() records (170 bytes) were lost: print buffers full]");
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 1);
  EXPECT_NO_LINES(&c); /* reported once */

  /* Later losses: only the new ones. */
  ring_of(&f, 1)->lost_records = 4;
  ring_of(&f, 1)->lost_bytes = 130;
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 1);
  EXPECT_LINES(&c, "[rvhal: 1 print() records (10 bytes) were lost: print buffers full]");

  /* A ring that fills up: the writer counts what did not fit. */
  static char text[1000];
  memset(text, 'z', sizeof text - 2);
  text[sizeof text - 2] = '\n';
  text[sizeof text - 1] = '\0';
  int written = 0, lost = 0;
  for (int i = 0; i < 80; i++) dev_print(&f, 2, 9, text) ? written++ : lost++;
  CHECK_EQ_U64(written, RING / ((HDR + 999 + 7) & ~7u));
  CHECK_EQ_U64(ring_of(&f, 2)->lost_records, (uint64_t)lost);
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 1);
  CHECK_EQ_U64(c.n, (uint64_t)written + 1);
  char note[128];
  snprintf(note, sizeof note, "[rvhal: %d print() records (%d bytes) were lost: print buffers full]", lost, lost * 999);
  CHECK_MSG(c.n > 0 && strcmp(c.lines[c.n - 1], note) == 0, "last line \"%s\", expected \"%s\"",
            c.n ? c.lines[c.n - 1] : "", note);
  capture_clear(&c);

  /* The device reboots: fresh rings, counters from 0. Its losses are new. */
  fake_reboot(&f);
  rvhal_print_reset_order(&s);
  ring_of(&f, 0)->lost_records = 2;
  ring_of(&f, 0)->lost_bytes = 30;
  dev_print(&f, 0, 0, "after reboot\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 4, 1);
  EXPECT_LINES(&c, "after reboot", "[rvhal: 2 print() records (30 bytes) were lost: print buffers full]");

  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_reset_order(void) {
  fake_t f;
  capture_t c = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c);
  for (int i = 0; i < 5; i++) dev_print(&f, (uint32_t)i % 2, (uint64_t)i, "before\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 1);
  EXPECT_LINES(&c, "before", "before", "before", "before", "before");

  /* A reboot: orders restart at 0, and a drain during the next launch
   * prints them at once. */
  fake_reboot(&f);
  rvhal_print_reset_order(&s);
  dev_print(&f, 1, 0, "zero\n");
  dev_print(&f, 0, 1, "one\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_LINES(&c, "zero", "one");
  /* and again, with an order still missing */
  fake_reboot(&f);
  rvhal_print_reset_order(&s);
  f.order++;
  dev_print(&f, 0, 1, "one again\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_NO_LINES(&c);
  put_record(&f, 1, 0, 0, "zero again\n", 11, 0);
  rvhal_print_drain(&s, f.ctrl, f.ram, 2, 0);
  EXPECT_LINES(&c, "zero again", "one again");

  rvhal_print_free(&s);
  fake_free(&f);
}

static void test_output_and_free(void) {
  fake_t f;
  capture_t c1 = {0}, c2 = {0};
  rvhal_print_state_t s;
  fake_init(&f);
  rvhal_print_init(&s, capture_fn, &c1);
  dev_print(&f, 0, 0, "to one\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  rvhal_print_set_output(&s, other_fn, &c2);
  dev_print(&f, 0, 0, "to two\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  EXPECT_LINES(&c1, "to one");
  EXPECT_LINES(&c2, "to two");
  CHECK_EQ_U64(other_fn_calls, 1);

  /* Freed with records held back and lines open (valgrind: no leaks). */
  dev_print(&f, 0, 1, "open line");
  f.order++; /* a hole */
  dev_print(&f, 0, 2, "held back\n");
  dev_print(&f, 0, 3, "held back too\n");
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 0);
  EXPECT_NO_LINES(&c2);
  rvhal_print_free(&s);
  CHECK(s.pending == NULL && s.num_pending == 0 && s.partial == NULL);
  EXPECT_NO_LINES(&c2); /* freeing prints nothing */
  /* and the state can be set up again */
  rvhal_print_init(&s, capture_fn, &c2);
  rvhal_print_drain(&s, f.ctrl, f.ram, 1, 1); /* the rings were already consumed */
  EXPECT_NO_LINES(&c2);
  rvhal_print_free(&s);
  fake_free(&f);
}

int main(void) {
  test_order_across_harts();
  test_missing_order();
  test_pieces_and_lines();
  test_wrap();
  test_ring_tail();
  test_corrupt();
  test_too_long();
  test_pending_bytes_bound();
  test_partial_bytes_bound();
  test_truncated();
  test_lost();
  test_reset_order();
  test_output_and_free();
  return check_result("print_drain");
}
