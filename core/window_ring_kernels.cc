// RingFind on every SIMD target (Highway foreach_target, dispatched per call).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/window_ring_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <cstring>

#include "core/format.h"
#include "core/window_ring_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

uint32_t RingFindImpl(const uint8_t* entries, uint32_t span, uint16_t fp) {
  const hn::ScalableTag<uint16_t> d;
  const size_t lanes = hn::Lanes(d);
  // fp as the entries hold it in memory, so that lanes compare as loaded on any host.
  uint8_t le[2];
  StoreLe16(le, fp);
  uint16_t stored;
  std::memcpy(&stored, le, 2);
  const auto want = hn::Set(d, stored);
  const auto* lanes_in = reinterpret_cast<const uint16_t*>(entries);
  uint32_t e = 0;
  // Two vectors a step: one branch for both, which is how a miss (most scans) goes through.
  for (; e + 2 * lanes <= span; e += static_cast<uint32_t>(2 * lanes)) {
    const auto first = hn::Eq(hn::LoadU(d, lanes_in + e), want);
    const auto second = hn::Eq(hn::LoadU(d, lanes_in + e + lanes), want);
    if (hn::AllFalse(d, hn::Or(first, second))) continue;
    const intptr_t at = hn::FindFirstTrue(d, first);
    return e + static_cast<uint32_t>(at >= 0 ? at : static_cast<intptr_t>(lanes) + hn::FindFirstTrue(d, second));
  }
  for (; e < span; ++e) {
    if (LoadLe16(entries + 2 * static_cast<uint64_t>(e)) == fp) return e;
  }
  return span;
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

HWY_EXPORT(RingFindImpl);

uint32_t RingFind(const uint8_t* entries, uint32_t span, uint16_t fp) {
  return HWY_DYNAMIC_DISPATCH(RingFindImpl)(entries, span, fp);
}

}  // namespace seen
#endif
