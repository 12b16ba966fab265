/* The C API, compiled as C: statuses, NULL handling, the last error, batches and single keys,
 * sizing, params/stats, serialization and the view. Prints TAP. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEEN_EXPERIMENTAL /* seen_bloom_set_exclusive_adds */
#include "seen.h"
#include "tap.h"

static void test_statuses(void) {
  check(SEEN_OK == 0, "SEEN_OK is 0");
  check(strcmp(seen_status_string(SEEN_ERR_TRUNCATED), "SEEN_ERR_TRUNCATED") == 0, "status names");
  check(seen_status_string((seen_status)999) != NULL, "unknown status still has a name");
  check(seen_version_number() == SEEN_VERSION_NUMBER, "library and header versions agree");
}

static void test_null_arguments(void) {
  seen_bloom* f = (seen_bloom*)1;
  uint8_t out[1];
  uint64_t id = 1;
  check(seen_bloom_create(10, 0.01, 0, NULL, NULL) == SEEN_ERR_INVALID_ARGUMENT, "create with NULL out");
  check(seen_bloom_create(10, 1.5, 0, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT && f == NULL,
        "bad fpr sets out to NULL");
  check(strstr(seen_last_error(), "fpr") != NULL, "last error names the field");
  check(seen_bloom_add_u64(NULL, &id, 1) == SEEN_ERR_INVALID_ARGUMENT, "add to NULL filter");
  check(seen_bloom_contains_u64(NULL, &id, 1, out) == SEEN_ERR_INVALID_ARGUMENT, "contains on NULL filter");
  check(seen_bloom_contains_one_u64(NULL, 1) == -1, "test on NULL filter is -1");
  check(seen_bloom_open(NULL, SEEN_OPEN_READ_ONLY, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT, "open NULL path");
  check(seen_bloom_deserialize(NULL, 10, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT, "deserialize NULL buffer");
  seen_bloom_free(NULL);
  check(1, "free(NULL) is a no-op");
}

static void test_batches_and_single_keys(void) {
  enum { N = 20000 };
  static uint64_t ids[N], absent[N];
  static uint8_t out[N];
  seen_bloom* f = NULL;
  size_t i, hits = 0;
  uint8_t was = 9;
  for (i = 0; i < N; ++i) { ids[i] = mix(2 * i); absent[i] = mix(2 * i + 1); }
  check(seen_bloom_create(N, 0.01, 17, &f, NULL) == SEEN_OK && f != NULL, "create");
  check(seen_bloom_add_u64(f, ids, N) == SEEN_OK, "batch add");
  check(seen_bloom_add_u64(f, NULL, 0) == SEEN_OK, "n == 0 with NULL is a no-op");
  check(seen_bloom_contains_u64(f, ids, N, out) == SEEN_OK, "batch contains");
  for (i = 0; i < N; ++i) hits += out[i];
  check(hits == N, "no false negatives in the batch");
  seen_bloom_contains_u64(f, absent, N, out);
  hits = 0;
  for (i = 0; i < N; ++i) hits += out[i];
  check(hits < N * 0.015, "false positives near 1%");
  check(seen_bloom_set_exclusive_adds(f, 1) == SEEN_OK && seen_bloom_add_u64(f, absent, 10) == SEEN_OK &&
            seen_bloom_contains_one_u64(f, absent[9]) == 1,
        "exclusive adds");
  check(seen_bloom_set_exclusive_adds(NULL, 1) == SEEN_ERR_INVALID_ARGUMENT, "exclusive on NULL");
  check(seen_bloom_add_one_u64(f, 5, &was) == SEEN_OK && was == 0, "put reports a new key");
  check(seen_bloom_add_one_u64(f, 5, &was) == SEEN_OK && was == 1, "put reports a present key");
  check(seen_bloom_contains_one_u64(f, 5) == 1, "test finds the key");
  {
    const uint8_t data[] = "alphabetagamma";
    const uint64_t offsets[] = {0, 5, 9, 14};
    const uint64_t bad_offsets[] = {0, 9, 5, 14};
    check(seen_bloom_add_keys(f, data, offsets, 3) == SEEN_OK, "add byte keys");
    check(seen_bloom_contains_keys(f, data, offsets, 3, out) == SEEN_OK && out[0] && out[1] && out[2],
          "byte keys found");
    check(seen_bloom_contains_one_key(f, "beta", 4) == 1, "single byte key found");
    check(seen_bloom_add_one_key(f, NULL, 0, NULL) == SEEN_OK && seen_bloom_contains_one_key(f, NULL, 0) == 1,
          "the empty key");
    check(seen_bloom_add_keys(f, data, bad_offsets, 3) == SEEN_ERR_INVALID_ARGUMENT,
          "decreasing offsets are refused");
    check(seen_bloom_contains_keys(f, NULL, offsets, 1, out) == SEEN_ERR_INVALID_ARGUMENT,
          "NULL data with non-empty keys");
    {
      const uint64_t empty_keys[] = {4, 4, 4};
      check(seen_bloom_contains_keys(f, NULL, empty_keys, 2, out) == SEEN_OK && out[0] == 1,
            "NULL data is fine when every key is empty");
    }
  }
  seen_bloom_free(f);
}

static void test_sizing_params_stats(void) {
  uint64_t bytes = 0;
  uint32_t k = 0;
  double fpr = 0;
  seen_bloom* f = NULL;
  seen_bloom_info params;
  seen_bloom_stats stats;
  check(seen_bloom_size_for(1000000, 0.01, &bytes, &k, NULL) == SEEN_OK && bytes > 0 && k >= 1 && k <= 8,
        "size_for");
  check(seen_bloom_predict_fpr(1000000, bytes, &fpr, NULL, NULL) == SEEN_OK && fpr <= 0.01 && fpr > 0.005,
        "predict_fpr inverts size_for");
  check(seen_bloom_create_bytes(1000, 4096, 3, &f, NULL) == SEEN_OK, "create_bytes");
  params.size = sizeof params;
  check(seen_bloom_get_info(f, &params) == SEEN_OK && params.bytes == 4096 && params.blocks == 64 &&
            params.seed == 3 && params.read_only == 0,
        "params");
  params.size = 0;
  check(seen_bloom_get_info(f, &params) == SEEN_ERR_INVALID_ARGUMENT, "params without size");
  seen_bloom_add_one_u64(f, 1, NULL);
  stats.size = sizeof stats;
  check(seen_bloom_get_stats(f, &stats) == SEEN_OK && stats.fill_ratio > 0 && stats.approx_items > 0.5 &&
            stats.approx_items < 1.5,
        "stats");
  check(seen_bloom_clear(f) == SEEN_OK && seen_bloom_contains_one_u64(f, 1) == 0, "clear");
  seen_bloom_free(f);
}

/* get_blocks lends the filter's own memory: a key's bits appear in its block, nowhere else. */
static void test_blocks_in_place(void) {
  seen_bloom* f = NULL;
  const uint8_t* blocks = NULL;
  uint64_t block = 0, id = 42;
  size_t set_outside = 0, set_inside = 0;
  check(seen_bloom_create_bytes(1000, 4096, 3, &f, NULL) == SEEN_OK &&
            seen_bloom_get_blocks(f, &blocks) == SEEN_OK && blocks != NULL,
        "get_blocks");
  seen_bloom_add_one_u64(f, id, NULL);
  seen_bloom_blocks_of_u64(f, &id, 1, &block);
  for (size_t byte = 0; byte < 4096; ++byte) {
    const size_t bits = (size_t)__builtin_popcount(blocks[byte]);
    if (byte / 64 == block) set_inside += bits; else set_outside += bits;
  }
  check(set_inside >= 1 && set_outside == 0, "an added key shows in its block of the lent memory");
  check(seen_bloom_get_blocks(NULL, &blocks) == SEEN_ERR_INVALID_ARGUMENT &&
            seen_bloom_get_blocks(f, NULL) == SEEN_ERR_INVALID_ARGUMENT,
        "get_blocks refuses NULL");
  seen_bloom_free(f);
}

static void test_serialization(void) {
  seen_bloom *f = NULL, *copy = NULL, *view = NULL, *other = NULL, *bad = NULL;
  size_t need = 0, written = 0;
  uint8_t* buf;
  uint8_t small[16];
  seen_bloom_create(1000, 0.01, 1, &f, NULL);
  seen_bloom_add_one_u64(f, 99, NULL);
  check(seen_bloom_serialize(f, NULL, 0, &need) == SEEN_OK && need > 128, "size query");
  check(seen_bloom_serialize(f, small, sizeof small, &written) == SEEN_ERR_BUFFER_TOO_SMALL &&
            written == need,
        "too small a buffer");
  buf = (uint8_t*)malloc(need);
  check(seen_bloom_serialize(f, buf, need, &written) == SEEN_OK && written == need, "serialize");
  check(seen_bloom_deserialize(buf, need, &copy, NULL) == SEEN_OK && seen_bloom_contains_one_u64(copy, 99) == 1,
        "deserialize");
  check(seen_bloom_view(buf, need, 0, &view, NULL) == SEEN_OK && seen_bloom_contains_one_u64(view, 99) == 1, "view");
  check(seen_bloom_add_one_u64(view, 5, NULL) == SEEN_ERR_READ_ONLY, "a view is read-only");
  check(seen_bloom_merge(copy, f) == SEEN_OK, "merge equal parameters");
  {
    seen_bloom* writable = NULL;
    check(seen_bloom_copy(view, &writable) == SEEN_OK && seen_bloom_add_one_u64(writable, 5, NULL) == SEEN_OK &&
              seen_bloom_contains_one_u64(writable, 99) == 1,
          "a copy of a view is writable and keeps the bits");
    seen_bloom_free(writable);
  }
  seen_bloom_create(2000, 0.01, 1, &other, NULL);
  check(seen_bloom_merge(copy, other) == SEEN_ERR_INCOMPATIBLE, "merge different sizes");
  seen_bloom_free(view); /* before buf goes: the view borrows it */
  buf[0] = 'X';
  check(seen_bloom_deserialize(buf, need, &bad, NULL) == SEEN_ERR_BAD_MAGIC && bad == NULL, "bad magic");
  check(seen_bloom_deserialize(buf, 10, &bad, NULL) == SEEN_ERR_TRUNCATED, "truncated");
  free(buf);
  seen_bloom_free(f);
  seen_bloom_free(copy);
  seen_bloom_free(other);
}

int main(void) {
  test_statuses();
  test_null_arguments();
  test_batches_and_single_keys();
  test_sizing_params_stats();
  test_blocks_in_place();
  test_serialization();
  return tap_finish();
}
