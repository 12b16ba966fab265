// 64-bit-lane multiplies, and XXH3's folded 128-bit one, from 32x32->64 ones (no x86 target
// before AVX-512 has a 64-bit one), shared by the Highway kernels. Included once per target,
// after hwy/highway.h, as Highway's -inl.h convention asks.
#if defined(SEEN_CORE_SIMD_MUL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef SEEN_CORE_SIMD_MUL_INL_H_
#undef SEEN_CORE_SIMD_MUL_INL_H_
#else
#define SEEN_CORE_SIMD_MUL_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// (a mod 2^32) * (b mod 2^32), lane by lane, as 64-bit products.
template <class V>
HWY_INLINE V MulLow32(V a, V b) {
  const hn::DFromV<V> d;
#if HWY_TARGET == HWY_SCALAR
  // One-lane vectors cannot be reinterpreted as u32 pairs.
  return hn::Set(d, (hn::GetLane(a) & 0xFFFFFFFFu) * (hn::GetLane(b) & 0xFFFFFFFFu));
#else
  const hn::Repartition<uint32_t, decltype(d)> d32;
  return hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, b));
#endif
}

// a * b mod 2^64.
template <class V>
HWY_INLINE V Mul64(V a, V b) {
  const V lo_lo = MulLow32(a, b);
  const V hi_lo = MulLow32(hn::ShiftRight<32>(a), b);
  const V lo_hi = MulLow32(a, hn::ShiftRight<32>(b));
  return hn::Add(lo_lo, hn::ShiftLeft<32>(hn::Add(hi_lo, lo_hi)));
}

// The 128-bit product a * b folded to 64 bits, its low half XOR its high half, lane by lane
// (XXH3_mul128_fold64), from four 32x32->64-bit products.
template <class V>
HWY_INLINE V MulFold64(V a, V b) {
  const hn::DFromV<V> d;
  const V low32 = hn::Set(d, 0xFFFFFFFFull);
  const V a_hi = hn::ShiftRight<32>(a), b_hi = hn::ShiftRight<32>(b);
  const V lo_lo = MulLow32(a, b), hi_lo = MulLow32(a_hi, b), lo_hi = MulLow32(a, b_hi);
  const V hi_hi = MulLow32(a_hi, b_hi);
  // Bits 32..63 of the product with their carries into bit 64: below 3 * 2^32.
  const V middle = hn::Add(hn::Add(hn::ShiftRight<32>(lo_lo), hn::And(hi_lo, low32)), hn::And(lo_hi, low32));
  const V low = hn::Or(hn::ShiftLeft<32>(middle), hn::And(lo_lo, low32));
  const V high = hn::Add(hn::Add(hi_hi, hn::ShiftRight<32>(middle)),
                         hn::Add(hn::ShiftRight<32>(hi_lo), hn::ShiftRight<32>(lo_hi)));
  return hn::Xor(low, high);
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#endif  // SEEN_CORE_SIMD_MUL_INL_H_
