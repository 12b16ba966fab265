// ClassifyAscii64 (core/ascii_masks.h), compiled once per SIMD target by Highway and
// dispatched at run time like core/kernels.cc. Every target answers as the byte table
// kAsciiWordByte does (tests/test_simd_targets.cc forces each one).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/ascii_masks.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>

#include "core/ascii_masks.h"

HWY_BEFORE_NAMESPACE();
namespace seen::text {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 64 lanes: a block is then a whole number of vectors on every target.
using D8 = hn::CappedTag<uint8_t, 64>;

// Lanes holding a byte in [low, low + count), by unsigned wrap-around: one subtraction and a
// saturating one instead of two comparisons.
HWY_INLINE hn::Mask<D8> InRange(hn::Vec<D8> v, uint8_t low, uint8_t count) {
  const D8 d;
  const auto offset = hn::Sub(v, hn::Set(d, low));
  return hn::Eq(hn::SaturatedSub(offset, hn::Set(d, static_cast<uint8_t>(count - 1))), hn::Zero(d));
}

// The mask bits of one vector of N lanes, as the low N bits of a word.
HWY_INLINE uint64_t Bits(hn::Mask<D8> mask) {
  const D8 d;
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, mask, bytes);
  uint64_t bits;
  std::memcpy(&bits, bytes, sizeof bits);
  const size_t n = hn::Lanes(d);
  return n == 64 ? bits : bits & ((uint64_t{1} << n) - 1);
}

AsciiMasks ClassifyAscii64Impl(const uint8_t* HWY_RESTRICT bytes, uint8_t* HWY_RESTRICT folded) {
  const D8 d;
  const size_t n = hn::Lanes(d);
  const auto case_bit = hn::Set(d, uint8_t{0x20});
  AsciiMasks m{0, 0};
  for (size_t i = 0; i < 64; i += n) {
    const auto v = hn::LoadU(d, bytes + i);
    const auto upper = InRange(v, 'A', 26);
    // OR 0x20 puts capitals onto small letters and moves no other byte into them.
    const auto letter = InRange(hn::Or(v, case_bit), 'a', 26);
    hn::StoreU(hn::IfThenElse(upper, hn::Or(v, case_bit), v), d, folded + i);
    // The two masks' bits are ORed as words, not as masks: Highway 1.0.3's mask Or on the
    // SVE_256 target keeps only the low half of a capped vector's lanes.
    m.word |= (Bits(letter) | Bits(InRange(v, '0', 10))) << i;
    m.non_ascii |= Bits(InRange(v, 0x80, 0x80)) << i;
  }
  return m;
}

}  // namespace HWY_NAMESPACE
}  // namespace seen::text
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen::text {

HWY_EXPORT(ClassifyAscii64Impl);

AsciiMasks ClassifyAscii64(const uint8_t* bytes, uint8_t* folded) {
  return HWY_DYNAMIC_DISPATCH(ClassifyAscii64Impl)(bytes, folded);
}

}  // namespace seen::text
#endif  // HWY_ONCE
