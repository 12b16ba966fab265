#include "core/simhash.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/hash.h"

namespace seen {
namespace {

constexpr size_t kChunk = 256;

void RequireFinite(const float* weights, size_t n) {
  if (weights == nullptr) return;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(weights[i])) {
      throw Error(Code::kInvalidArgument, "weight " + std::to_string(i) + " is not finite");
    }
  }
}

}  // namespace

TextOptions WithDefaultsForZeros(TextOptions o) {
  o.ngram = OrDefault(o.ngram, defaults::kSimhashNgram);
  return o;
}

uint64_t SignsToFingerprint(const float* sums) {
  uint64_t fp = 0;
  for (unsigned b = 0; b < 64; ++b) fp |= uint64_t{sums[b] > 0} << b;
  return fp;
}

uint64_t SimhashHashes(const uint64_t* hashes, const float* weights, size_t n) {
  RequireFinite(weights, n);
  alignas(64) float sums[64] = {};
  AccumulateSigns(hashes, weights, n, sums);
  return SignsToFingerprint(sums);
}

uint64_t SimhashStrings(const uint8_t* data, const uint64_t* offsets, const float* weights,
                        size_t n, const Hashing& hashing) {
  RequireFinite(weights, n);
  alignas(64) float sums[64] = {};
  uint64_t hashes[kChunk];
  for (size_t begin = 0; begin < n; begin += kChunk) {
    const size_t count = std::min(kChunk, n - begin);
    for (size_t i = 0; i < count; ++i) {
      const uint64_t from = offsets[begin + i], to = offsets[begin + i + 1];
      if (to < from) throw Error(Code::kInvalidArgument, "offsets decrease at " + std::to_string(begin + i));
      // An empty feature may come with NULL data: no arithmetic on it.
      hashes[i] = to == from ? HashBytes("", 0, hashing) : HashBytes(data + from, to - from, hashing);
    }
    AccumulateSigns(hashes, weights ? weights + begin : nullptr, count, sums);
  }
  return SignsToFingerprint(sums);
}

}  // namespace seen
