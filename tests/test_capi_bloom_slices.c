/* Block-range slices through the C API, compiled as C: a filter assembled from ranges, each
 * built from only the keys routed to it, equals one filter of every key, byte for byte.
 * Prints TAP. */
#include <stdlib.h>
#include <string.h>

#include "seen.h"
#include "tap.h"

enum { N = 20000, RANGES = 7 };

static uint8_t* serialize(const seen_bloom* f, size_t* len) {
  uint8_t* buf;
  seen_bloom_serialize(f, NULL, 0, len);
  buf = malloc(*len);
  seen_bloom_serialize(f, buf, *len, len);
  return buf;
}

int main(void) {
  static uint64_t ids[N], blocks[N], key_blocks[3], range_ids[N];
  static const uint8_t key_data[] = "alicebobcarol";
  static const uint64_t key_offsets[] = {0, 5, 8, 13};
  seen_bloom *whole = NULL, *route = NULL, *assembled = NULL;
  seen_bloom_info p;
  uint64_t r, first, count, per_range, i;
  size_t a_len, b_len;
  uint8_t *a, *b, *slice;
  int in_range = 1, ranges_ok = 1;

  for (i = 0; i < N; ++i) ids[i] = mix(i);
  check(seen_bloom_create(N, 0.01, 9, &whole, NULL) == SEEN_OK, "create the whole filter");
  seen_bloom_add_u64(whole, ids, N);
  seen_bloom_add_keys(whole, key_data, key_offsets, 3);
  seen_bloom_create(N, 0.01, 9, &route, NULL);
  seen_bloom_create(N, 0.01, 9, &assembled, NULL);
  memset(&p, 0, sizeof p);
  p.size = sizeof p;
  seen_bloom_get_info(route, &p);
  check(seen_bloom_blocks_of_u64(route, ids, N, blocks) == SEEN_OK, "route ids to blocks");
  check(seen_bloom_blocks_of_keys(route, key_data, key_offsets, 3, key_blocks) == SEEN_OK,
        "route byte keys to blocks");
  for (i = 0; i < N; ++i) in_range &= blocks[i] < p.blocks;
  check(in_range && key_blocks[0] < p.blocks, "every block index is inside the filter");

  per_range = (p.blocks + RANGES - 1) / RANGES;
  slice = malloc(per_range * 64);
  for (r = 0; r < RANGES; ++r) {
    seen_bloom* part = NULL;
    uint64_t n = 0;
    first = r * per_range;
    count = first + per_range <= p.blocks ? per_range : p.blocks - first;
    for (i = 0; i < N; ++i) {
      if (blocks[i] >= first && blocks[i] < first + count) range_ids[n++] = ids[i];
    }
    seen_bloom_create(N, 0.01, 9, &part, NULL);
    seen_bloom_add_u64(part, range_ids, n);
    for (i = 0; i < 3; ++i) {
      if (key_blocks[i] >= first && key_blocks[i] < first + count) {
        seen_bloom_add_one_key(part, key_data + key_offsets[i], key_offsets[i + 1] - key_offsets[i],
                           NULL);
      }
    }
    ranges_ok &= seen_bloom_read_blocks(part, first, count, slice) == SEEN_OK;
    ranges_ok &= seen_bloom_or_blocks(assembled, first, count, slice) == SEEN_OK;
    seen_bloom_free(part);
  }
  check(ranges_ok, "read and OR every range");
  a = serialize(whole, &a_len);
  b = serialize(assembled, &b_len);
  check(a_len == b_len && memcmp(a, b, a_len) == 0, "the assembled filter equals the whole one");

  check(seen_bloom_read_blocks(whole, p.blocks, 1, slice) == SEEN_ERR_INVALID_ARGUMENT,
        "reading past the last block is refused");
  check(seen_bloom_or_blocks(assembled, p.blocks - 1, 2, slice) == SEEN_ERR_INVALID_ARGUMENT,
        "OR past the last block is refused");
  check(seen_bloom_read_blocks(whole, 0, 0, NULL) == SEEN_OK, "an empty range is fine");
  check(seen_bloom_blocks_of_u64(NULL, ids, 1, blocks) == SEEN_ERR_INVALID_ARGUMENT,
        "a NULL filter is refused");
  free(a);
  free(b);
  free(slice);
  seen_bloom_free(whole);
  seen_bloom_free(route);
  seen_bloom_free(assembled);
  return tap_finish();
}
