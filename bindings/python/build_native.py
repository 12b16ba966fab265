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
  SEEN_ERR_BUFFER_TOO_SMALL, SEEN_ERR_INTERNAL, ...
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

typedef struct seen_bloom_params {
  size_t size;
  uint64_t bytes;
  uint64_t blocks;
  uint32_t k;
  uint32_t read_only;
  uint64_t seed;
  uint64_t expected_items;
  double target_fpr;
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
"""


def main(output: str) -> None:
    ffibuilder = cffi.FFI()
    ffibuilder.cdef(DECLARATIONS)
    ffibuilder.set_source("seen._native", '#include "seen.h"')
    ffibuilder.emit_c_code(output)


if __name__ == "__main__":
    main(sys.argv[1])
