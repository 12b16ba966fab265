// MarkHeld on every SIMD target (Highway foreach_target, dispatched per batch). Candidates go
// side by side, one per 64-bit lane: each of the k positions is computed for all lanes at
// once, exactly as window_cells::PositionOf does, and their cells gathered, so a batch does
// not wait on one candidate's chain of multiplies. The scalar reference is
// window_cells::SegmentsHolding; tests/test_simd_targets.cc holds every target to it.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/window_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "core/simd_mul-inl.h"

#include "core/window_cells.h"
#include "core/window_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D64 = hn::CappedTag<uint64_t, 8>;
using V64 = hn::Vec<D64>;

void MarkHeldImpl(const window_cells::CellShape& a, const uint8_t* cells, uint32_t live,
                  const uint64_t* HWY_RESTRICT hashes, size_t n, uint8_t* HWY_RESTRICT out) {
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR  // one-lane vectors have no 32-bit halves to gather with
  const D64 d;
  const hn::Rebind<uint32_t, D64> d32;
  const hn::Rebind<int32_t, D64> di32;
  const size_t lanes = hn::Lanes(d);
  const V64 bits = hn::Set(d, a.bits), segments = hn::Set(d, a.segments), live_cells = hn::Set(d, live);
  const V64 byte_bits = hn::Set(d, 7);
  // Cells are read 4 bytes at any byte offset, as CellAt does; the gather takes the bytes.
  const auto* words = reinterpret_cast<const uint32_t*>(cells);
  alignas(64) uint64_t held_lanes[8];
  for (; i + lanes <= n; i += lanes) {
    const V64 h = hn::LoadU(d, hashes + i);
    const V64 h_high = hn::ShiftRight<32>(h);
    V64 held = live_cells;
    for (uint32_t j = 0; j < a.k; ++j) {
      const uint64_t salt = window_cells::kPositionSalt[j];
      // Bits 32..63 of h * salt (mod 2^64): the high half of the low product, plus the low
      // halves of the cross products. Only its low 32 bits matter below.
      const V64 mixed = hn::Add(hn::ShiftRight<32>(MulLow32(h, hn::Set(d, salt))),
                                hn::Add(MulLow32(h_high, hn::Set(d, salt)), MulLow32(h, hn::Set(d, salt >> 32))));
      const V64 bit = MulLow32(hn::ShiftRight<32>(MulLow32(mixed, bits)), segments);
      const auto offsets = hn::BitCast(di32, hn::TruncateTo(d32, hn::ShiftRight<3>(bit)));
      const V64 cell_bits = hn::PromoteTo(d, hn::GatherOffset(d32, words, offsets));
      held = hn::And(held, hn::Shr(cell_bits, hn::And(bit, byte_bits)));
      // A fresh candidate is out once every live segment misses one of its cells.
      if (hn::AllTrue(d, hn::Eq(held, hn::Zero(d)))) break;
    }
    hn::Store(held, d, held_lanes);
    for (size_t l = 0; l < lanes; ++l) out[i + l] |= held_lanes[l] != 0;
  }
#endif
  for (; i < n; ++i) out[i] |= window_cells::SegmentsHolding(a, cells, live, hashes[i]) != 0;
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

HWY_EXPORT(MarkHeldImpl);

void MarkHeld(const window_cells::CellShape& shape, const uint8_t* cells, uint32_t live,
              const uint64_t* hashes, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(MarkHeldImpl)(shape, cells, live, hashes, n, out);
}

}  // namespace seen
#endif
