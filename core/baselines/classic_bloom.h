// A classic Bloom filter of m bits and k hash positions (double hashing of one XXH3 hash),
// the building block of the published exposure designs reproduced as baselines.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/hash.h"

namespace seen::baselines {

class ClassicBloom {
 public:
  ClassicBloom(uint32_t bits, uint32_t k) : bits_(bits), k_(k), words_((bits + 63) / 64) {}

  void Add(uint64_t item) {
    ForEachBit(item, [&](uint32_t bit) { words_[bit / 64] |= uint64_t{1} << (bit % 64); });
    ++count_;
  }
  bool Contains(uint64_t item) const {
    bool all = true;
    ForEachBit(item, [&](uint32_t bit) { all = all && ((words_[bit / 64] >> (bit % 64)) & 1); });
    return all;
  }
  void Clear() {
    std::fill(words_.begin(), words_.end(), 0);
    count_ = 0;
  }
  uint32_t count() const { return count_; }
  uint64_t bytes() const { return (bits_ + 7) / 8; }

 private:
  template <class Visit>
  void ForEachBit(uint64_t item, Visit&& visit) const {
    const uint64_t h = HashU64(item, 0);
    const uint64_t h1 = h & 0xFFFFFFFF, h2 = h >> 32;
    for (uint32_t i = 0; i < k_; ++i) visit(static_cast<uint32_t>((h1 + i * h2) % bits_));
  }

  uint32_t bits_;
  uint32_t k_;
  std::vector<uint64_t> words_;
  uint32_t count_ = 0;
};

}  // namespace seen::baselines
