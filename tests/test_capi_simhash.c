/* The SimHash C API, compiled as C: fingerprints, NULL and size handling, the index against
 * a brute-force scan, batches, clusters, and the serialized forms. Prints TAP. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seen.h"
#include "tap.h"

static seen_simhash_fingerprint text(const char* s) {
  seen_simhash_fingerprint f;
  memset(&f, 0, sizeof f);
  f.size = sizeof f;
  seen_simhash_text(s, strlen(s), NULL, &f, NULL);
  return f;
}

static void test_fingerprints(void) {
  seen_simhash_fingerprint a = text("Hello, World!");
  seen_simhash_fingerprint b = text("ＨＥＬＬＯ　ｗｏｒｌｄ");
  seen_simhash_fingerprint empty = text("");
  seen_simhash_options options;
  seen_simhash_fingerprint small;
  uint64_t fp = 1, hashes[2] = {0x00FF, 0x0F0F};
  float weights[2] = {1.0f, 3.0f};
  check(a.simhash == 0x94456805082048bcULL, "the shared vector of \"Hello, World!\"");
  check(a.simhash == b.simhash && a.exact_low == b.exact_low && a.exact_high == b.exact_high,
        "width and case fold to the same fingerprints");
  check(a.features == 2, "two word tokens");
  check(empty.simhash == 0 && empty.features == 0, "empty text: simhash 0, no features");
  small.size = 0;
  check(seen_simhash_text("abc", 3, NULL, &small, NULL) == SEEN_ERR_INVALID_ARGUMENT, "out->size unset is refused");
  small.size = sizeof(size_t) + sizeof(uint64_t);
  check(seen_simhash_text("abc", 3, NULL, &small, NULL) == SEEN_OK && small.size == sizeof(size_t) + 8 &&
            small.simhash == text("abc").simhash,
        "a short out struct gets only what fits");
  check(seen_simhash_text(NULL, 5, NULL, &small, NULL) == SEEN_ERR_INVALID_ARGUMENT, "NULL text with len > 0");
  check(seen_simhash_text(NULL, 0, NULL, &small, NULL) == SEEN_OK, "NULL text with len 0");
  memset(&options, 0, sizeof options);
  options.size = sizeof options;
  options.ngram = 9;
  check(seen_simhash_text("x", 1, &options, &small, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(seen_last_error(), "ngram") != NULL,
        "ngram 9 is refused, naming ngram");
  options.ngram = 3;
  check(seen_simhash_text("你好世界", strlen("你好世界"), &options, &small, NULL) == SEEN_OK &&
            small.simhash != text("你好世界").simhash,
        "ngram changes CJK fingerprints");
  check(seen_simhash_text("\xff\x00\xfe", 3, NULL, &small, NULL) == SEEN_OK && small.simhash == 0,
        "invalid UTF-8 and NUL are separators, never errors");
  check(seen_simhash_hashes(hashes, weights, 2, &fp, NULL) == SEEN_OK && fp == 0x0F0F,
        "weighted features: the heavier hash wins every disputed bit");
  check(seen_simhash_hashes(NULL, NULL, 0, &fp, NULL) == SEEN_OK && fp == 0, "no features: 0");
  check(seen_simhash_hashes(hashes, NULL, 2, NULL, NULL) == SEEN_ERR_INVALID_ARGUMENT, "NULL out");
  check(seen_simhash_distance(0, 0xFF) == 8 && seen_simhash_distance(~0ULL, 0) == 64, "distance");
}

static void test_batch_and_idf(void) {
  const char* data = "hello world你好世界";
  uint64_t offsets[3] = {0, 11, 23}, simhashes[2], exact[4];
  float weight = 5.0f;
  uint64_t idf_offsets[2] = {0, 5};
  seen_simhash_idf* idf = NULL;
  seen_simhash_options options;
  seen_simhash_fingerprint f;
  check(seen_simhash_text_batch((const uint8_t*)data, offsets, 2, NULL, simhashes, exact, NULL) == SEEN_OK,
        "text batch");
  check(simhashes[0] == text("hello world").simhash && simhashes[1] == text("你好世界").simhash &&
            exact[1] == text("hello world").exact_low,
        "batch answers as single calls");
  check(seen_simhash_text_batch(NULL, NULL, 0, NULL, NULL, NULL, NULL) == SEEN_OK, "n == 0 batch");
  check(seen_simhash_idf_create((const uint8_t*)"WORLD", idf_offsets, &weight, 1, 1.0f, &idf, NULL) == SEEN_OK,
        "idf table");
  memset(&options, 0, sizeof options);
  options.size = sizeof options;
  options.idf = idf;
  f.size = sizeof f;
  check(seen_simhash_text("hello world", 11, &options, &f, NULL) == SEEN_OK &&
            f.simhash != text("hello world").simhash,
        "idf weights change the fingerprint");
  seen_simhash_idf_free(idf);
  seen_simhash_idf_free(NULL);
}

enum { N = 20000, Q = 2000 };
static uint64_t fps[N], ids[N];

static size_t brute(uint64_t q, uint32_t k) {
  size_t i, count = 0;
  for (i = 0; i < N; ++i) count += seen_simhash_distance(fps[i], q) <= k;
  return count;
}

static void test_index(void) {
  seen_simhash_index* index = (seen_simhash_index*)1;
  static uint64_t queries[Q], offsets[Q + 1], out_ids[64];
  static uint8_t any[Q];
  uint32_t dist[64];
  size_t i, found = 0, mismatches = 0, total = 0;
  uint64_t removed = 0;
  seen_simhash_index_info info;
  check(seen_simhash_index_create(8, &index, NULL) == SEEN_ERR_INVALID_ARGUMENT && index == NULL, "max_k 8 is refused");
  check(seen_simhash_index_create(3, &index, NULL) == SEEN_OK, "create");
  for (i = 0; i < N; ++i) {
    /* families of four near fingerprints */
    fps[i] = mix(i / 4) ^ (i % 4 ? 1ULL << (mix(i) % 64) : 0) ^ (i % 4 == 3 ? 6ULL : 0);
    ids[i] = i;
  }
  check(seen_simhash_index_add(index, fps, ids, N) == SEEN_OK, "add");
  check(seen_simhash_index_add(NULL, fps, ids, 1) == SEEN_ERR_INVALID_ARGUMENT, "add to NULL");
  check(seen_simhash_index_add(index, NULL, NULL, 0) == SEEN_OK, "add n == 0");
  check(seen_simhash_index_build(index) == SEEN_OK, "build");
  for (i = 0; i < Q; ++i) queries[i] = fps[mix(i) % N] ^ (1ULL << (i % 64)) ^ (i % 3 ? 0 : 1ULL << 7);
  for (i = 0; i < Q; ++i) {
    seen_status s = seen_simhash_index_query(index, queries[i], 3, out_ids, dist, 64, &found);
    size_t j;
    if (s != SEEN_OK || found != brute(queries[i], 3)) ++mismatches;
    for (j = 1; s == SEEN_OK && j < found; ++j) mismatches += dist[j - 1] > dist[j];
    for (j = 0; s == SEEN_OK && j < found; ++j) {
      mismatches += seen_simhash_distance(fps[out_ids[j]], queries[i]) != dist[j];
    }
  }
  check(mismatches == 0, "query agrees with brute force, sorted by distance");
  check(seen_simhash_index_any(index, queries, Q, 3, any) == SEEN_OK, "any batch");
  mismatches = 0;
  for (i = 0; i < Q; ++i) mismatches += any[i] != (brute(queries[i], 3) > 0);
  check(mismatches == 0, "any agrees with brute force");
  check(seen_simhash_index_query(index, fps[0], 4, out_ids, dist, 64, &found) == SEEN_ERR_INVALID_ARGUMENT,
        "k over max_k is refused");
  check(seen_simhash_index_query(index, fps[0], 3, NULL, NULL, 0, &found) == SEEN_ERR_BUFFER_TOO_SMALL &&
            found >= 1,
        "cap 0 counts the matches");
  check(seen_simhash_index_query_batch(index, queries, Q, 3, offsets, NULL, NULL, 0) == SEEN_ERR_BUFFER_TOO_SMALL,
        "batch query reports the room it needs");
  total = (size_t)offsets[Q];
  {
    uint64_t* all_ids = malloc(total * sizeof *all_ids);
    uint32_t* all_dist = malloc(total * sizeof *all_dist);
    check(seen_simhash_index_query_batch(index, queries, Q, 3, offsets, all_ids, all_dist, total) == SEEN_OK,
          "batch query");
    mismatches = 0;
    for (i = 0; i < Q; ++i) mismatches += offsets[i + 1] - offsets[i] != brute(queries[i], 3);
    check(mismatches == 0, "batch query agrees with brute force");
    free(all_ids);
    free(all_dist);
  }
  info.size = sizeof info;
  check(seen_simhash_index_get_info(index, &info) == SEEN_OK && info.count == N && info.max_k == 3 &&
            info.read_only == 0 && info.bytes > 28ULL * N,
        "info");
  {
    uint64_t gone[2] = {0, 1};
    check(seen_simhash_index_remove(index, gone, 2, &removed) == SEEN_OK && removed == 2, "remove");
    check(seen_simhash_index_query(index, fps[0], 0, out_ids, dist, 64, &found) == SEEN_OK && found == 0,
          "a removed pair is gone");
  }
  seen_simhash_index_free(index);
  seen_simhash_index_free(NULL);
}

static void test_clusters_and_files(void) {
  seen_simhash_index *index = NULL, *copy = NULL, *view = NULL, *mapped = NULL, *bad = NULL;
  uint64_t f[5] = {0x1111, 0x1113, 0x1117, 0xFFFF0000FFFF0000ULL, 0x1111};
  uint64_t i5[5] = {10, 11, 12, 13, 14}, cluster_ids[5], out_ids[8];
  uint32_t groups[5];
  size_t count = 0, written = 0, found = 0;
  uint8_t* buf;
  char path[] = "/tmp/seen-capi-simhash-XXXXXX";
  int fd = mkstemp(path);
  seen_simhash_index_create(3, &index, NULL);
  seen_simhash_index_add(index, f, i5, 5);
  check(seen_simhash_index_clusters(index, 3, NULL, NULL, 0, &count) == SEEN_ERR_BUFFER_TOO_SMALL && count == 5,
        "clusters report the room they need");
  check(seen_simhash_index_clusters(index, 1, cluster_ids, groups, 5, &count) == SEEN_OK, "clusters");
  {
    int g10 = -1, g11 = -1, g12 = -1, g13 = -1, g14 = -1, i;
    for (i = 0; i < 5; ++i) {
      if (cluster_ids[i] == 10) g10 = (int)groups[i];
      if (cluster_ids[i] == 11) g11 = (int)groups[i];
      if (cluster_ids[i] == 12) g12 = (int)groups[i];
      if (cluster_ids[i] == 13) g13 = (int)groups[i];
      if (cluster_ids[i] == 14) g14 = (int)groups[i];
    }
    /* 12 is 1 from 11 but 2 from 10, the smallest id and so the representative: no chain. */
    check(g10 == g11 && g10 == g14 && g12 != g10 && g13 != g10 && g13 != g12,
          "within k=1 of the representative (10) only: 12 is not chained in through 11");
  }
  check(seen_simhash_index_serialize(index, NULL, 0, &written) == SEEN_OK && written > 128, "serialized size");
  buf = malloc(written);
  check(seen_simhash_index_serialize(index, buf, written - 1, &written) == SEEN_ERR_BUFFER_TOO_SMALL, "cap too small");
  check(seen_simhash_index_serialize(index, buf, written, &written) == SEEN_OK, "serialize");
  check(seen_simhash_index_deserialize(buf, written, &copy, NULL) == SEEN_OK, "deserialize");
  check(seen_simhash_index_view(buf, written, 0, &view, NULL) == SEEN_OK, "view");
  check(seen_simhash_index_add(view, f, i5, 1) == SEEN_ERR_READ_ONLY, "a view is read-only");
  check(seen_simhash_index_query(copy, 0x1111, 0, out_ids, NULL, 8, &found) == SEEN_OK && found == 2,
        "the copy answers");
  buf[written - 1] ^= 1;
  check(seen_simhash_index_deserialize(buf, written, &bad, NULL) == SEEN_ERR_BAD_CHECKSUM && bad == NULL,
        "a damaged payload is refused");
  check(seen_simhash_index_save(index, path) == SEEN_OK, "save");
  check(seen_simhash_index_open(path, SEEN_OPEN_WRITE_IN_PLACE, &mapped, NULL) == SEEN_ERR_INVALID_ARGUMENT &&
            seen_simhash_index_open(path, SEEN_OPEN_PRIVATE_COPY, &mapped, NULL) == SEEN_ERR_INVALID_ARGUMENT,
        "writable opens are refused");
  check(seen_simhash_index_open(path, SEEN_OPEN_READ_ONLY, &mapped, NULL) == SEEN_OK, "open");
  check(seen_simhash_index_query(mapped, 0x1110, 1, out_ids, NULL, 8, &found) == SEEN_OK && found == 2,
        "the mapped index answers");
  check(seen_simhash_index_remove(mapped, i5, 1, NULL) == SEEN_ERR_READ_ONLY, "mapped is read-only");
  seen_simhash_index_free(mapped);
  check(seen_simhash_index_open("/nonexistent/x.seen", SEEN_OPEN_READ_ONLY, &mapped, NULL) == SEEN_ERR_IO &&
            mapped == NULL,
        "missing file is an I/O error");
  seen_simhash_index_free(index);
  seen_simhash_index_free(copy);
  seen_simhash_index_free(view);  /* before its buffer goes */
  free(buf);
  unlink(path);
  if (fd >= 0) close(fd);
}

int main(void) {
  test_fingerprints();
  test_batch_and_idf();
  test_index();
  test_clusters_and_files();
  return tap_finish();
}
