// Contract 1 of DESIGN: a key's hash is XXH3-64 of its bytes with the filter's seed; an
// integer id hashes as its 8 little-endian bytes. Only the core hashes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace seen {

inline uint64_t HashBytes(const void* data, size_t len, uint64_t seed) {
  return XXH3_64bits_withSeed(data, len, seed);
}

// The id's in-memory bytes are its little-endian bytes on every target we build for.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "seen assumes a little-endian host");

inline uint64_t HashU64(uint64_t id, uint64_t seed) {
  return XXH3_64bits_withSeed(&id, sizeof id, seed);
}

// Batch form of HashU64 for n ids, SIMD through Highway (core/kernels.cc).
void HashU64Batch(const uint64_t* ids, size_t n, uint64_t seed, uint64_t* hashes);

// Hashes byte keys [first, first + n) of a data + offsets batch (key i is
// data[offsets[i] .. offsets[i+1])). Throws Error(kInvalidArgument) if offsets decrease: a
// decreasing pair would make a huge length and read far outside the caller's buffer.
void HashKeysBatch(const uint8_t* data, const uint64_t* offsets, size_t first, size_t n,
                   uint64_t seed, uint64_t* hashes);

}  // namespace seen
