/* seen_inline.h, compiled as C: the inline probe answers every query as the library does, for
 * filters of several seeds, k and block counts, created or viewed in place, and sees adds made
 * after it was set up; a keyed filter's queries go to the library and its hash is refused.
 * (tests/test_simd_targets.cc holds it to the library on every SIMD target.) Prints TAP. */
#define _POSIX_C_SOURCE 200809L /* posix_memalign */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "seen.h"
#include "seen_inline.h"
#include "tap.h"

enum { N = 20000 };

/* 1 if the probe gives the library's answer to every id in [from, from + n) mixed. */
static int ids_agree(const seen_bloom* f, const seen_bloom_probe* probe, uint64_t from, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) {
    const uint64_t id = mix(from + i);
    if (seen_bloom_probe_contains_u64(probe, id) != seen_bloom_contains_one_u64(f, id)) return 0;
  }
  return 1;
}

/* 1 if the probe of the XXH3 hash gives the library's answer to every byte key of 1 to 40
 * bytes drawn from the ids. */
static int keys_agree(const seen_bloom* f, const seen_bloom_probe* probe, uint64_t seed) {
  uint64_t words[5];
  size_t i, len;
  for (i = 0; i < N / 10; ++i) {
    for (len = 0; len < 5; ++len) words[len] = mix(i * 5 + len);
    len = 1 + i % 40;
    if (seen_bloom_probe_contains_hash(probe, XXH3_64bits_withSeed(words, len, seed)) !=
        seen_bloom_contains_one_key(f, words, len)) {
      return 0;
    }
  }
  return 1;
}

static void test_unkeyed_filters(void) {
  static const uint64_t seeds[] = {0, 1, 0xdeadbeef, 0x0123456789abcdefULL, ~0ULL};
  static const double fprs[] = {0.3, 0.01, 0.0001}; /* k from 2 to 8 */
  static const uint64_t items[] = {1, 777, N};
  uint64_t ids[N];
  size_t s, p, n, i;
  int created = 1, agree = 1, found = 1;
  for (i = 0; i < N; ++i) ids[i] = mix(i);
  for (s = 0; s < sizeof seeds / sizeof *seeds; ++s) {
    for (p = 0; p < sizeof fprs / sizeof *fprs; ++p) {
      for (n = 0; n < sizeof items / sizeof *items; ++n) {
        seen_bloom* f = NULL;
        seen_bloom_probe probe;
        created &= seen_bloom_create(items[n], fprs[p], seeds[s], &f, NULL) == SEEN_OK &&
                   seen_bloom_probe_init(f, &probe) == SEEN_OK;
        if (f == NULL) continue;
        /* Added after the probe was set up: it reads the blocks where they live. */
        seen_bloom_add_u64(f, ids, items[n]);
        for (i = 0; i < items[n]; ++i) found &= seen_bloom_probe_contains_u64(&probe, ids[i]) == 1;
        agree &= ids_agree(f, &probe, 0, N) && ids_agree(f, &probe, 1000000, N) &&
                 keys_agree(f, &probe, seeds[s]);
        seen_bloom_free(f);
      }
    }
  }
  check(created, "a probe is set up on filters of every seed, k and size");
  check(found, "the probe finds every id added");
  check(agree, "the probe answers every id and hashed key as the library does");
}

static void test_viewed_filter(void) {
  uint64_t ids[N];
  seen_bloom *f = NULL, *view = NULL;
  seen_bloom_probe probe = {0};
  size_t size = 0, i;
  void* buf = NULL;
  for (i = 0; i < N; ++i) ids[i] = mix(i);
  seen_bloom_create(N, 0.01, 9, &f, NULL);
  seen_bloom_add_u64(f, ids, N);
  seen_bloom_serialize(f, NULL, 0, &size);
  if (posix_memalign(&buf, 64, size) != 0) buf = NULL;
  check(buf != NULL && seen_bloom_serialize(f, buf, size, &size) == SEEN_OK &&
            seen_bloom_view(buf, size, 0, &view, NULL) == SEEN_OK &&
            seen_bloom_probe_init(view, &probe) == SEEN_OK,
        "a probe is set up on a filter viewed in place");
  check(view != NULL && ids_agree(view, &probe, 0, 2 * N), "the probe of a view answers as the library");
  seen_bloom_free(view);
  seen_bloom_free(f);
  free(buf);
}

static void test_keyed_filter(void) {
  static const uint8_t key[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  uint64_t ids[N];
  seen_bloom* f = NULL;
  seen_bloom_probe probe = {0};
  size_t i;
  int all_found = 1;
  for (i = 0; i < N; ++i) ids[i] = mix(i);
  check(seen_bloom_create_keyed(N, 0.01, key, sizeof key, &f, NULL) == SEEN_OK &&
            seen_bloom_add_u64(f, ids, N) == SEEN_OK && seen_bloom_probe_init(f, &probe) == SEEN_OK,
        "a probe is set up on a keyed filter");
  for (i = 0; i < N; ++i) all_found &= seen_bloom_probe_contains_u64(&probe, ids[i]) == 1;
  check(all_found && ids_agree(f, &probe, 1000000, N), "a keyed filter's ids are answered by the library");
  check(seen_bloom_probe_contains_hash(&probe, XXH3_64bits_withSeed(ids, 8, 0)) == -1,
        "a keyed filter refuses a caller's hash");
  seen_bloom_free(f);
}

static void test_refusals(void) {
  seen_bloom* f = NULL;
  seen_bloom_probe probe = {0};
  seen_bloom_create(100, 0.01, 0, &f, NULL);
  check(seen_bloom_probe_init(NULL, &probe) == SEEN_ERR_INVALID_ARGUMENT, "a NULL filter is refused");
  check(seen_bloom_probe_init(f, NULL) == SEEN_ERR_INVALID_ARGUMENT, "a NULL probe is refused");
  seen_bloom_free(f);
}

int main(void) {
  test_unkeyed_filters();
  test_viewed_filter();
  test_keyed_filter();
  test_refusals();
  return tap_finish();
}
