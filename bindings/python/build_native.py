"""Emits the C source of the cffi extension `seen._native` (API mode, out of line).

Meson runs this at build time and compiles the output against libseen; nothing here compiles
or links by itself. In API mode the C compiler checks every declaration below against the real
seen.h, so a drift between the two fails the build instead of corrupting calls.

usage: build_native.py OUTPUT.c
"""
import sys

import cffi

# The subset of seen.h the binding calls. `...` lets the compiler fill in values and layouts.
DECLARATIONS = """
typedef enum seen_status {
  SEEN_OK, SEEN_ERR_INVALID_ARGUMENT, SEEN_ERR_NO_MEMORY, SEEN_ERR_IO, SEEN_ERR_BAD_MAGIC,
  SEEN_ERR_UNSUPPORTED_VERSION, SEEN_ERR_TRUNCATED, SEEN_ERR_BAD_CHECKSUM, SEEN_ERR_INCONSISTENT,
  SEEN_ERR_WRONG_KIND, SEEN_ERR_TOO_LARGE, SEEN_ERR_READ_ONLY, SEEN_ERR_INCOMPATIBLE,
  SEEN_ERR_BUFFER_TOO_SMALL, SEEN_ERR_INTERNAL, SEEN_ERR_NOT_FOUND, ...
} seen_status;
const char* seen_status_string(seen_status s);
const char* seen_last_error(void);
uint32_t seen_version_number(void);

typedef struct seen_bloom seen_bloom;
#define SEEN_OPEN_READ_ONLY ...
#define SEEN_OPEN_READ_WRITE ...
#define SEEN_OPEN_NO_VERIFY ...

seen_status seen_bloom_create(uint64_t expected_items, double fpr, uint64_t seed,
                              seen_bloom** out);
void seen_bloom_free(seen_bloom* f);

seen_status seen_bloom_add_u64(seen_bloom* f, const uint64_t* ids, size_t n);
seen_status seen_bloom_contains_u64(const seen_bloom* f, const uint64_t* ids, size_t n,
                                    uint8_t* out);
seen_status seen_bloom_add_keys(seen_bloom* f, const uint8_t* data, const uint64_t* offsets,
                                size_t n);
seen_status seen_bloom_contains_keys(const seen_bloom* f, const uint8_t* data,
                                     const uint64_t* offsets, size_t n, uint8_t* out);
seen_status seen_bloom_put_u64(seen_bloom* f, uint64_t id, uint8_t* was_present);
seen_status seen_bloom_put_key(seen_bloom* f, const void* key, size_t len, uint8_t* was_present);
int seen_bloom_test_u64(const seen_bloom* f, uint64_t id);
int seen_bloom_test_key(const seen_bloom* f, const void* key, size_t len);

seen_status seen_bloom_merge(seen_bloom* dst, const seen_bloom* src);
seen_status seen_bloom_clear(seen_bloom* f);
seen_status seen_bloom_blocks_of_keys(const seen_bloom* f, const uint8_t* data,
                                      const uint64_t* offsets, size_t n, uint64_t* blocks);
seen_status seen_bloom_read_blocks(const seen_bloom* f, uint64_t first, uint64_t count,
                                   uint8_t* out);
seen_status seen_bloom_or_blocks(seen_bloom* f, uint64_t first, uint64_t count,
                                 const uint8_t* blocks);

typedef struct seen_bloom_params {
  size_t size;
  uint64_t bytes;
  uint64_t blocks;
  uint32_t k;
  uint32_t read_only;
  uint64_t seed;
  uint64_t expected_items;
  double target_fpr;
  uint32_t keyed;
  ...;
} seen_bloom_params;
seen_status seen_bloom_get_params(const seen_bloom* f, seen_bloom_params* params);

typedef struct seen_bloom_stats {
  size_t size;
  double fill_ratio;
  double approx_items;
  double predicted_fpr;
  ...;
} seen_bloom_stats;
seen_status seen_bloom_get_stats(const seen_bloom* f, seen_bloom_stats* stats);

seen_status seen_bloom_serialize(const seen_bloom* f, uint8_t* buf, size_t cap, size_t* written);
seen_status seen_bloom_deserialize(const uint8_t* buf, size_t len, seen_bloom** out);
seen_status seen_bloom_view(const uint8_t* buf, size_t len, uint32_t flags, seen_bloom** out);
seen_status seen_bloom_save(const seen_bloom* f, const char* path);
seen_status seen_bloom_open(const char* path, uint32_t flags, seen_bloom** out);
seen_status seen_bloom_sync(seen_bloom* f);
seen_status seen_bloom_copy(const seen_bloom* f, seen_bloom** out);
seen_status seen_bloom_create_keyed(uint64_t expected_items, double fpr, const uint8_t* key,
                                    size_t key_len, seen_bloom** out);
seen_status seen_bloom_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                  size_t key_len, seen_bloom** out);
seen_status seen_bloom_deserialize_keyed(const uint8_t* buf, size_t len, const uint8_t* key,
                                         size_t key_len, seen_bloom** out);

typedef struct seen_counting seen_counting;
seen_status seen_counting_create(uint64_t expected_items, double fpr, uint64_t seed,
                                 seen_counting** out);
void seen_counting_free(seen_counting* f);
seen_status seen_counting_add_u64(seen_counting* f, const uint64_t* ids, size_t n);
seen_status seen_counting_remove_u64(seen_counting* f, const uint64_t* ids, size_t n,
                                     uint8_t* removed);
seen_status seen_counting_contains_u64(const seen_counting* f, const uint64_t* ids, size_t n,
                                       uint8_t* out);
seen_status seen_counting_add_keys(seen_counting* f, const uint8_t* data,
                                   const uint64_t* offsets, size_t n);
seen_status seen_counting_remove_keys(seen_counting* f, const uint8_t* data,
                                      const uint64_t* offsets, size_t n, uint8_t* removed);
seen_status seen_counting_contains_keys(const seen_counting* f, const uint8_t* data,
                                        const uint64_t* offsets, size_t n, uint8_t* out);
seen_status seen_counting_put_u64(seen_counting* f, uint64_t id);
seen_status seen_counting_put_key(seen_counting* f, const void* key, size_t len);
seen_status seen_counting_delete_u64(seen_counting* f, uint64_t id);
seen_status seen_counting_delete_key(seen_counting* f, const void* key, size_t len);
int seen_counting_test_u64(const seen_counting* f, uint64_t id);
int seen_counting_test_key(const seen_counting* f, const void* key, size_t len);
seen_status seen_counting_clear(seen_counting* f);

typedef struct seen_counting_params {
  size_t size;
  uint64_t bytes;
  uint64_t blocks;
  uint32_t k;
  uint32_t read_only;
  uint64_t seed;
  uint64_t expected_items;
  double target_fpr;
  uint32_t counter_bits;
  ...;
} seen_counting_params;
seen_status seen_counting_get_params(const seen_counting* f, seen_counting_params* params);

typedef struct seen_counting_stats {
  size_t size;
  double approx_items;
  uint64_t saturated;
  double fill_ratio;
  double predicted_fpr;
  ...;
} seen_counting_stats;
seen_status seen_counting_get_stats(const seen_counting* f, seen_counting_stats* stats);

seen_status seen_counting_serialize(const seen_counting* f, uint8_t* buf, size_t cap,
                                    size_t* written);
seen_status seen_counting_deserialize(const uint8_t* buf, size_t len, seen_counting** out);
seen_status seen_counting_view(const uint8_t* buf, size_t len, uint32_t flags,
                               seen_counting** out);
seen_status seen_counting_save(const seen_counting* f, const char* path);
seen_status seen_counting_open(const char* path, uint32_t flags, seen_counting** out);
seen_status seen_counting_sync(seen_counting* f);

typedef struct seen_scalable seen_scalable;

typedef struct seen_scalable_options {
  size_t size;
  uint64_t initial_capacity;
  double fpr;
  double growth;
  double tightening;
  uint64_t seed;
  ...;
} seen_scalable_options;

typedef struct seen_scalable_info {
  size_t size;
  uint64_t items;
  uint32_t subfilters;
  uint32_t read_only;
  uint64_t bytes;
  double predicted_fpr;
  uint64_t initial_capacity;
  double fpr;
  double growth;
  double tightening;
  uint64_t seed;
  ...;
} seen_scalable_info;

seen_status seen_scalable_create(const seen_scalable_options* opts, seen_scalable** out);
void seen_scalable_free(seen_scalable* f);
seen_status seen_scalable_add_u64(seen_scalable* f, const uint64_t* ids, size_t n);
seen_status seen_scalable_contains_u64(const seen_scalable* f, const uint64_t* ids, size_t n,
                                       uint8_t* out);
seen_status seen_scalable_add_keys(seen_scalable* f, const uint8_t* data,
                                   const uint64_t* offsets, size_t n);
seen_status seen_scalable_contains_keys(const seen_scalable* f, const uint8_t* data,
                                        const uint64_t* offsets, size_t n, uint8_t* out);
seen_status seen_scalable_put_u64(seen_scalable* f, uint64_t id, uint8_t* was_present);
seen_status seen_scalable_put_key(seen_scalable* f, const void* key, size_t len,
                                  uint8_t* was_present);
int seen_scalable_test_u64(const seen_scalable* f, uint64_t id);
int seen_scalable_test_key(const seen_scalable* f, const void* key, size_t len);
seen_status seen_scalable_get_info(const seen_scalable* f, seen_scalable_info* info);
seen_status seen_scalable_serialize(const seen_scalable* f, uint8_t* buf, size_t cap,
                                    size_t* written);
seen_status seen_scalable_deserialize(const uint8_t* buf, size_t len, seen_scalable** out);
seen_status seen_scalable_save(const seen_scalable* f, const char* path);
seen_status seen_scalable_open(const char* path, uint32_t flags, seen_scalable** out);

typedef struct seen_window seen_window;
#define SEEN_WINDOW_COUNT ...
#define SEEN_WINDOW_TIME ...

typedef struct seen_window_options {
  size_t size;
  uint32_t mode;
  uint32_t span;
  uint32_t expected_items;
  uint32_t reserved;
  double fpr;
  double max_slack;
  uint64_t seed;
  uint64_t max_bytes;
  const uint8_t* key;
  size_t key_len;
  ...;
} seen_window_options;

typedef struct seen_window_info {
  size_t size;
  uint32_t mode;
  uint32_t layout;
  uint32_t span;
  uint32_t segments;
  uint64_t state_bytes;
  double slack;
  double predicted_fpr;
  uint64_t seed;
  uint64_t max_bytes;
  ...;
} seen_window_info;

seen_status seen_window_create(const seen_window_options* opts, uint64_t now, seen_window** out);
void seen_window_free(seen_window* w);
seen_status seen_window_add_u64(seen_window* w, const uint64_t* items, size_t n, uint64_t now);
seen_status seen_window_contains_u64(const seen_window* w, const uint64_t* items, size_t n,
                                     uint64_t now, uint8_t* out);
seen_status seen_window_add_keys(seen_window* w, const uint8_t* data, const uint64_t* offsets,
                                 size_t n, uint64_t now);
seen_status seen_window_contains_keys(const seen_window* w, const uint8_t* data,
                                      const uint64_t* offsets, size_t n, uint64_t now,
                                      uint8_t* out);
seen_status seen_window_get_info(const seen_window* w, seen_window_info* info);
typedef struct seen_window_saturation {
  size_t size;
  double fill;
  double predicted_fpr;
  uint32_t effective_span;
  uint64_t bytes;
  ...;
} seen_window_saturation;
seen_status seen_window_get_saturation(const seen_window* w, uint64_t now,
                                       seen_window_saturation* sat);
seen_status seen_window_serialize(const seen_window* w, uint8_t* buf, size_t cap,
                                  size_t* written);
seen_status seen_window_deserialize(const uint8_t* buf, size_t len, seen_window** out);

typedef struct seen_store seen_store;

typedef struct seen_store_options {
  size_t size;
  const seen_window_options* window;
  uint32_t idle_timeout;
  uint32_t reserved;
  uint64_t max_bytes;
  uint64_t expected_users;
  ...;
} seen_store_options;

typedef struct seen_store_stats {
  size_t size;
  uint64_t users;
  uint64_t bytes;
  uint64_t evictions;
  uint64_t expirations;
  uint64_t users_grown;
  uint64_t span_drops;
  ...;
} seen_store_stats;

seen_status seen_store_create(const seen_store_options* opts, seen_store** out);
void seen_store_free(seen_store* s);
seen_status seen_store_filter(const seen_store* s, uint64_t user, const uint64_t* candidates,
                              size_t n, uint64_t now, uint8_t* out_unseen);
seen_status seen_store_mark(seen_store* s, uint64_t user, const uint64_t* items, size_t n,
                            uint64_t now);
seen_status seen_store_take(seen_store* s, uint64_t user, const uint64_t* candidates, size_t n,
                            size_t want, uint64_t now, uint64_t* out_taken, size_t* out_count);
seen_status seen_store_expire(seen_store* s, uint64_t now, uint64_t* dropped);
seen_status seen_store_get_stats(const seen_store* s, seen_store_stats* stats);
typedef struct seen_store_saturation {
  size_t size;
  uint64_t users;
  uint64_t users_above_target;
  double mean_fill;
  double max_predicted_fpr;
  uint64_t users_span_limited;
  ...;
} seen_store_saturation;
seen_status seen_store_get_saturation(const seen_store* s, uint64_t now,
                                      seen_store_saturation* sat);
seen_status seen_store_get_user_saturation(const seen_store* s, uint64_t user, uint64_t now,
                                           seen_window_saturation* sat);
seen_status seen_store_get_window_info(const seen_store* s, seen_window_info* info);
seen_status seen_store_save(const seen_store* s, const char* path);
seen_status seen_store_open(const char* path, uint32_t flags, seen_store** out);
seen_status seen_store_open_keyed(const char* path, uint32_t flags, const uint8_t* key,
                                  size_t key_len, seen_store** out);
seen_status seen_window_deserialize_keyed(const uint8_t* buf, size_t len, const uint8_t* key,
                                          size_t key_len, seen_window** out);

typedef struct seen_simhash_idf seen_simhash_idf;
typedef struct seen_simhash_index seen_simhash_index;

typedef struct seen_simhash_options {
  size_t size;
  uint32_t ngram;
  uint64_t seed;
  const seen_simhash_idf* idf;
  ...;
} seen_simhash_options;

typedef struct seen_simhash_fingerprint {
  size_t size;
  uint64_t simhash;
  uint64_t exact_high;
  uint64_t exact_low;
  uint64_t features;
  ...;
} seen_simhash_fingerprint;

seen_status seen_simhash_text(const char* text, size_t len, const seen_simhash_options* options,
                              seen_simhash_fingerprint* out);
seen_status seen_simhash_text_batch(const uint8_t* data, const uint64_t* offsets, size_t n,
                                    const seen_simhash_options* options, uint64_t* simhashes,
                                    uint64_t* exact);
seen_status seen_simhash_hashes(const uint64_t* hashes, const float* weights, size_t n,
                                uint64_t* out);
seen_status seen_simhash_strings(const uint8_t* data, const uint64_t* offsets,
                                 const float* weights, size_t n, uint64_t seed, uint64_t* out);
uint32_t seen_simhash_distance(uint64_t a, uint64_t b);
seen_status seen_simhash_idf_create(const uint8_t* data, const uint64_t* offsets,
                                    const float* weights, size_t n, float default_weight,
                                    seen_simhash_idf** out);
void seen_simhash_idf_free(seen_simhash_idf* idf);

seen_status seen_simhash_index_create(uint32_t max_k, seen_simhash_index** out);
void seen_simhash_index_free(seen_simhash_index* index);
seen_status seen_simhash_index_add(seen_simhash_index* index, const uint64_t* fingerprints,
                                   const uint64_t* ids, size_t n);
seen_status seen_simhash_index_remove(seen_simhash_index* index, const uint64_t* ids, size_t n,
                                      uint64_t* removed);
seen_status seen_simhash_index_build(seen_simhash_index* index);
seen_status seen_simhash_index_query(const seen_simhash_index* index, uint64_t fingerprint,
                                     uint32_t k, uint64_t* ids, uint32_t* distances, size_t cap,
                                     size_t* found);
seen_status seen_simhash_index_any(const seen_simhash_index* index, const uint64_t* fingerprints,
                                   size_t n, uint32_t k, uint8_t* out);
seen_status seen_simhash_index_query_batch(const seen_simhash_index* index,
                                           const uint64_t* fingerprints, size_t n, uint32_t k,
                                           uint64_t* offsets, uint64_t* ids, uint32_t* distances,
                                           size_t cap);
seen_status seen_simhash_index_clusters(const seen_simhash_index* index, uint32_t k,
                                        uint64_t* ids, uint32_t* groups, size_t cap,
                                        size_t* count);

typedef struct seen_simhash_index_info {
  size_t size;
  uint64_t count;
  uint32_t max_k;
  uint32_t read_only;
  uint64_t bytes;
  ...;
} seen_simhash_index_info;
seen_status seen_simhash_index_get_info(const seen_simhash_index* index,
                                        seen_simhash_index_info* info);
seen_status seen_simhash_index_serialize(const seen_simhash_index* index, uint8_t* buf,
                                         size_t cap, size_t* written);
seen_status seen_simhash_index_deserialize(const uint8_t* buf, size_t len,
                                           seen_simhash_index** out);
seen_status seen_simhash_index_view(const uint8_t* buf, size_t len, uint32_t flags,
                                    seen_simhash_index** out);
seen_status seen_simhash_index_save(const seen_simhash_index* index, const char* path);
seen_status seen_simhash_index_open(const char* path, uint32_t flags, seen_simhash_index** out);

typedef struct seen_minhash_index seen_minhash_index;
typedef struct seen_minhash_options {
  size_t size;
  uint32_t bins;
  uint32_t shingle;
  uint64_t seed;
  double threshold;
  const uint8_t* key;
  size_t key_len;
  ...;
} seen_minhash_options;
seen_status seen_minhash_sketch_text(const char* text, size_t len, const seen_minhash_options* opts,
                                     uint32_t* out, size_t cap);
double seen_minhash_similarity(const uint32_t* a, const uint32_t* b, size_t bins);
seen_status seen_minhash_index_create(const seen_minhash_options* opts, seen_minhash_index** out);
void seen_minhash_index_free(seen_minhash_index* index);
seen_status seen_minhash_index_add_text(seen_minhash_index* index, uint64_t id, const char* text,
                                        size_t len);
seen_status seen_minhash_index_remove(seen_minhash_index* index, uint64_t id, int* removed);
seen_status seen_minhash_index_query_text(const seen_minhash_index* index, const char* text,
                                          size_t len, uint64_t* ids, double* similarities,
                                          size_t cap, size_t* found);
seen_status seen_minhash_index_size(const seen_minhash_index* index, uint64_t* texts,
                                    uint64_t* bytes);
seen_status seen_minhash_index_serialize(const seen_minhash_index* index, uint8_t* buf, size_t cap,
                                         size_t* written);
seen_status seen_minhash_index_deserialize(const uint8_t* buf, size_t len, const uint8_t* key,
                                           size_t key_len, seen_minhash_index** out);
seen_status seen_minhash_index_save(const seen_minhash_index* index, const char* path);
seen_status seen_minhash_index_open(const char* path, const uint8_t* key, size_t key_len,
                                    seen_minhash_index** out);
"""


def main(output: str) -> None:
    ffibuilder = cffi.FFI()
    ffibuilder.cdef(DECLARATIONS)
    ffibuilder.set_source("seen._native", '#include "seen.h"')
    ffibuilder.emit_c_code(output)


if __name__ == "__main__":
    main(sys.argv[1])
