// TableHeld on every SIMD target (Highway foreach_target, dispatched per batch). A candidate's
// pair of buckets is 32 contiguous u32 slots; each vector of them is compared at once with the
// low bits the candidate wants on that side (its fingerprint in its home, the fingerprint
// and the away bit in the partner), and its slots' segments with the live ones. Pairs are fetched a few candidates ahead, since a user's
// table is often cold when their batch comes.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/window_table_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "core/window_table_kernels.h"
#include "core/window_table_slots.h"

#ifndef SEEN_CORE_WINDOW_TABLE_KERNELS_CONSTANTS
#define SEEN_CORE_WINDOW_TABLE_KERNELS_CONSTANTS
namespace seen {
// How many candidates ahead a pair is fetched: enough to overlap several misses.
constexpr size_t kTablePrefetchAhead = 16;
constexpr size_t kTableLineBytes = 64;
}  // namespace seen
#endif

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using namespace table_slots;

void TableHeldImpl(const uint32_t* slots, uint32_t b, uint32_t live, const uint64_t* hashes, size_t n,
                   uint8_t* out) {
  const hn::CappedTag<uint32_t, kSlotsPerBucket> d;
  const size_t lanes = hn::Lanes(d);
  const auto low = hn::Set(d, kLowBits);
  const auto one = hn::Set(d, 1);
  // Bit s + 1 for each live segment s, as a slot names them; bit 0 (an empty slot) is clear.
  const auto alive_bits = hn::Set(d, live << 1);
  const auto pair_of = [&](size_t i) { return slots + (Place(hashes[i], b).home & ~1u) * kSlotsPerBucket; };
  // A table with fewer lines than the batch has candidates is read nearly whole anyway: asking
  // for it in order lets the memory stream it, rather than wait on random lines.
  const size_t lines = (size_t{kSlotsPerBucket} << b) * sizeof(uint32_t) / kTableLineBytes;
  if (lines <= n) {
    for (size_t line = 0; line < lines; ++line) hwy::Prefetch(slots + line * (kTableLineBytes / sizeof(uint32_t)));
  }
  for (size_t i = 0; i < n && i < kTablePrefetchAhead; ++i) {
    hwy::Prefetch(pair_of(i));
    hwy::Prefetch(pair_of(i) + 2 * kSlotsPerBucket - 1);
  }
  for (size_t i = 0; i < n; ++i) {
    if (i + kTablePrefetchAhead < n) {
      const uint32_t* ahead = pair_of(i + kTablePrefetchAhead);
      hwy::Prefetch(ahead);
      hwy::Prefetch(ahead + 2 * kSlotsPerBucket - 1);
    }
    const Placement at = Place(hashes[i], b);
    const uint32_t* pair = slots + (at.home & ~1u) * kSlotsPerBucket;
    // The bucket at the lower index wants the away bit when the home is the upper one.
    const uint32_t away_low = (at.home & 1) != 0 ? kAway : 0;
    const uint32_t wanted[2] = {at.fingerprint | away_low, at.fingerprint | (kAway ^ away_low)};
    // A lane is 0 where a slot's low bits are wanted ((low bits ^ wanted) is 0) and its
    // segment is live (bit slot >> 27 of alive_bits is 1). Lanes keep their minimum: vectors
    // only, no masks.
    auto least = one;
    for (size_t side = 0; side < 2; ++side) {
      const auto want = hn::Set(d, wanted[side]);
      for (size_t j = 0; j < kSlotsPerBucket; j += lanes) {
        const auto slot = hn::LoadU(d, pair + side * kSlotsPerBucket + j);
        const auto differs = hn::Xor(hn::And(slot, low), want);
        const auto dead = hn::Xor(hn::And(hn::Shr(alive_bits, hn::ShiftRight<kSegmentShift>(slot)), one), one);
        least = hn::Min(least, hn::Or(differs, dead));
      }
    }
    out[i] = hn::GetLane(hn::MinOfLanes(d, least)) == 0;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace seen
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace seen {

HWY_EXPORT(TableHeldImpl);

void TableHeld(const TableSlots& table, const uint64_t* hashes, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(TableHeldImpl)(table.slots, table.log2_buckets, table.live, hashes, n, out);
}

}  // namespace seen
#endif
