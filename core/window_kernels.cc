// MixPositions and MarkHeld on every SIMD target (Highway foreach_target, dispatched per
// batch). Candidates go side by side, one per 64-bit lane: each of the k positions is computed
// for all lanes at once, exactly as window_cells::PositionOf does, and their cells gathered,
// so a batch does not wait on one candidate's chain of multiplies. The mixing (three of a
// probe's five multiplies) is done once per batch for the base and every level. The scalar reference is
// window_cells::SegmentsHolding; tests/test_simd_targets.cc holds every target to it.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/window_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/cache_control.h>

#include "core/simd_mul-inl.h"

#include <algorithm>
#include <cstring>

#include "core/window_cells.h"
#include "core/window_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D64 = hn::CappedTag<uint64_t, 8>;
using V64 = hn::Vec<D64>;

// Cells larger than this are not expected in L1 and L2 (a heavy user's growth level, or any
// window the store has not touched lately): their first cells are prefetched ahead.
constexpr uint64_t kPrefetchFromBytes = 32 << 10;
// How far ahead, in vectors of candidates: about one memory latency of probing.
constexpr size_t kPrefetchVectors = 4;
// The probes prefetched: most fresh candidates are out after the first few.
constexpr uint32_t kPrefetchProbes = 2;

void MixPositionsImpl(const uint64_t* HWY_RESTRICT hashes, size_t n, uint32_t k, uint32_t* HWY_RESTRICT mixed) {
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR  // one-lane vectors have no 32-bit halves
  const D64 d;
  const hn::Rebind<uint32_t, D64> d32;
  for (; i + hn::Lanes(d) <= n; i += hn::Lanes(d)) {
    const V64 h = hn::LoadU(d, hashes + i);
    const V64 h_high = hn::ShiftRight<32>(h);
    for (uint32_t j = 0; j < k; ++j) {
      const uint64_t salt = window_cells::kPositionSalt[j];
      // Bits 32..63 of h * salt (mod 2^64): the high half of the low product, plus the low
      // halves of the cross products (only the low 32 bits of the sum are kept).
      const V64 sum = hn::Add(hn::ShiftRight<32>(MulLow32(h, hn::Set(d, salt))),
                              hn::Add(MulLow32(h_high, hn::Set(d, salt)), MulLow32(h, hn::Set(d, salt >> 32))));
      hn::StoreU(hn::TruncateTo(d32, sum), d32, mixed + j * n + i);
    }
  }
#endif
  for (; i < n; ++i) {
    for (uint32_t j = 0; j < k; ++j) mixed[j * n + i] = window_cells::MixOf(hashes[i], j);
  }
}

#if HWY_TARGET != HWY_SCALAR

// The bit index of each lane's cell from its mixed position: exactly ScaledPosition times the
// cell width.
HWY_INLINE V64 CellBit(const window_cells::CellShape& a, const uint32_t* mixed) {
  const D64 d;
  const hn::Rebind<uint32_t, D64> d32;
  const V64 m = hn::PromoteTo(d, hn::LoadU(d32, mixed));
  return MulLow32(hn::ShiftRight<32>(MulLow32(m, hn::Set(d, a.bits))), hn::Set(d, a.segments));
}

void PrefetchCells(const window_cells::CellShape& a, const uint8_t* cells, const uint32_t* mixed, size_t n) {
  const D64 d;
  alignas(64) uint64_t bit_lanes[8];
  for (uint32_t j = 0; j < HWY_MIN(a.k, kPrefetchProbes); ++j) {
    hn::Store(CellBit(a, mixed + j * n), d, bit_lanes);
    for (size_t l = 0; l < hn::Lanes(d); ++l) hwy::Prefetch(cells + bit_lanes[l] / 8);
  }
}

#endif

void MarkHeldImpl(const window_cells::CellShape& a, const uint8_t* cells, uint32_t live,
                  const uint32_t* HWY_RESTRICT mixed, size_t n, uint8_t* HWY_RESTRICT out) {
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  const D64 d;
  const hn::Rebind<uint32_t, D64> d32;
  const hn::Rebind<int32_t, D64> di32;
  const size_t lanes = hn::Lanes(d);
  const V64 live_cells = hn::Set(d, live), byte_bits = hn::Set(d, 7);
  // Cells are read 4 bytes at any byte offset, as CellAt does; the gather takes the bytes.
  const auto* words = reinterpret_cast<const uint32_t*>(cells);
  const size_t prefetch_until =
      window_cells::CellBytes(a.bits, a.segments) > kPrefetchFromBytes && n > kPrefetchVectors * lanes
          ? n - kPrefetchVectors * lanes
          : 0;
  alignas(64) uint64_t held_lanes[8];
  for (; i + lanes <= n; i += lanes) {
    if (i + lanes <= prefetch_until) PrefetchCells(a, cells, mixed + i + kPrefetchVectors * lanes, n);
    V64 held = live_cells;
    for (uint32_t j = 0; j < a.k; ++j) {
      const V64 bit = CellBit(a, mixed + j * n + i);
      const auto offsets = hn::BitCast(di32, hn::TruncateTo(d32, hn::ShiftRight<3>(bit)));
      const V64 cell_bits = hn::PromoteTo(d, hn::GatherOffset(d32, words, offsets));
      held = hn::And(held, hn::Shr(cell_bits, hn::And(bit, byte_bits)));
      // A fresh candidate is out once every live segment misses one of its cells, but all
      // lanes rarely are before the 8th probe, and a branch taken at random costs more than
      // the probes it saves: look every 4th probe from there.
      if ((j & 3) == 3 && j >= 7 && hn::AllTrue(d, hn::Eq(held, hn::Zero(d)))) break;
    }
    hn::Store(held, d, held_lanes);
    for (size_t l = 0; l < lanes; ++l) out[i + l] |= held_lanes[l] != 0;
  }
#endif
  for (; i < n; ++i) {
    uint32_t held = live;
    for (uint32_t j = 0; j < a.k && held != 0; ++j) {
      held &= window_cells::CellAt(a, cells, window_cells::ScaledPosition(a.bits, mixed[j * n + i]));
    }
    out[i] |= held != 0;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

// Candidates go through in chunks of at most this many: their mixed positions fit in L1.
constexpr size_t kMixChunk = 256;

HWY_EXPORT(MixPositionsImpl);
HWY_EXPORT(MarkHeldImpl);

void MarkHeld(const LiveCells* arrays, size_t count, const uint64_t* hashes, size_t n, uint8_t* out) {
  std::memset(out, 0, n);
  uint32_t k = 0;
  for (size_t a = 0; a < count; ++a) k = std::max(k, arrays[a].live != 0 ? arrays[a].shape.k : 0);
  if (k == 0) return;
  // Mixed positions, probe-major, for one chunk of candidates: 16 KiB, in L1 across arrays.
  uint32_t mixed[kMaxWindowK * kMixChunk];
  for (size_t i = 0; i < n; i += kMixChunk) {
    const size_t m = std::min(kMixChunk, n - i);
    HWY_DYNAMIC_DISPATCH(MixPositionsImpl)(hashes + i, m, k, mixed);
    for (size_t a = 0; a < count; ++a) {
      if (arrays[a].live == 0) continue;
      HWY_DYNAMIC_DISPATCH(MarkHeldImpl)(arrays[a].shape, arrays[a].cells, arrays[a].live, mixed, m, out + i);
    }
  }
}

}  // namespace seen
#endif
