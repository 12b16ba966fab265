/* The window and store C API, compiled as C: options, info, the span guarantee through the
 * ABI, take, persistence, argument errors and windows in the caller's memory. Prints TAP. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#define SEEN_EXPERIMENTAL       /* seen_allocator, seen_window_get_effective_span */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seen.h"
#include "tap.h"

static seen_window_options count_window(uint32_t span, double fpr) {
  seen_window_options o;
  memset(&o, 0, sizeof o);
  o.size = sizeof o;
  o.mode = SEEN_WINDOW_COUNT;
  o.span = span;
  o.fpr = fpr;
  o.seed = 5;
  return o;
}

static void test_window(void) {
  seen_window_options o = count_window(500, 0.01);
  seen_window *w = NULL, *copy = NULL;
  seen_window_info info;
  uint64_t items[2000];
  uint8_t out[2000];
  size_t i, found = 0, need = 0;
  uint8_t* buf;
  check(seen_window_create(&o, 0, &w, NULL) == SEEN_OK, "create a count window");
  info.size = sizeof info;
  check(seen_window_get_info(w, &info) == SEEN_OK && info.span == 500 && info.state_bytes <= 1008 &&
            info.predicted_fpr <= 0.01,
        "info: span, memory and rate");
  for (i = 0; i < 2000; ++i) items[i] = i * 7919 + 1;
  check(seen_window_add_u64(w, items, 2000, 0) == SEEN_OK, "add 2000 items");
  check(seen_window_contains_u64(w, items + 1500, 500, 0, out) == SEEN_OK, "contains");
  for (i = 0; i < 500; ++i) found += out[i];
  check(found == 500, "the last 500 are all found");
  check(seen_window_serialize(w, NULL, 0, &need) == SEEN_OK && need > info.state_bytes, "serialized size");
  buf = (uint8_t*)malloc(need);
  check(seen_window_serialize(w, buf, need, &need) == SEEN_OK, "serialize");
  check(seen_window_deserialize(buf, need, &copy, NULL) == SEEN_OK, "deserialize");
  found = 0;
  seen_window_contains_u64(copy, items + 1500, 500, 0, out);
  for (i = 0; i < 500; ++i) found += out[i];
  check(found == 500, "the copy remembers");
  buf[need - 1] ^= 1;
  seen_window_free(copy);
  copy = NULL;
  check(seen_window_deserialize(buf, need, &copy, NULL) == SEEN_ERR_BAD_CHECKSUM && copy == NULL, "corrupt window");
  free(buf);
  {
    const uint8_t data[] = "abcdef";
    const uint64_t offsets[] = {0, 3, 6};
    check(seen_window_add_keys(w, data, offsets, 2, 0) == SEEN_OK &&
              seen_window_contains_keys(w, data, offsets, 2, 0, out) == SEEN_OK && out[0] && out[1],
          "byte keys");
  }
  {
    seen_window_saturation sat;
    memset(&sat, 0, sizeof sat);
    sat.size = sizeof sat;
    check(seen_window_get_saturation(w, 0, &sat) == SEEN_OK && sat.size == sizeof sat && sat.fill > 0 &&
              sat.fill <= 1 && sat.predicted_fpr > 0 && sat.predicted_fpr < 0.02,
          "saturation of a used window");
    sat.size = 0;
    check(seen_window_get_saturation(w, 0, &sat) == SEEN_ERR_INVALID_ARGUMENT, "saturation without size");
  }
  o.mode = 9;
  check(seen_window_create(&o, 0, &copy, NULL) == SEEN_ERR_INVALID_ARGUMENT, "unknown mode");
  check(strstr(seen_last_error(), "mode") != NULL, "the error names the field");
  o = count_window(500, 0.01);
  o.size = 8;
  check(seen_window_create(&o, 0, &copy, NULL) == SEEN_ERR_INVALID_ARGUMENT, "options without size");
  check(strstr(seen_last_error(), "oldest layout") != NULL, "the error names the size rule");
  {
    /* A caller built against a newer header: a larger struct whose unknown tail is zero. */
    struct {
      seen_window_options known;
      uint64_t added_later[2];
    } newer;
    memset(&newer, 0, sizeof newer);
    newer.known = count_window(500, 0.01);
    newer.known.size = sizeof newer;
    check(seen_window_create(&newer.known, 0, &copy, NULL) == SEEN_OK, "a newer, larger options struct");
    seen_window_free(copy);
    copy = NULL;
  }
  check(seen_window_add_u64(w, items, 1, (uint64_t)1 << 40) == SEEN_ERR_INVALID_ARGUMENT, "now past 2^32");
  seen_window_free(w);
  seen_window_free(NULL);
}

static void test_store(void) {
  seen_window_options wo = count_window(500, 0.01);
  seen_store_options so;
  seen_store *s = NULL, *back = NULL;
  seen_store_stats stats;
  uint64_t candidates[100], taken[100];
  uint8_t unseen[100];
  size_t i, count = 0, n_unseen = 0;
  char path[] = "/tmp/seen-capi-store-XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  memset(&so, 0, sizeof so);
  so.size = sizeof so;
  so.window = &wo;
  so.size = sizeof(size_t);
  check(seen_store_create(&so, &s, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(seen_last_error(), "store options") != NULL,
        "store options below the oldest layout, named");
  so.size = sizeof so;
  check(seen_store_create(&so, &s, NULL) == SEEN_OK, "create a store");
  for (i = 0; i < 100; ++i) candidates[i] = 1000 + i;
  check(seen_store_filter(s, 1, candidates, 100, 10, unseen) == SEEN_OK, "filter, unknown user");
  for (i = 0; i < 100; ++i) n_unseen += unseen[i];
  check(n_unseen == 100, "an unknown user has seen nothing");
  check(seen_store_take(s, 1, candidates, 100, 30, 10, taken, &count) == SEEN_OK && count == 30 &&
            taken[0] == 1000 && taken[29] == 1029,
        "take the first 30, in order");
  check(seen_store_take(s, 1, candidates, 100, 30, 10, taken, &count) == SEEN_OK && count == 30 &&
            taken[0] == 1030,
        "the next page starts after them");
  check(seen_store_mark(s, 2, candidates, 5, 10) == SEEN_OK, "mark");
  stats.size = sizeof stats;
  check(seen_store_get_stats(s, &stats) == SEEN_OK && stats.users == 2 && stats.bytes > 0, "stats");
  check(seen_store_save(s, path) == SEEN_OK, "save");
  check(seen_store_open(path, SEEN_OPEN_WRITE_IN_PLACE, &back, NULL) == SEEN_ERR_INVALID_ARGUMENT && back == NULL,
        "a store is never written in place");
  check(seen_store_open(path, SEEN_OPEN_READ_ONLY, &back, NULL) == SEEN_OK, "open read-only");
  seen_store_filter(back, 1, candidates, 100, 10, unseen);
  n_unseen = 0;
  for (i = 0; i < 100; ++i) n_unseen += unseen[i];
  check(n_unseen == 40, "the reopened store remembers both pages");
  check(seen_store_mark(back, 1, candidates, 1, 10) == SEEN_ERR_READ_ONLY, "read-only refuses marks");
  check(seen_store_open(path, 0, &back, NULL) == SEEN_ERR_INVALID_ARGUMENT, "open needs a mode");
  check(seen_store_take(s, 1, candidates, 100, 1, 10, NULL, &count) == SEEN_ERR_INVALID_ARGUMENT,
        "take without room");
  check(seen_store_expire(s, 10 + 2 * 86400, &taken[0]) == SEEN_OK &&
            taken[0] == 2,
        "both users expire after two idle days");
  seen_store_free(back);
  seen_store_free(s);
  seen_store_free(NULL);
  unlink(path);
}

/* Time windows expecting 100 items a month: 10 light users mark 5 items in a day, 3 heavy
 * users 3,000. The heavy users' windows grow and keep the 1% target, predicted and measured
 * on 10,000 fresh items. With a 4 KiB cap, 3,000 items of one call do not fit: the window
 * never gives up the items of the call being made, so it gives up rate instead, says so,
 * and is counted. */
static void test_store_saturation(uint64_t max_bytes) {
  seen_window_options wo;
  seen_store_options so;
  seen_store* s = NULL;
  seen_store_saturation sat;
  seen_store_stats stats;
  seen_window_saturation light, heavy;
  seen_window_info info;
  static uint64_t items[3000];
  static uint8_t unseen[10000];
  static uint64_t fresh[10000];
  uint64_t user, i, seen_fresh = 0, lost = 0;
  const uint64_t now = 40 * 86400;
  memset(&wo, 0, sizeof wo);
  wo.size = sizeof wo;
  wo.mode = SEEN_WINDOW_TIME;
  wo.span = 30 * 86400;
  wo.expected_items = 100;
  wo.fpr = 0.01;
  wo.max_bytes = max_bytes;
  memset(&so, 0, sizeof so);
  so.size = sizeof so;
  so.window = &wo;
  check(seen_store_create(&so, &s, NULL) == SEEN_OK, "a store of time windows");
  for (user = 0; user < 13; ++user) {
    const uint64_t n = user < 10 ? 5 : 3000;
    for (i = 0; i < n; ++i) items[i] = user * 1000003 + i;
    seen_store_mark(s, user, items, (size_t)n, now - 86400);
    seen_store_filter(s, user, items, (size_t)n, now, unseen);
    for (i = 0; i < n; ++i) lost += unseen[i];
  }
  check(lost == 0, "every item marked is found, capped or not");
  for (i = 0; i < 10000; ++i) fresh[i] = 0x9E3779B97F4A7C15ull * (i + 1);
  seen_store_filter(s, 12, fresh, 10000, now, unseen);
  for (i = 0; i < 10000; ++i) seen_fresh += !unseen[i];
  sat.size = sizeof sat;
  stats.size = sizeof stats;
  info.size = sizeof info;
  light.size = heavy.size = sizeof light;
  check(seen_store_get_window_info(s, &info) == SEEN_OK && info.layout == 4 &&
            info.max_bytes == (max_bytes != 0 ? max_bytes : 1 << 20),
        "a time window is a table (layout 4) that grows up to its max_bytes");
  check(seen_store_get_saturation(s, now, &sat) == SEEN_OK && sat.users == 13 &&
            sat.mean_fill > 0 && sat.mean_fill <= 1,
        "saturation of every user");
  check(seen_store_get_stats(s, &stats) == SEEN_OK && stats.users_grown == 3,
        "the three heavy users grew");
  check(seen_store_get_user_saturation(s, 0, now, &light) == SEEN_OK &&
            seen_store_get_user_saturation(s, 12, now, &heavy) == SEEN_OK &&
            light.bytes == info.state_bytes && heavy.bytes > light.bytes &&
            light.effective_span == wo.span,
        "per user: a light window stays at its start, a heavy one holds more");
  check(seen_store_get_user_saturation(s, 99, now, &light) == SEEN_ERR_NOT_FOUND,
        "an unknown user is not found");
  if (max_bytes == 0) {
    check(sat.users_span_limited == 0 && stats.span_drops == 0 && heavy.effective_span == wo.span,
          "uncapped, no one gives up time");
    check(sat.max_predicted_fpr <= 0.011 && sat.users_above_target == 0 && !heavy.over_target,
          "uncapped, no user's predicted rate is above the target");
    /* 1% of 10,000 is 100 +- 10; 130 is three standard deviations. */
    check(seen_fresh <= 130, "a heavy user's rate is near 1%, measured on 10,000 fresh items");
  } else {
    check(sat.users_above_target == 3 && heavy.over_target && !light.over_target && heavy.bytes <= max_bytes &&
              heavy.predicted_fpr > 0.01 && seen_fresh > 130,
          "capped, the heavy users give up rate, say so and are counted");
  }
  check(seen_store_get_saturation(s, (uint64_t)1 << 32, &sat) == SEEN_ERR_INVALID_ARGUMENT,
        "now past 2^32 - 1 is refused");
  seen_store_free(s);
}

/* A caller's allocator that counts what it holds. */
typedef struct {
  size_t blocks;
  size_t bytes;
} held_memory;

static void* held_alloc(void* opaque, size_t bytes) {
  held_memory* m = (held_memory*)opaque;
  size_t* block = (size_t*)malloc(bytes + 16);
  if (block == NULL) return NULL;
  block[0] = bytes;
  m->blocks += 1;
  m->bytes += bytes;
  return (char*)block + 16;
}

static void held_free(void* opaque, void* p) {
  held_memory* m = (held_memory*)opaque;
  size_t* block = (size_t*)((char*)p - 16);
  m->blocks -= 1;
  m->bytes -= block[0];
  free(block);
}

static void test_window_in_callers_memory(void) {
  held_memory held = {0, 0};
  const seen_allocator allocator = {held_alloc, held_free, &held};
  seen_window_options o = count_window(500, 0.01);
  seen_window_options t = count_window(0, 0.01);
  seen_window *w = NULL, *back = NULL, *timed = NULL;
  seen_window_saturation sat;
  uint64_t items[20000];
  uint8_t out[500];
  size_t i, found = 0, need = 0;
  uint8_t* buf;
  uint32_t span = 0;
  /* The last 500 ids at 1%: packed segments of 868 bytes; with its handle, one block within
   * 896 bytes (one of jemalloc's size classes, as Redis allocates), where a ring of 1,004
   * bytes took 1 KiB, and a handle beside its state two blocks and 1,248 bytes. */
  check(seen_window_create_with_allocator(&o, 0, &allocator, &w, NULL) == SEEN_OK && held.blocks == 1 &&
            held.bytes > 800 && held.bytes <= 896,
        "a count window in the caller's memory: handle and state in one block of at most 896 bytes");
  for (i = 0; i < 20000; ++i) items[i] = i * 7919 + 1;
  check(seen_window_add_u64(w, items, 2000, 0) == SEEN_OK &&
            seen_window_contains_u64(w, items + 1500, 500, 0, out) == SEEN_OK,
        "it adds and answers");
  for (i = 0; i < 500; ++i) found += out[i];
  check(found == 500, "the last 500 are found");
  seen_window_serialize(w, NULL, 0, &need);
  buf = (uint8_t*)malloc(need);
  check(seen_window_serialize(w, buf, need, &need) == SEEN_OK &&
            seen_window_deserialize_with_allocator(buf, need, NULL, 0, &allocator, &back, NULL) == SEEN_OK &&
            held.blocks == 2,
        "its bytes open into the caller's memory too");
  free(buf);
  seen_window_free(back);
  seen_window_free(w);
  check(held.blocks == 0 && held.bytes == 0, "free gives every block back");

  t.mode = SEEN_WINDOW_TIME;
  t.span = 3600;
  t.expected_items = 100;
  t.max_bytes = 8192;
  check(seen_window_create_with_allocator(&t, 0, &allocator, &timed, NULL) == SEEN_OK, "a time window");
  need = held.bytes;
  /* 400 items in the first quarter hour, 800 in the third: a table of 8 KiB at most (1,024
   * slots) holds either, not both, so the window gives up the older time. */
  check(seen_window_add_u64(timed, items, 400, 0) == SEEN_OK &&
            seen_window_add_u64(timed, items + 400, 800, 1800) == SEEN_OK && held.bytes > need + 2048,
        "grows in the caller's memory");
  sat.size = sizeof sat;
  check(seen_window_get_saturation(timed, 1900, &sat) == SEEN_OK &&
            seen_window_get_effective_span(timed, 1900, &span) == SEEN_OK && span == sat.effective_span &&
            span < 3600,
        "the effective span alone is saturation's, here short of the span");
  seen_window_free(timed);
  check(held.blocks == 0, "and gives it all back");
  check(seen_window_get_effective_span(NULL, 0, &span) == SEEN_ERR_INVALID_ARGUMENT,
        "effective span of NULL");
}

int main(void) {
  test_window();
  test_window_in_callers_memory();
  test_store();
  test_store_saturation(0);
  test_store_saturation(4096);
  return tap_finish();
}
