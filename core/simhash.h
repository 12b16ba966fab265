// SimHash fingerprints (docs/simhash.md): every feature is a 64-bit XXH3 hash with a weight;
// bit b of the fingerprint is set when the weights of the features whose hash has bit b set
// outweigh those whose hash has it clear. Near-duplicate texts get fingerprints a few bits
// apart; core/simhash_index.h finds them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include "core/defaults.h"
#include "core/hash.h"

namespace seen {

inline uint32_t Hamming(uint64_t a, uint64_t b) {
  return static_cast<uint32_t>(__builtin_popcountll(a ^ b));
}

// Fingerprint of n features given by hash, each with weights[i] (weights NULL: all 1).
// Weights must be finite; throws Error(kInvalidArgument) otherwise. n == 0 gives 0.
uint64_t SimhashHashes(const uint64_t* hashes, const float* weights, size_t n);

// The same for byte features: feature i is data[offsets[i] .. offsets[i+1]), hashed as
// `hashing` says (XXH3-64 with its seed, or keyed SipHash: docs/SECURITY.md).
uint64_t SimhashStrings(const uint8_t* data, const uint64_t* offsets, const float* weights,
                        size_t n, const Hashing& hashing);

// Inverse-document-frequency weights of tokens, looked up by the XXH3-64 (seed 0) of the
// token's normalized UTF-8 bytes; tokens not in the table weigh `default_weight`.
class IdfTable {
 public:
  // Token i is data[offsets[i] .. offsets[i+1]), normalized the way text is (so "Hello" and
  // "ｈｅｌｌｏ" are one entry). Weights must be finite.
  IdfTable(const uint8_t* data, const uint64_t* offsets, const float* weights, size_t n,
           float default_weight);
  float Weight(uint64_t token_hash0) const {
    const auto it = weights_.find(token_hash0);
    return it == weights_.end() ? default_weight_ : it->second;
  }

 private:
  std::unordered_map<uint64_t, float> weights_;
  float default_weight_;
};

struct TextOptions {
  uint32_t ngram = defaults::kSimhashNgram;  // CJK character shingle length, 1..8
  uint64_t seed = 0;             // XXH3 seed of every feature hash
  const IdfTable* idf = nullptr; // NULL: every token weighs 1 + ln(its count)
  // Keyed mode (docs/SECURITY.md): features hash with SipHash-1-3 under it, so nobody
  // without it can steer a text's fingerprint.
  std::optional<SecretKey> key = std::nullopt;
};
constexpr uint32_t kMaxNgram = 8;

// o with a zero (unset) ngram replaced by its default.
TextOptions WithDefaultsForZeros(TextOptions o);

struct TextFingerprint {
  uint64_t simhash;
  uint64_t exact_low, exact_high;  // XXH3-128 (seed 0) of the normalized text
  uint64_t features;               // tokens counted (with repeats); 0 means simhash is 0
};

// Tokenizes UTF-8 text (rules in docs/simhash.md) and fingerprints it in one streaming pass;
// memory grows only with the distinct tokens (about 24 bytes each). Invalid UTF-8 and NUL bytes act as
// separators. Throws Error(kInvalidArgument) only for an ngram outside 1..8.
TextFingerprint FingerprintText(const char* text, size_t len, const TextOptions& options);

// SIMD kernel (core/simhash_kernels.cc): sums[b] += hash bit b set ? w : -w for each feature,
// in feature order, so every target computes the same floats.
void AccumulateSigns(const uint64_t* hashes, const float* weights, size_t n, float* sums);

// Unit weights, exactly: set[b] += how many of the n hashes (n < 65536) have bit b set.
void CountSetBits(const uint64_t* hashes, size_t n, uint64_t* set);

// The fingerprint whose bit b is set iff sums[b] > 0.
uint64_t SignsToFingerprint(const float* sums);

}  // namespace seen
