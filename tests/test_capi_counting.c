/* The counting and scalable filter C API, compiled as C: NULL handling, the not-found status
 * of removes, saturation, growth within the bound, params/info, serialization, save/open
 * roles, and bad input. Prints TAP. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seen.h"
#include "tap.h"

static size_t count_yes(const uint8_t* out, size_t n) {
  size_t yes = 0, i;
  for (i = 0; i < n; ++i) yes += out[i];
  return yes;
}

enum { N = 20000 };
static uint64_t ids[N], absent[N];
static uint8_t out[N], removed[N];

static void test_counting_basics(void) {
  seen_counting* f = (seen_counting*)1;
  size_t i;
  uint64_t id = 1;
  check(seen_status_string(SEEN_ERR_NOT_FOUND) != NULL &&
            strcmp(seen_status_string(SEEN_ERR_NOT_FOUND), "SEEN_ERR_NOT_FOUND") == 0 &&
            SEEN_ERR_NOT_FOUND == 15,
        "SEEN_ERR_NOT_FOUND is 15 and has a name");
  check(seen_counting_create(10, 1.5, 0, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT && f == NULL,
        "bad fpr sets out to NULL");
  check(seen_counting_create(10, 0.01, 0, NULL, NULL) == SEEN_ERR_INVALID_ARGUMENT, "create with NULL out");
  check(seen_counting_add_u64(NULL, &id, 1) == SEEN_ERR_INVALID_ARGUMENT, "add to NULL");
  check(seen_counting_remove_u64(NULL, &id, 1, NULL) == SEEN_ERR_INVALID_ARGUMENT, "remove on NULL");
  check(seen_counting_contains_one_u64(NULL, 1) == -1, "test on NULL is -1");
  seen_counting_free(NULL);

  for (i = 0; i < N; ++i) { ids[i] = mix(2 * i); absent[i] = mix(2 * i + 1); }
  check(seen_counting_create(N, 0.01, 17, &f, NULL) == SEEN_OK && f != NULL, "create");
  check(seen_counting_add_u64(f, ids, N) == SEEN_OK, "batch add");
  check(seen_counting_add_u64(f, NULL, 0) == SEEN_OK && seen_counting_remove_u64(f, NULL, 0, NULL) == SEEN_OK,
        "n == 0 with NULL is a no-op");
  check(seen_counting_contains_u64(f, ids, N, out) == SEEN_OK && count_yes(out, N) == N,
        "no false negatives");
  seen_counting_contains_u64(f, absent, N, out);
  check(count_yes(out, N) < N * 0.015, "false positives near 1%");
  check(seen_counting_remove_u64(f, ids, N / 2, removed) == SEEN_OK && count_yes(removed, N / 2) == N / 2,
        "removing added keys");
  seen_counting_contains_u64(f, ids + N / 2, N / 2, out);
  check(count_yes(out, N / 2) == N / 2, "the others are still found");
  {
    /* Keys that are certainly absent now: removing them reports NOT_FOUND and marks them 0. */
    uint64_t gone[64];
    size_t g = 0;
    for (i = 0; i < N && g < 64; ++i) {
      if (seen_counting_contains_one_u64(f, absent[i]) == 0) gone[g++] = absent[i];
    }
    check(seen_counting_remove_u64(f, gone, g, removed) == SEEN_ERR_NOT_FOUND && count_yes(removed, g) == 0,
          "batch remove of absent keys is NOT_FOUND");
    check(strstr(seen_last_error(), "absent") != NULL, "the last error says why");
    check(seen_counting_remove_one_u64(f, gone[0]) == SEEN_ERR_NOT_FOUND, "single delete of an absent key");
  }
  check(seen_counting_add_one_u64(f, 5) == SEEN_OK && seen_counting_contains_one_u64(f, 5) == 1, "put and test");
  check(seen_counting_remove_one_u64(f, 5) == SEEN_OK, "delete of a present key");
  {
    const uint8_t data[] = "alphabetagamma";
    const uint64_t offsets[] = {0, 5, 9, 14};
    const uint64_t bad_offsets[] = {0, 9, 5, 14};
    check(seen_counting_add_keys(f, data, offsets, 3) == SEEN_OK, "add byte keys");
    check(seen_counting_contains_keys(f, data, offsets, 3, out) == SEEN_OK && count_yes(out, 3) == 3,
          "byte keys found");
    check(seen_counting_contains_one_key(f, "beta", 4) == 1, "single byte key found");
    check(seen_counting_remove_keys(f, data, offsets, 3, NULL) == SEEN_OK, "remove byte keys");
    check(seen_counting_add_one_key(f, NULL, 0) == SEEN_OK && seen_counting_remove_one_key(f, NULL, 0) == SEEN_OK,
          "the empty key");
    check(seen_counting_add_keys(f, data, bad_offsets, 3) == SEEN_ERR_INVALID_ARGUMENT,
          "decreasing offsets are refused");
    check(seen_counting_contains_keys(f, NULL, offsets, 1, out) == SEEN_ERR_INVALID_ARGUMENT,
          "NULL data with non-empty keys");
  }
  seen_counting_free(f);
}

static void test_counting_saturation_and_stats(void) {
  seen_counting* f = NULL;
  seen_counting_info params;
  seen_counting_stats stats;
  int i, all_removed = 1;
  seen_counting_create(1000, 0.01, 3, &f, NULL);
  params.size = sizeof params;
  check(seen_counting_get_info(f, &params) == SEEN_OK && params.counter_bits == 4 &&
            params.bytes == params.blocks * 320 && params.seed == 3 && params.read_only == 0,
        "params");
  {
    uint64_t bloom_bytes = 0;
    uint32_t k = 0;
    seen_bloom_size_for(1000, 0.01, &bloom_bytes, &k, NULL);
    check(params.bytes == 5 * bloom_bytes && params.k == k, "5x the blocked filter's memory, same k");
  }
  for (i = 0; i < 100; ++i) seen_counting_add_one_u64(f, 42);
  stats.size = sizeof stats;
  check(seen_counting_get_stats(f, &stats) == SEEN_OK && stats.saturated == params.k &&
            stats.approx_items == 15.0,
        "100 adds of one key saturate its counters at 15");
  for (i = 0; i < 100; ++i) all_removed &= seen_counting_remove_one_u64(f, 42) == SEEN_OK;
  check(all_removed && seen_counting_contains_one_u64(f, 42) == 1, "saturated counters never decrement");
  check(seen_counting_clear(f) == SEEN_OK && seen_counting_contains_one_u64(f, 42) == 0, "clear");
  stats.size = 0;
  check(seen_counting_get_stats(f, &stats) == SEEN_ERR_INVALID_ARGUMENT, "stats without size");
  seen_counting_free(f);
}

static void test_counting_serialization(void) {
  seen_counting *f = NULL, *copy = NULL, *view = NULL, *bad = NULL, *reader = NULL, *writer = NULL;
  seen_bloom* bloom = NULL;
  size_t need = 0, written = 0;
  uint8_t* buf;
  uint8_t small[16];
  char path[] = "/tmp/seen-capi-counting-XXXXXX";
  int fd = mkstemp(path);
  seen_counting_create(1000, 0.01, 1, &f, NULL);
  seen_counting_add_one_u64(f, 99);
  check(seen_counting_serialize(f, NULL, 0, &need) == SEEN_OK && need > 128, "size query");
  check(seen_counting_serialize(f, small, sizeof small, &written) == SEEN_ERR_BUFFER_TOO_SMALL && written == need,
        "too small a buffer");
  buf = (uint8_t*)malloc(need);
  check(seen_counting_serialize(f, buf, need, &written) == SEEN_OK && written == need, "serialize");
  check(seen_counting_deserialize(buf, need, &copy, NULL) == SEEN_OK && seen_counting_contains_one_u64(copy, 99) == 1,
        "deserialize");
  check(seen_counting_view(buf, need, 0, &view, NULL) == SEEN_OK && seen_counting_contains_one_u64(view, 99) == 1, "view");
  check(seen_counting_remove_one_u64(view, 99) == SEEN_ERR_READ_ONLY, "a view is read-only");
  check(seen_bloom_deserialize(buf, need, &bloom, NULL) == SEEN_ERR_WRONG_KIND && bloom == NULL,
        "a Bloom reader refuses kind 2");
  seen_counting_free(view);
  close(fd);
  check(seen_counting_save(f, path) == SEEN_OK, "save");
  check(seen_counting_open(path, SEEN_OPEN_READ_ONLY, &reader, NULL) == SEEN_OK &&
            seen_counting_contains_one_u64(reader, 99) == 1,
        "open read-only");
  check(seen_counting_add_one_u64(reader, 1) == SEEN_ERR_READ_ONLY &&
            seen_counting_remove_u64(reader, ids, 1, NULL) == SEEN_ERR_READ_ONLY,
        "the query role refuses writes");
  seen_counting_free(reader);
  check(seen_counting_open(path, SEEN_OPEN_PRIVATE_COPY, &writer, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            writer == NULL,
        "a counting filter does not open as a private copy");
  check(seen_counting_open(path, SEEN_OPEN_WRITE_IN_PLACE, &writer, NULL) == SEEN_OK &&
            seen_counting_remove_one_u64(writer, 99) == SEEN_OK && seen_counting_sync(writer) == SEEN_OK,
        "open to write in place, remove, sync");
  seen_counting_free(writer);
  check(seen_counting_open(path, SEEN_OPEN_READ_ONLY, &reader, NULL) == SEEN_OK &&
            seen_counting_contains_one_u64(reader, 99) == 0,
        "the remove reached the file");
  seen_counting_free(reader);
  check(seen_counting_open(path, 0, &reader, NULL) == SEEN_ERR_INVALID_ARGUMENT, "open needs a role");
  unlink(path);
  buf[0] = 'X';
  check(seen_counting_deserialize(buf, need, &bad, NULL) == SEEN_ERR_BAD_MAGIC && bad == NULL, "bad magic");
  check(seen_counting_deserialize(buf, 10, &bad, NULL) == SEEN_ERR_TRUNCATED, "truncated");
  free(buf);
  seen_counting_free(f);
  seen_counting_free(copy);
}

static void test_scalable(void) {
  seen_scalable_options opts;
  seen_scalable_info info;
  seen_scalable *f = NULL, *copy = NULL, *reader = NULL;
  size_t need = 0, written = 0;
  uint8_t was = 9;
  uint8_t* buf;
  char path[] = "/tmp/seen-capi-scalable-XXXXXX";
  int fd = mkstemp(path);
  memset(&opts, 0, sizeof opts);
  opts.size = sizeof opts;
  opts.initial_capacity = 200;
  opts.fpr = 0.01;
  opts.seed = 7;
  check(seen_scalable_create(NULL, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT && f == NULL, "NULL options");
  opts.fpr = 0;
  check(seen_scalable_create(&opts, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT && strstr(seen_last_error(), "fpr") != NULL,
        "fpr 0 is refused, by name");
  opts.fpr = 0.01;
  opts.size = offsetof(seen_scalable_options, key) - 1;
  check(seen_scalable_create(&opts, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT && f == NULL &&
            strstr(seen_last_error(), "scalable options") != NULL,
        "a size below the first layout is refused, by name");
  {
    /* A caller built against a newer header passes a larger struct; what this build does not
     * know of must be zero, the default of every added field. */
    struct {
      seen_scalable_options known;
      uint64_t added_later;
    } newer;
    seen_scalable* g = NULL;
    memset(&newer, 0, sizeof newer);
    newer.known = opts;
    newer.known.size = sizeof newer;
    check(seen_scalable_create(&newer.known, &g, NULL) == SEEN_OK && g != NULL, "a newer, larger struct is read");
    seen_scalable_free(g);
    g = NULL;
    newer.added_later = 1;
    check(seen_scalable_create(&newer.known, &g, NULL) == SEEN_ERR_INVALID_ARGUMENT && g == NULL &&
              strstr(seen_last_error(), "cannot honour") != NULL,
          "a newer field this build does not know is refused when set");
  }
  opts.size = sizeof opts;
  check(seen_scalable_create(&opts, &f, NULL) == SEEN_OK, "create with default growth and tightening");
  check(seen_scalable_add_u64(f, ids, N) == SEEN_OK, "add 100x the initial capacity");
  check(seen_scalable_contains_u64(f, ids, N, out) == SEEN_OK && count_yes(out, N) == N, "no false negatives");
  seen_scalable_contains_u64(f, absent, N, out);
  check(count_yes(out, N) <= N * 0.01, "false positives within the 1% bound");
  info.size = sizeof info;
  check(seen_scalable_get_info(f, &info) == SEEN_OK && info.subfilters >= 6 && info.items > N * 0.99 &&
            info.items <= N && info.growth == 2.0 && info.tightening == 0.5 && info.predicted_fpr <= 0.01,
        "info: sub-filters, items, defaults, predicted fpr");
  check(seen_scalable_add_one_u64(f, ids[0], &was) == SEEN_OK && was == 1, "put reports a present key");
  check(seen_scalable_add_one_key(f, "k", 1, &was) == SEEN_OK && was == 0 && seen_scalable_contains_one_key(f, "k", 1) == 1,
        "single byte key");
  {
    const uint8_t data[] = "alphabetagamma";
    const uint64_t offsets[] = {0, 5, 9, 14};
    check(seen_scalable_add_keys(f, data, offsets, 3) == SEEN_OK &&
              seen_scalable_contains_keys(f, data, offsets, 3, out) == SEEN_OK && count_yes(out, 3) == 3,
          "byte key batches");
  }
  check(seen_scalable_contains_one_u64(NULL, 1) == -1 && seen_scalable_add_u64(NULL, ids, 1) == SEEN_ERR_INVALID_ARGUMENT,
        "NULL filter");
  check(seen_scalable_serialize(f, NULL, 0, &need) == SEEN_OK && need > 128, "size query");
  buf = (uint8_t*)malloc(need);
  check(seen_scalable_serialize(f, buf, need, &written) == SEEN_OK && written == need, "serialize");
  check(seen_scalable_deserialize(buf, need, &copy, NULL) == SEEN_OK && seen_scalable_contains_one_u64(copy, ids[5]) == 1,
        "deserialize");
  buf[200] ^= 1;
  {
    seen_scalable* bad = NULL;
    check(seen_scalable_deserialize(buf, need, &bad, NULL) == SEEN_ERR_BAD_CHECKSUM && bad == NULL, "corrupt params");
  }
  close(fd);
  check(seen_scalable_save(f, path) == SEEN_OK, "save");
  check(seen_scalable_open(path, SEEN_OPEN_READ_ONLY, &reader, NULL) == SEEN_OK &&
            seen_scalable_contains_one_u64(reader, ids[7]) == 1 && seen_scalable_add_u64(reader, absent, 1) == SEEN_ERR_READ_ONLY,
        "open read-only: queries in place, refuses adds");
  seen_scalable_free(reader);
  reader = NULL;
  check(seen_scalable_open(path, SEEN_OPEN_WRITE_IN_PLACE, &reader, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            reader == NULL,
        "a scalable filter grows, so it cannot be written in place");
  check(seen_scalable_open(path, SEEN_OPEN_PRIVATE_COPY, &reader, NULL) == SEEN_OK &&
            seen_scalable_add_u64(reader, absent, 100) == SEEN_OK,
        "open a private copy that grows");
  {
    seen_scalable* mapped = NULL;
    seen_scalable_info copied, filed;
    copied.size = filed.size = sizeof copied;
    check(seen_scalable_open(path, SEEN_OPEN_READ_ONLY, &mapped, NULL) == SEEN_OK &&
              seen_scalable_get_info(reader, &copied) == SEEN_OK && seen_scalable_get_info(mapped, &filed) == SEEN_OK &&
              copied.items > filed.items,
          "the copy's adds never reach the file");
    seen_scalable_free(mapped);
  }
  unlink(path);
  free(buf);
  seen_scalable_free(reader);
  seen_scalable_free(copy);
  seen_scalable_free(f);
  seen_scalable_free(NULL);
}

/* The lent presence blocks are the filter's own: after the same adds they hold, byte for byte,
 * the blocks of a Bloom filter of the same parameters, and a remove shows in them at once. */
static void test_presence_blocks(void) {
  seen_counting* f = NULL;
  seen_bloom* bloom = NULL;
  const uint8_t *presence = NULL, *bloom_blocks = NULL;
  seen_counting_info info = {sizeof info};
  check(seen_counting_create(5000, 0.01, 9, &f, NULL) == SEEN_OK &&
            seen_bloom_create(5000, 0.01, 9, &bloom, NULL) == SEEN_OK &&
            seen_counting_get_presence_blocks(f, &presence) == SEEN_OK &&
            seen_bloom_get_blocks(bloom, &bloom_blocks) == SEEN_OK &&
            seen_counting_get_info(f, &info) == SEEN_OK && info.keyed == 0,
        "presence blocks lent; an unkeyed filter says keyed 0");
  seen_counting_add_u64(f, ids, 3000);
  seen_bloom_add_u64(bloom, ids, 3000);
  check(memcmp(presence, bloom_blocks, info.blocks * 64) == 0,
        "the presence blocks are a Bloom filter's of the same keys");
  check(seen_counting_remove_u64(f, ids, 3000, NULL) == SEEN_OK &&
            count_yes(presence, info.blocks * 64) == 0,
        "removing every key clears the lent presence blocks");
  check(seen_counting_get_presence_blocks(NULL, &presence) == SEEN_ERR_INVALID_ARGUMENT &&
            seen_counting_get_presence_blocks(f, NULL) == SEEN_ERR_INVALID_ARGUMENT,
        "get_presence_blocks refuses NULL");
  seen_bloom_free(bloom);
  seen_counting_free(f);
}

int main(void) {
  test_counting_basics();
  test_presence_blocks();
  test_counting_saturation_and_stats();
  test_counting_serialization();
  test_scalable();
  return tap_finish();
}
