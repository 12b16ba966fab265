/* Keyed mode through the C API, compiled as C. A keyed Bloom filter answers like any other,
 * its bytes open only with its key (a missing, wrong or unwanted key is refused with
 * SEEN_ERR_INCOMPATIBLE and a message), it merges only with its own key, and its rate on
 * keys never added is the target's. Keyed windows and stores keep the same rules. Prints
 * TAP. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seen.h"
#include "tap.h"

enum { N = 20000 };
static uint64_t ids[N], absent[N];
static uint8_t out[N];

static const uint8_t kKey[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint8_t kOtherKey[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17};

static size_t count_yes(size_t n) {
  size_t yes = 0, i;
  for (i = 0; i < n; ++i) yes += out[i];
  return yes;
}

static int has_text(const char* text) { return strstr(seen_last_error(), text) != NULL; }

static int holds(const uint8_t* bytes, size_t size, const uint8_t* part, size_t part_size) {
  size_t i;
  for (i = 0; i + part_size <= size; ++i) {
    if (memcmp(bytes + i, part, part_size) == 0) return 1;
  }
  return 0;
}

static void test_windows_and_stores(void) {
  seen_window_options wo;
  seen_store_options so;
  seen_window *w = NULL, *back = NULL;
  seen_store *s = NULL, *reopened = NULL;
  uint8_t buf[4096];
  size_t size = 0;
  uint64_t items[3] = {11, 22, 33};
  uint8_t found[3], unseen[3];
  char path[] = "/tmp/seen-keyed-store-XXXXXX";
  int fd;
  memset(&wo, 0, sizeof wo);
  wo.size = sizeof wo;
  wo.mode = SEEN_WINDOW_COUNT;
  wo.span = 500;
  wo.fpr = 0.01;
  wo.key = kKey;
  wo.key_len = sizeof kKey;
  check(seen_window_create(&wo, 0, &w, NULL) == SEEN_OK && seen_window_add_u64(w, items, 3, 0) == SEEN_OK &&
            seen_window_contains_u64(w, items, 3, 0, found) == SEEN_OK && found[0] && found[1] && found[2],
        "a keyed window finds its items");
  check(seen_window_serialize(w, buf, sizeof buf, &size) == SEEN_OK, "serialize the keyed window");
  check(seen_window_deserialize(buf, size, &back, NULL) == SEEN_ERR_INCOMPATIBLE && back == NULL,
        "its bytes need the key");
  check(seen_window_deserialize_keyed(buf, size, kKey, sizeof kKey, &back, NULL) == SEEN_OK &&
            seen_window_contains_u64(back, items, 3, 0, found) == SEEN_OK && found[0] && found[1] && found[2],
        "with it they answer");
  seen_window_free(back);
  wo.key_len = 8;
  check(seen_window_create(&wo, 0, &back, NULL) == SEEN_ERR_INVALID_ARGUMENT && back == NULL, "a short key is refused");

  wo.key_len = sizeof kKey;
  memset(&so, 0, sizeof so);
  so.size = sizeof so;
  so.window = &wo;
  check(seen_store_create(&so, &s, NULL) == SEEN_OK && seen_store_mark(s, 7, items, 3, 0) == SEEN_OK,
        "a keyed store marks");
  fd = mkstemp(path);
  close(fd);
  check(seen_store_save(s, path) == SEEN_OK, "and saves");
  check(seen_store_open(path, SEEN_OPEN_READ_ONLY, &reopened, NULL) == SEEN_ERR_INCOMPATIBLE && reopened == NULL,
        "its file needs the key");
  check(seen_store_open_keyed(path, SEEN_OPEN_READ_ONLY, kOtherKey, sizeof kOtherKey, &reopened, NULL) ==
            SEEN_ERR_INCOMPATIBLE,
        "another key is refused");
  check(seen_store_open_keyed(path, SEEN_OPEN_READ_ONLY, kKey, sizeof kKey, &reopened, NULL) == SEEN_OK &&
            seen_store_filter(reopened, 7, items, 3, 0, unseen) == SEEN_OK && !unseen[0] && !unseen[1] &&
            !unseen[2],
        "with it the user's items are seen");
  unlink(path);
  seen_store_free(reopened);
  seen_store_free(s);
  seen_window_free(w);
}

static void test_counting_and_scalable(void) {
  seen_counting *c = NULL, *c2 = NULL;
  seen_scalable *sc = NULL, *sc2 = NULL;
  seen_scalable_options so;
  uint8_t buf[1 << 16];
  size_t size = 0;
  char path[] = "/tmp/seen-keyed-scalable-XXXXXX";
  int fd;
  check(seen_counting_create_keyed(1000, 0.01, kKey, sizeof kKey, &c, NULL) == SEEN_OK &&
            seen_counting_add_u64(c, ids, 1000) == SEEN_OK,
        "a keyed counting filter");
  check(seen_counting_serialize(c, buf, sizeof buf, &size) == SEEN_OK &&
            seen_counting_deserialize(buf, size, &c2, NULL) == SEEN_ERR_INCOMPATIBLE,
        "its bytes need the key");
  check(seen_counting_deserialize_keyed(buf, size, kKey, sizeof kKey, &c2, NULL) == SEEN_OK &&
            seen_counting_contains_u64(c2, ids, 1000, out) == SEEN_OK && count_yes(1000) == 1000,
        "with it every key is found");
  {
    seen_counting_info info = {sizeof info};
    check(seen_counting_get_info(c2, &info) == SEEN_OK && info.keyed == 1 && info.seed == 0,
          "its info says keyed");
  }
  memset(&so, 0, sizeof so);
  so.size = sizeof so;
  so.initial_capacity = 100;
  so.fpr = 0.01;
  so.key = kKey;
  so.key_len = sizeof kKey;
  check(seen_scalable_create(&so, &sc, NULL) == SEEN_OK && seen_scalable_add_u64(sc, ids, 5000) == SEEN_OK,
        "a keyed scalable filter grows");
  fd = mkstemp(path);
  close(fd);
  check(seen_scalable_save(sc, path) == SEEN_OK &&
            seen_scalable_open(path, SEEN_OPEN_READ_ONLY, &sc2, NULL) == SEEN_ERR_INCOMPATIBLE && sc2 == NULL,
        "its file needs the key");
  check(seen_scalable_open_keyed(path, SEEN_OPEN_READ_ONLY, kKey, sizeof kKey, &sc2, NULL) == SEEN_OK &&
            seen_scalable_contains_u64(sc2, ids, 5000, out) == SEEN_OK && count_yes(5000) == 5000,
        "with it every key is found");
  unlink(path);
  seen_scalable_free(sc2);
  seen_scalable_free(sc);
  seen_counting_free(c2);
  seen_counting_free(c);
}

/* Keyed SimHash of byte features: the same key gives the same fingerprint, another key or
 * none a different one (64 bits each: equal by chance once in 2^64), and the error channel
 * names a missing key. */
static void test_simhash_strings(void) {
  const uint8_t data[] = "applebananacherrydate";
  const uint64_t offsets[] = {0, 5, 11, 17, 21};
  uint64_t keyed = 0, again = 0, other = 0, plain = 0;
  seen_error err;
  check(seen_simhash_strings_keyed(data, offsets, NULL, 4, 7, kKey, sizeof kKey, &keyed, NULL) == SEEN_OK &&
            seen_simhash_strings_keyed(data, offsets, NULL, 4, 7, kKey, sizeof kKey, &again, NULL) == SEEN_OK &&
            keyed == again,
        "keyed SimHash: one key, one fingerprint");
  check(seen_simhash_strings_keyed(data, offsets, NULL, 4, 7, kOtherKey, sizeof kOtherKey, &other, NULL) == SEEN_OK &&
            seen_simhash_strings(data, offsets, NULL, 4, 7, &plain, NULL) == SEEN_OK && other != keyed && plain != keyed,
        "keyed SimHash: another key, or none, gives another fingerprint");
  check(seen_simhash_strings_keyed(data, offsets, NULL, 4, 7, NULL, 0, &keyed, &err) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(err.message, "key is NULL") != NULL,
        "keyed SimHash: a NULL key is refused, saying why");
  check(seen_simhash_strings_keyed(data, offsets, NULL, 4, 7, kKey, 15, &keyed, &err) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(err.message, "16 to 64 bytes") != NULL,
        "keyed SimHash: a short key is refused, saying why");
  check(seen_simhash_strings_keyed(data, NULL, NULL, 4, 7, kKey, sizeof kKey, &keyed, &err) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(err.message, "seen_simhash_strings_keyed: offsets is NULL") != NULL &&
            seen_simhash_strings(data, offsets, NULL, 4, 7, NULL, &err) == SEEN_ERR_INVALID_ARGUMENT &&
            strstr(err.message, "seen_simhash_strings: out is NULL") != NULL,
        "SimHash of strings: a NULL argument is named, with the function called");
}

int main(void) {
  seen_bloom *f = NULL, *g = NULL, *plain = NULL;
  seen_bloom_info params;
  uint8_t* bytes;
  size_t size = 0, i;
  char path[] = "/tmp/seen-keyed-XXXXXX";
  int fd;
  for (i = 0; i < N; ++i) { ids[i] = mix(2 * i); absent[i] = mix(2 * i + 1); }
  test_simhash_strings();

  check(seen_bloom_create_keyed(N, 0.01, kKey, 15, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT && f == NULL &&
            has_text("16 to 64 bytes"),
        "a key under 16 bytes is refused, saying why");
  check(seen_bloom_create_keyed(N, 0.01, NULL, 16, &f, NULL) == SEEN_ERR_INVALID_ARGUMENT, "a NULL key is refused");
  check(seen_bloom_create_keyed(N, 0.01, kKey, sizeof kKey, &f, NULL) == SEEN_OK, "create keyed");
  check(seen_bloom_add_u64(f, ids, N) == SEEN_OK && seen_bloom_contains_u64(f, ids, N, out) == SEEN_OK &&
            count_yes(N) == N,
        "every key added is found");
  seen_bloom_contains_u64(f, absent, N, out);
  /* 1% of 20,000 is 200 +- 14; 260 is four standard deviations. */
  check(count_yes(N) < 260, "keys never added read seen at about the target rate");
  params.size = sizeof params;
  check(seen_bloom_get_info(f, &params) == SEEN_OK && params.keyed == 1 && params.seed == 0,
        "params say keyed");

  seen_bloom_serialize(f, NULL, 0, &size);
  bytes = (uint8_t*)malloc(size);
  check(seen_bloom_serialize(f, bytes, size, &size) == SEEN_OK, "serialize");
  check(!holds(bytes, size, kKey, sizeof kKey), "the key is nowhere in the bytes");
  check(seen_bloom_deserialize(bytes, size, &g, NULL) == SEEN_ERR_INCOMPATIBLE && g == NULL &&
            has_text("with a secret key"),
        "without the key the bytes are refused, saying why");
  check(seen_bloom_deserialize_keyed(bytes, size, kOtherKey, sizeof kOtherKey, &g, NULL) == SEEN_ERR_INCOMPATIBLE &&
            has_text("another secret key"),
        "another key is refused");
  check(seen_bloom_deserialize_keyed(bytes, size, kKey, sizeof kKey, &g, NULL) == SEEN_OK, "the key opens them");
  seen_bloom_contains_u64(g, ids, N, out);
  check(count_yes(N) == N, "the copy finds every key");
  check(seen_bloom_merge(g, f) == SEEN_OK, "keyed filters of one key merge");

  check(seen_bloom_create(N, 0.01, 0, &plain, NULL) == SEEN_OK, "an unkeyed filter");
  check(seen_bloom_merge(plain, f) == SEEN_ERR_INCOMPATIBLE && has_text("keyed"),
        "keyed and unkeyed filters do not merge");

  fd = mkstemp(path);
  close(fd);
  check(seen_bloom_save(f, path) == SEEN_OK, "save keyed");
  seen_bloom_free(g);
  g = NULL;
  check(seen_bloom_open(path, SEEN_OPEN_READ_ONLY, &g, NULL) == SEEN_ERR_INCOMPATIBLE && g == NULL,
        "open without the key is refused");
  check(seen_bloom_open_keyed(path, SEEN_OPEN_READ_ONLY, kKey, sizeof kKey, &g, NULL) == SEEN_OK, "open with the key");
  seen_bloom_contains_u64(g, ids, N, out);
  check(count_yes(N) == N, "the opened file finds every key");
  seen_bloom_free(g);
  g = NULL;
  check(seen_bloom_save(plain, path) == SEEN_OK &&
            seen_bloom_open_keyed(path, SEEN_OPEN_READ_ONLY, kKey, sizeof kKey, &g, NULL) == SEEN_ERR_INCOMPATIBLE &&
            has_text("without a secret key"),
        "an unkeyed file refuses a key");
  check(seen_bloom_open_keyed(path, SEEN_OPEN_READ_ONLY, NULL, 0, &g, NULL) == SEEN_OK, "and opens without one");
  unlink(path);
  free(bytes);
  seen_bloom_free(g);
  seen_bloom_free(plain);
  seen_bloom_free(f);
  test_windows_and_stores();
  test_counting_and_scalable();
  return tap_finish();
}
