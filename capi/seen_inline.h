/*
 * seen_inline.h: single-key Bloom filter queries that compile into the caller's loop.
 *
 * For callers who want no call per key, or a loop the compiler sees whole: these functions read
 * the filter's blocks where the library keeps them (seen_bloom_get_blocks) by block scheme 1 of
 * docs/FORMAT.md, which is frozen, so the answers cannot drift from the library's;
 * tests/test_capi_inline.c and tests/test_simd_targets.cc hold them to it. They are plain C,
 * the same on every CPU. The exported seen_bloom_contains_one_u64 tests the block with the
 * library's SIMD kernel and may still be faster (on AVX2, 0.7x to 0.8x the inline probe's time:
 * bench/results/split_block.md); batches are faster than either.
 *
 * Only unkeyed filters are probed here: a keyed filter's hash (SipHash under its secret) stays
 * in the library, and the probe routes its queries there.
 *
 * Pure C99 (and C++), header only: every function is static inline. Thread safety is the
 * filter's: queries may run beside adds (they read whole aligned words), and the probe is valid
 * until seen_bloom_free(filter).
 */
#ifndef SEEN_INLINE_H
#define SEEN_INLINE_H

#include <stdint.h>

#include "seen.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a query needs of one filter, read once by seen_bloom_probe_init. Treat as opaque. */
typedef struct seen_bloom_probe {
  const uint64_t* words;   /* the blocks, 8 words each; NULL for a keyed filter */
  uint64_t blocks;
  uint64_t seed;
  uint64_t bitflip;        /* XXH3's constant for 8-byte inputs under this seed */
  uint32_t k;
  const seen_bloom* filter; /* where keyed queries go */
} seen_bloom_probe;

/* Reads f's shape and blocks into *probe. Returns SEEN_OK, or the status of the failed
 * seen_bloom_get_info / seen_bloom_get_blocks (SEEN_ERR_INVALID_ARGUMENT for a NULL f or probe,
 * reported to f as those calls report). The probe borrows f: free f only when done with it. */
static inline seen_status seen_bloom_probe_init(const seen_bloom* f, seen_bloom_probe* probe);

/* 1 if id may have been added to the filter, 0 if it certainly was not: the answer of
 * seen_bloom_contains_one_u64. The probe must come from a successful seen_bloom_probe_init. */
static inline int seen_bloom_probe_contains_u64(const seen_bloom_probe* probe, uint64_t id);

/* The same for a key whose hash the caller made, h = XXH3_64bits_withSeed(key, len, seed) with
 * xxhash.h and the filter's seed (seen_bloom_get_info): the answer of
 * seen_bloom_contains_one_key. A keyed filter's hash is secret: then it returns -1. */
static inline int seen_bloom_probe_contains_hash(const seen_bloom_probe* probe, uint64_t h);

/* ---- implementation ---------------------------------------------------------------------- */

static inline uint64_t seen_inline_rotl64(uint64_t x, unsigned r) {
  return (x << r) | (x >> (64 - r));
}

/* The high 64 bits of a * b: the block of a hash (block scheme 1, step 2). */
static inline uint64_t seen_inline_mul_high(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128; /* quiet under -pedantic */
  return (uint64_t)(((u128)a * b) >> 64);
#else
  const uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  const uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/* A word of the filter, read whole: an add beside us changes whole aligned words. */
static inline uint64_t seen_inline_load(const uint64_t* word) {
#if defined(__GNUC__) || defined(__clang__)
  return __atomic_load_n(word, __ATOMIC_RELAXED);
#else
  return *(const volatile uint64_t*)word;
#endif
}

static inline seen_status seen_bloom_probe_init(const seen_bloom* f, seen_bloom_probe* probe) {
  /* XXH3's default secret, bytes 8-15 and 16-23 as little-endian words (the XXH3 spec). */
  const uint64_t secret8 = 0x1cad21f72c81017cULL, secret16 = 0xdb979083e96dd4deULL;
  seen_bloom_info info;
  const uint8_t* blocks = NULL;
  seen_status status;
  uint32_t seed32;
  if (probe == NULL) return SEEN_ERR_INVALID_ARGUMENT;
  info.size = sizeof info;
  status = seen_bloom_get_info(f, &info);
  if (status == SEEN_OK && !info.keyed) status = seen_bloom_get_blocks(f, &blocks);
  if (status != SEEN_OK) return status;
  seed32 = (uint32_t)info.seed;
  seed32 = (seed32 >> 24) | ((seed32 >> 8) & 0xff00u) | ((seed32 << 8) & 0xff0000u) | (seed32 << 24);
  probe->words = (const uint64_t*)(const void*)blocks;
  probe->blocks = info.blocks;
  probe->seed = info.seed;
  probe->bitflip = (secret8 ^ secret16) - (info.seed ^ ((uint64_t)seed32 << 32));
  probe->k = info.k;
  probe->filter = f;
  return SEEN_OK;
}

static inline int seen_bloom_probe_contains_hash(const seen_bloom_probe* probe, uint64_t h) {
  /* Block scheme 1 (docs/FORMAT.md): odd constants frozen by the format. */
  static const uint32_t salt[8] = {0xf9b439fdu, 0x91d93081u, 0x8142c8ebu, 0x3ceaaf31u,
                                   0xa05f1119u, 0x627655dbu, 0xab13dfafu, 0x9dfb369bu};
  const uint32_t h32 = (uint32_t)h, k = probe->k;
  uint32_t word = (uint32_t)(h32 * 0x0944fe0du) >> 29, j;
  const uint64_t* block;
  uint64_t all = 1;
  if (probe->words == NULL) return -1;
  block = probe->words + 8 * seen_inline_mul_high(h, probe->blocks);
  /* k steps, no early exit: a branch per bit is a coin flip for absent keys. (All eight words
   * unrolled with constant salts, and k fixed at compile time, both measured slower in a loop
   * of finds over 10^6 and 10^8 keys.) */
  for (j = 0; j < k; ++j) {
    all &= seen_inline_load(block + word) >> ((uint32_t)(h32 * salt[word]) >> 26);
    word = (word + 1) & 7;
  }
  return (int)(all & 1);
}

static inline int seen_bloom_probe_contains_u64(const seen_bloom_probe* probe, uint64_t id) {
  /* XXH3-64 of the id's 8 little-endian bytes (its 4-to-8-byte path), the bitflip precomputed
   * from the seed; then XXH3's rrmxmx finish. */
  const uint64_t prime = 0x9fb21c651e98df25ULL;
  uint64_t h;
  if (probe->words == NULL) return seen_bloom_contains_one_u64(probe->filter, id);
  h = seen_inline_rotl64(id, 32) ^ probe->bitflip;
  h ^= seen_inline_rotl64(h, 49) ^ seen_inline_rotl64(h, 24);
  h *= prime;
  h ^= (h >> 35) + 8;
  h *= prime;
  return seen_bloom_probe_contains_hash(probe, h ^ (h >> 28));
}

#ifdef __cplusplus
}
#endif

#endif /* SEEN_INLINE_H */
