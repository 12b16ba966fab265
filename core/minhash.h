// MinHash sketches of text (docs/minhash.md): the Jaccard similarity of two texts' shingle
// sets, estimated from fixed-size sketches. Right where SimHash is not: short texts, and
// texts with inserted boilerplate. One-permutation hashing (Li, Owen and Zhang, 2012) puts
// each shingle's hash into one of K bins and keeps each bin's minimum, one hash per shingle
// instead of K; optimal densification (Shrivastava, 2017) fills the empty bins of short texts
// from random non-empty ones, so that sketches of any length compare like K-permutation ones.
//
// Shingles: the text is tokenized as for SimHash (folded words, and each CJK character a
// token; separators dropped), and a shingle is `shingle` consecutive tokens: word pairs for
// English, character pairs for Chinese, by default.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/defaults.h"
#include "core/hash.h"

namespace seen {

constexpr uint32_t kMaxMinhashBins = 1024;

struct MinhashOptions {
  uint32_t bins = defaults::kMinhashBins;        // K, a power of two in 16..kMaxMinhashBins
  uint32_t shingle = defaults::kMinhashShingle;  // tokens per shingle, 1..8
  uint64_t seed = 0;
  std::optional<SecretKey> key = std::nullopt;  // keyed mode (docs/SECURITY.md)
};

// o with a zero (unset) bins or shingle replaced by its default.
MinhashOptions WithDefaultsForZeros(MinhashOptions o);

// Throws Error(kInvalidArgument) naming the option out of range.
void ValidateMinhashOptions(const MinhashOptions& options);

// K bin values. A text with no tokens has every bin at kEmptyBin.
constexpr uint32_t kEmptyBin = 0xFFFFFFFF;
std::vector<uint32_t> SketchText(const char* text, size_t len, const MinhashOptions& options);
// The same into bins[0 .. options.bins), without allocating; with `shingles` given, each
// shingle's hash cut to 32 bits is appended to it as well, in text order.
void SketchTextInto(const char* text, size_t len, const MinhashOptions& options, uint32_t* bins,
                    std::vector<uint32_t>* shingles = nullptr);
// The sketch, and into *shingles (replacing what it held) the text's shingle set: each
// shingle's hash cut to 32 bits, sorted, once each. Two sets give the exact Jaccard that
// sketches estimate, but for 32-bit collisions: two texts of 300 shingles share a false one
// with odds of about 1 in 50,000, which moves their Jaccard by 1/600.
std::vector<uint32_t> SketchText(const char* text, size_t len, const MinhashOptions& options,
                                 std::vector<uint32_t>* shingles);

// |a & b| / |a | b| of two shingle sets (0 for two empty ones).
double ShingleJaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

// The share of bins two sketches of one K agree on: the Jaccard estimate (0 when either is
// of an empty text).
double EstimateJaccard(const uint32_t* a, const uint32_t* b, size_t bins);

}  // namespace seen
