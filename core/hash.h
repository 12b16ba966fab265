// Contract 1 of DESIGN: a key's hash is XXH3-64 of its bytes with the filter's seed; an
// integer id hashes as its 8 little-endian bytes. Only the core hashes. In keyed mode
// (docs/SECURITY.md) the hash is SipHash-1-3 with the secret key, its first word XORed with
// the seed, instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "core/siphash.h"

namespace seen {

// A secret key of keyed mode: SipHash's 128 bits. Never written to a file: a keyed file
// records only CheckValue(), which tells keys apart without telling anything about them.
struct SecretKey {
  uint64_t k0 = 0, k1 = 0;

  // 16 bytes are the key as they are (two little-endian words); 17..64 bytes are folded into
  // 128 bits. Throws Error(kInvalidArgument) for fewer than 16 bytes or more than 64.
  static SecretKey FromBytes(const uint8_t* bytes, size_t len);
  // A PRF output of the key: 56 bits, so that it fits beside the keyed flag of a container.
  uint64_t CheckValue() const;
  bool operator==(const SecretKey& other) const { return k0 == other.k0 && k1 == other.k1; }
  bool operator!=(const SecretKey& other) const { return !(*this == other); }
};

// How keys become hashes: XXH3-64 with a public seed (reproducible and mergeable, no
// protection), or SipHash-1-3 with a secret key.
struct Hashing {
  uint64_t seed = 0;
  std::optional<SecretKey> key;

  Hashing(uint64_t public_seed = 0) : seed(public_seed) {}  // NOLINT(google-explicit-constructor)
  Hashing(uint64_t public_seed, std::optional<SecretKey> secret) : seed(public_seed), key(secret) {}
};

inline uint64_t HashBytes(const void* data, size_t len, const Hashing& h) {
  if (h.key) return SipHash13(h.key->k0 ^ h.seed, h.key->k1, data, len);
  return XXH3_64bits_withSeed(data, len, h.seed);
}

// The id's in-memory bytes are its little-endian bytes on every target we build for.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "seen assumes a little-endian host");

inline uint64_t HashU64(uint64_t id, const Hashing& h) {
  if (h.key) return SipHash13U64(h.key->k0 ^ h.seed, h.key->k1, id);
  return XXH3_64bits_withSeed(&id, sizeof id, h.seed);
}

// Batch form of HashU64 for n ids, SIMD through Highway (core/kernels.cc).
void HashU64Batch(const uint64_t* ids, size_t n, const Hashing& h, uint64_t* hashes);

// Hashes byte keys [first, first + n) of a data + offsets batch (key i is
// data[offsets[i] .. offsets[i+1])). Throws Error(kInvalidArgument) if offsets decrease: a
// decreasing pair would make a huge length and read far outside the caller's buffer.
void HashKeysBatch(const uint8_t* data, const uint64_t* offsets, size_t first, size_t n,
                   const Hashing& h, uint64_t* hashes);

}  // namespace seen
