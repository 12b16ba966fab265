// TableHeld on every SIMD target (Highway foreach_target, dispatched per batch). A candidate's
// line is 16 u32 slots, two buckets; each vector of them is compared at once with the low bits
// the candidate wants in that bucket (its fingerprint in its home, with the away bit in the
// other) and with a saturation marker's, and its slots' segments with the live ones. Only a
// line holding the overflow marker sends the candidate on to its buddy line. Lines are
// fetched well ahead, since a user's table is often cold when their batch comes.

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
// How many candidates ahead a line is fetched: a miss to memory (about 300 ns on the VM this
// was measured on) outlasts 80 candidates at under 4 ns each. At 10^6 Zipf users, requests
// took 9.2-9.8 µs at the median with 16 ahead, 8.6-9.0 with 48, 8.5-8.8 with 96.
constexpr size_t kTablePrefetchAhead = 96;
}  // namespace seen
#endif

HWY_BEFORE_NAMESPACE();
namespace seen {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using namespace table_slots;

// Lanes are 0 where a slot of a live segment has low bits `want` or kSaturated (the low bits
// XOR either are 0, and bit slot >> 27 of alive_bits is 1); a lane's minimum over the vectors
// says whether any did. Vectors only, no masks.
template <class D, class V>
HWY_INLINE V Misses(D d, V slot, V want, V alive_bits) {
  const auto one = hn::Set(d, 1);
  const auto low = hn::And(slot, hn::Set(d, kLowBits));
  const auto differs = hn::Min(hn::Xor(low, want), hn::Xor(low, hn::Set(d, kSaturated)));
  const auto dead = hn::Xor(hn::And(hn::Shr(alive_bits, hn::ShiftRight<kSegmentShift>(slot)), one), one);
  return hn::Or(differs, dead);
}

void TableHeldImpl(const uint32_t* slots, uint32_t b, uint32_t live, const uint64_t* hashes, size_t n,
                   uint8_t* out) {
  const hn::CappedTag<uint32_t, kSlotsPerBucket> d;
  const size_t lanes = hn::Lanes(d);
  const auto one = hn::Set(d, 1);
  // Bit s + 1 for each live segment s, as a slot names them; bit 0 (an empty slot) is clear.
  const auto alive_bits = hn::Set(d, live << 1);
  const auto line_of = [&](size_t i) { return slots + (Place(hashes[i], b).home >> 1) * kSlotsPerLine; };
  // A table with fewer lines than the batch has candidates is read nearly whole anyway: asking
  // for it in order lets the memory stream it, rather than wait on random lines.
  const size_t lines = (size_t{kSlotsPerBucket} << b) / kSlotsPerLine;
  if (lines <= n) {
    for (size_t line = 0; line < lines; ++line) hwy::Prefetch(slots + line * kSlotsPerLine);
  }
  for (size_t i = 0; i < n && i < kTablePrefetchAhead; ++i) hwy::Prefetch(line_of(i));
  for (size_t i = 0; i < n; ++i) {
    if (i + kTablePrefetchAhead < n) hwy::Prefetch(line_of(i + kTablePrefetchAhead));
    const Placement at = Place(hashes[i], b);
    const uint32_t* line = slots + (at.home >> 1) * kSlotsPerLine;
    auto least = one;
    for (uint32_t bucket = 0; bucket < 2; ++bucket) {
      const auto want = hn::Set(d, NativeFlags(at.home, bucket) | at.fingerprint);
      for (size_t j = 0; j < kSlotsPerBucket; j += lanes) {
        least = hn::Min(least, Misses(d, hn::LoadU(d, line + bucket * kSlotsPerBucket + j), want, alive_bits));
      }
    }
    // Rarely, the line overflowed: the entry may be displaced in the buddy line.
    if (line[0] == kOverflowMarker && hn::GetLane(hn::MinOfLanes(d, least)) != 0) {
      const uint32_t* buddy = slots + ((at.home >> 1) ^ 1) * kSlotsPerLine;
      const auto want = hn::Set(d, DisplacedFlags(at.home) | at.fingerprint);
      for (size_t j = 0; j < kSlotsPerLine; j += lanes) least = hn::Min(least, Misses(d, hn::LoadU(d, buddy + j), want, alive_bits));
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
