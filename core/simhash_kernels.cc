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
    if (weights == nullptr) {
      const auto one = hn::Set(df, 1.0f), minus_one = hn::Set(df, -1.0f);
      for (size_t i = 0; i < n; ++i) {
        const auto half = hn::Set(du, static_cast<uint32_t>(hashes[i] >> half_shift));
        acc = hn::Add(acc, hn::IfThenElse(hn::RebindMask(df, hn::TestBit(half, bits)), one, minus_one));
      }
    } else {
      for (size_t i = 0; i < n; ++i) {
        const auto half = hn::Set(du, static_cast<uint32_t>(hashes[i] >> half_shift));
        const auto w = hn::Set(df, weights[i]);
        acc = hn::Add(acc, hn::IfThenElse(hn::RebindMask(df, hn::TestBit(half, bits)), w, hn::Neg(w)));
      }
    }
    hn::StoreU(acc, df, sums + first);
  }
}

// Unit weights: how many of the n hashes (n < 65536) have each bit set, in u16 lanes, so a
// vector covers twice the bits of the float path.
using D16 = hn::CappedTag<uint16_t, 16>;

struct BitMasks16 {
  alignas(64) uint16_t bit[64];
  constexpr BitMasks16() : bit() {
    for (unsigned b = 0; b < 64; ++b) bit[b] = static_cast<uint16_t>(1u << (b % 16));
  }
};
constexpr BitMasks16 kBits16;

void CountSetBitsImpl(const uint64_t* HWY_RESTRICT hashes, size_t n, uint64_t* HWY_RESTRICT set) {
  const D16 d;
  const size_t lanes = hn::Lanes(d);
  alignas(64) uint16_t counts[64];
  for (size_t first = 0; first < 64; first += lanes) {
    const auto bits = hn::Load(d, kBits16.bit + first);
    const unsigned shift = static_cast<unsigned>(first / 16 * 16);
    auto acc = hn::Zero(d);
    for (size_t i = 0; i < n; ++i) {
      const auto quarter = hn::Set(d, static_cast<uint16_t>(hashes[i] >> shift));
      acc = hn::Sub(acc, hn::VecFromMask(d, hn::TestBit(quarter, bits)));
    }
    hn::Store(acc, d, counts + first);
  }
  for (unsigned b = 0; b < 64; ++b) set[b] += counts[b];
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

// A whole-vector scan (a benchmark baseline, the usual "AVX2 scan"): lane-wise popcount of
// fps[i] ^ query, counted where it is at most k.
size_t CountWithinImpl(const uint64_t* HWY_RESTRICT fps, size_t n, uint64_t query, uint32_t k) {
  const hn::ScalableTag<uint64_t> d;
  const hn::RebindToSigned<decltype(d)> di;  // no unsigned 64-bit compares before AVX-512
  const size_t lanes = hn::Lanes(d);
  const auto q = hn::Set(d, query);
  const auto limit = hn::Set(di, static_cast<int64_t>(k) + 1);
  size_t count = 0, i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto distance = hn::PopulationCount(hn::Xor(hn::LoadU(d, fps + i), q));
    count += hn::CountTrue(di, hn::Lt(hn::BitCast(di, distance), limit));
  }
  for (; i < n; ++i) count += static_cast<uint32_t>(__builtin_popcountll(fps[i] ^ query)) <= k;
  return count;
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

HWY_EXPORT(AccumulateSignsImpl);
HWY_EXPORT(ScanSigsImpl);
HWY_EXPORT(ScanFingerprintsImpl);
HWY_EXPORT(CountWithinImpl);
HWY_EXPORT(CountSetBitsImpl);

void AccumulateSigns(const uint64_t* hashes, const float* weights, size_t n, float* sums) {
  HWY_DYNAMIC_DISPATCH(AccumulateSignsImpl)(hashes, weights, n, sums);
}

void CountSetBits(const uint64_t* hashes, size_t n, uint64_t* set) {
  HWY_DYNAMIC_DISPATCH(CountSetBitsImpl)(hashes, n, set);
}

size_t ScanSigs(const uint32_t* sigs, size_t n, uint32_t query, uint32_t k, uint32_t* hits) {
  return HWY_DYNAMIC_DISPATCH(ScanSigsImpl)(sigs, n, query, k, hits);
}

size_t ScanFingerprints(const uint64_t* fps, size_t n, size_t stride, uint64_t query, uint32_t k,
                        uint32_t* hits) {
  return HWY_DYNAMIC_DISPATCH(ScanFingerprintsImpl)(fps, n, stride, query, k, hits);
}

size_t CountWithin(const uint64_t* fps, size_t n, uint64_t query, uint32_t k) {
  return HWY_DYNAMIC_DISPATCH(CountWithinImpl)(fps, n, query, k);
}

}  // namespace seen
#endif  // HWY_ONCE
