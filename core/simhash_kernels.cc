// SimHash kernels, compiled once per SIMD target by Highway and dispatched at run time like
// core/kernels.cc: the 64 signed sums of a fingerprint, and the Hamming scans of the index.
// Every target adds the same floats in the same order per bit, so fingerprints agree on all
// targets (tests/test_simhash.cc pins that).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/simhash_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "core/simhash.h"
#include "core/simhash_scan.h"

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 16 float lanes, so one vector never straddles the two 32-bit halves of a hash.
using DF = hn::CappedTag<float, 16>;
using DU = hn::RebindToUnsigned<DF>;

struct BitMasks {
  alignas(64) uint32_t bit[64];
  constexpr BitMasks() : bit() {
    for (unsigned b = 0; b < 64; ++b) bit[b] = 1u << (b % 32);
  }
};
constexpr BitMasks kBits;

void AccumulateSignsImpl(const uint64_t* HWY_RESTRICT hashes, const float* HWY_RESTRICT weights,
                         size_t n, float* HWY_RESTRICT sums) {
  const DF df;
  const DU du;
  const size_t lanes = hn::Lanes(df);
  // One vector of sums at a time over all features: the features stay in L1 and each pass
  // keeps its accumulator in a register.
  for (size_t first = 0; first < 64; first += lanes) {
    const auto bits = hn::Load(du, kBits.bit + first);
    const unsigned half_shift = first < 32 ? 0 : 32;
    auto acc = hn::LoadU(df, sums + first);
    for (size_t i = 0; i < n; ++i) {
      const auto half = hn::Set(du, static_cast<uint32_t>(hashes[i] >> half_shift));
      const auto w = hn::Set(df, weights ? weights[i] : 1.0f);
      const auto set = hn::RebindMask(df, hn::TestBit(half, bits));
      acc = hn::Add(acc, hn::IfThenElse(set, w, hn::Neg(w)));
    }
    hn::StoreU(acc, df, sums + first);
  }
}

// Branch-free: every index is written, the count only advances on a hit.
size_t ScanSigsImpl(const uint32_t* HWY_RESTRICT sigs, size_t n, uint32_t query, uint32_t k,
                    uint32_t* HWY_RESTRICT hits) {
  size_t found = 0;
  for (size_t i = 0; i < n; ++i) {
    hits[found] = static_cast<uint32_t>(i);
    found += static_cast<uint32_t>(__builtin_popcount(sigs[i] ^ query)) <= k;
  }
  return found;
}

size_t ScanFingerprintsImpl(const uint64_t* HWY_RESTRICT fps, size_t n, size_t stride,
                            uint64_t query, uint32_t k, uint32_t* HWY_RESTRICT hits) {
  size_t found = 0;
  for (size_t i = 0; i < n; ++i) {
    hits[found] = static_cast<uint32_t>(i);
    found += static_cast<uint32_t>(__builtin_popcountll(fps[i * stride] ^ query)) <= k;
  }
  return found;
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

HWY_EXPORT(AccumulateSignsImpl);
HWY_EXPORT(ScanSigsImpl);
HWY_EXPORT(ScanFingerprintsImpl);

void AccumulateSigns(const uint64_t* hashes, const float* weights, size_t n, float* sums) {
  HWY_DYNAMIC_DISPATCH(AccumulateSignsImpl)(hashes, weights, n, sums);
}

size_t ScanSigs(const uint32_t* sigs, size_t n, uint32_t query, uint32_t k, uint32_t* hits) {
  return HWY_DYNAMIC_DISPATCH(ScanSigsImpl)(sigs, n, query, k, hits);
}

size_t ScanFingerprints(const uint64_t* fps, size_t n, size_t stride, uint64_t query, uint32_t k,
                        uint32_t* hits) {
  return HWY_DYNAMIC_DISPATCH(ScanFingerprintsImpl)(fps, n, stride, query, k, hits);
}

}  // namespace seen
#endif  // HWY_ONCE
