// Sets of 16-bit fingerprints as bits, kept between uses, empty, since clearing what one use
// inserted is cheaper than a fresh set. FingerprintSet is exact: 2^16 bits, 8 KiB, which a
// server's other work pushes out of L1 between requests. FingerprintFilter keeps the low 12
// bits only, 512 bytes in 8 cache lines: a superset, asked first, so that a pass over a ring
// mostly stays in those lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace seen {

template <uint32_t kBits>
class FingerprintBits {
 public:
  void Insert(uint16_t fp) { words_[Word(fp)] |= Bit(fp); }
  bool Has(uint16_t fp) const { return (words_[Word(fp)] & Bit(fp)) != 0; }
  // Clears the whole word of fp: cheaper than a read-modify-write, and every fingerprint
  // inserted is erased the same way before the set is used again.
  void EraseWordOf(uint16_t fp) { words_[Word(fp)] = 0; }
  void EraseAll() { std::memset(words_, 0, sizeof(words_)); }

 private:
  static uint32_t Word(uint16_t fp) { return (fp & (kBits - 1)) >> 6; }
  static uint64_t Bit(uint16_t fp) { return uint64_t{1} << (fp & 63); }
  uint64_t words_[kBits / 64] = {};
};

using FingerprintSet = FingerprintBits<1u << 16>;
using FingerprintFilter = FingerprintBits<1u << 12>;

// Up to about this many fingerprints, erasing each word of a FingerprintSet beats EraseAll's
// pass of wide stores over its 128 cache lines.
constexpr size_t kEraseEachUpTo = 256;

}  // namespace seen
