// A set of 16-bit fingerprints as 2^16 bits: 8 KiB, so it stays in L1. Kept between uses,
// empty, since clearing what one use inserted is cheaper than a fresh set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace seen {

class FingerprintSet {
 public:
  void Insert(uint16_t fp) { words_[fp >> 6] |= uint64_t{1} << (fp & 63); }
  bool Has(uint16_t fp) const { return (words_[fp >> 6] >> (fp & 63)) & 1; }
  // Clears the whole word of fp: cheaper than a read-modify-write, and every fingerprint
  // inserted is erased the same way before the set is used again.
  void EraseWordOf(uint16_t fp) { words_[fp >> 6] = 0; }
  void EraseAll() { std::memset(words_, 0, sizeof(words_)); }
  // Up to about this many fingerprints, erasing each word beats EraseAll's pass of wide
  // stores over the set's 128 cache lines.
  static constexpr size_t kEraseEachUpTo = 256;

 private:
  uint64_t words_[(1u << 16) / 64] = {};
};

}  // namespace seen
