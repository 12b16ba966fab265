// The bit cells of sliced and growing windows, shared by core/window.cc and
// core/window_growing.cc: where an item's positions fall, and S segment bits per position.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/format.h"
#include "core/window.h"

namespace seen::window_cells {

// Odd constants, drawn once at random and frozen by the format: position i of an item is
// the high half of hash * kPositionSalt[i], mapped onto m positions by multiply-shift.
// Double hashing (h1 + i * h2) would be cheaper, but on segments of a few thousand bits its
// positions collapse for steps near small fractions, which measurably doubled the rate.
constexpr uint64_t kPositionSalt[kMaxWindowK] = {
    0xf2ed66ffdcc99397ULL, 0x21bade026a6ae769ULL, 0x9dd8904f07489671ULL, 0x6102dd7063e8540fULL,
    0x466de486522c4f8dULL, 0x83faac572f564653ULL, 0x0620f0877e5fe381ULL, 0x781b9a43d04ce50bULL,
    0x27e47ffc284a2d4fULL, 0xc35d7d3b92e4016fULL, 0x79f74d60ac03031fULL, 0x06e7df8e1eb1c66fULL,
    0x817af708207473b7ULL, 0x2e09e4b8245edebdULL, 0x1f07a223563ebc39ULL, 0xb7c039842be38ecdULL};

// An item's i-th position before it is scaled to an array: the same for every array (a
// window's base and its growth levels), so a batch computes it once for all of them.
inline uint32_t MixOf(uint64_t hash, uint32_t i) {
  return static_cast<uint32_t>((hash * kPositionSalt[i]) >> 32);
}

// A mixed position scaled onto `bits` positions.
inline uint32_t ScaledPosition(uint32_t bits, uint32_t mixed) {
  return static_cast<uint32_t>((static_cast<uint64_t>(mixed) * bits) >> 32);
}

// The i-th bit position of an item among `bits`.
inline uint32_t PositionOf(uint32_t bits, uint64_t hash, uint32_t i) {
  return ScaledPosition(bits, MixOf(hash, i));
}

// The shape of one array of sliced cells: `bits` positions of `segments` bits each, and k
// positions per item. A window's base has its params' shape; a growth level has its own.
struct CellShape {
  uint32_t bits;
  uint32_t segments;
  uint32_t k;
};

inline CellShape BaseShape(const WindowParams& p) { return {p.bits, p.segments, p.k}; }

// The sliced cells are read 4 bytes at a time at any bit offset: pad so the last read fits.
constexpr uint64_t kCellPadding = 3;

inline uint64_t CellBytes(uint32_t bits, uint32_t segments) {
  return (static_cast<uint64_t>(bits) * segments + 7) / 8 + kCellPadding;
}

// The S segment bits of position `pos`, as the low S bits.
inline uint32_t CellAt(const CellShape& p, const uint8_t* cells, uint32_t pos) {
  const uint64_t bit = static_cast<uint64_t>(pos) * p.segments;
  return (LoadLe32(cells + bit / 8) >> (bit % 8)) & ((1u << p.segments) - 1);
}

inline void SetCellBit(const CellShape& p, uint8_t* cells, uint32_t pos, uint32_t segment) {
  const uint64_t bit = static_cast<uint64_t>(pos) * p.segments + segment;
  cells[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
}

inline void ClearSegment(const CellShape& p, uint8_t* cells, uint32_t segment) {
  for (uint32_t pos = 0; pos < p.bits; ++pos) {
    const uint64_t bit = static_cast<uint64_t>(pos) * p.segments + segment;
    cells[bit / 8] &= static_cast<uint8_t>(~(1u << (bit % 8)));
  }
}

// Sets the k positions of each item in `segment`.
inline void AddToSegment(const CellShape& p, uint8_t* cells, uint32_t segment, uint64_t hash) {
  for (uint32_t i = 0; i < p.k; ++i) SetCellBit(p, cells, PositionOf(p.bits, hash, i), segment);
}

// The segments among `live` whose k bits are all set for the item: one AND per position,
// stopping once no segment can hold the item (most candidates are unseen).
inline uint32_t SegmentsHolding(const CellShape& p, const uint8_t* cells, uint32_t live,
                                uint64_t hash) {
  for (uint32_t i = 0; i < p.k && live != 0; ++i) live &= CellAt(p, cells, PositionOf(p.bits, hash, i));
  return live;
}

// ---- segments in time ---------------------------------------------------------------------
// Sliced and growing states begin with two u32: the items in the current segment (count
// mode) or its start time (time mode), then its index. The sliced cells follow.
constexpr uint64_t kSlicedHeaderBytes = 8;

// Time mode: how many rotations `now` is past the current segment's start (0 if the clock
// went backwards).
inline uint32_t PendingRotations(const WindowParams& p, const uint8_t* state, uint32_t now) {
  const uint32_t start = LoadLe32(state);
  if (now < start) return 0;
  return static_cast<uint32_t>(std::min<uint64_t>((now - start) / p.segment_span, p.segments));
}

// Clears the next `times` segments, each becoming current in turn.
inline void Rotate(const WindowParams& p, uint8_t* state, uint8_t* cells, uint32_t times) {
  uint32_t current = LoadLe32(state + 4);
  for (uint32_t i = 0; i < std::min(times, p.segments); ++i) {
    current = (current + 1) % p.segments;
    ClearSegment(BaseShape(p), cells, current);
  }
  StoreLe32(state + 4, current);
}

// Time mode, before a write: applies the rotations `now` is due. Returns how many.
inline uint32_t CatchUpClock(const WindowParams& p, uint8_t* state, uint8_t* cells, uint32_t now) {
  const uint32_t pending = PendingRotations(p, state, now);
  if (pending == 0) return 0;
  Rotate(p, state, cells, pending);
  // Keep segment starts on the grid of the first one, however long the gap.
  const uint64_t gap = static_cast<uint64_t>(now - LoadLe32(state)) / p.segment_span;
  StoreLe32(state, LoadLe32(state) + static_cast<uint32_t>(gap * p.segment_span));
  return pending;
}

// Which segments still count at `now`: in time mode, those a pending rotation would clear
// are masked out, so a query never needs to write.
inline uint32_t LiveSegments(const WindowParams& p, const uint8_t* state, uint32_t now) {
  const uint32_t all = (1u << p.segments) - 1;
  if (p.mode == WindowMode::kCount) return all;
  const uint32_t pending = PendingRotations(p, state, now);
  const uint32_t current = LoadLe32(state + 4);
  uint32_t live = all;
  for (uint32_t i = 1; i <= pending; ++i) live &= ~(1u << ((current + i) % p.segments));
  return live;
}

// The saturation of the live segments: a fresh item is a false positive when, in some live
// segment, all k of its bits are set; with segment s a fraction f_s full that happens with
// probability f_s^k, independently. Fill is the share of the live segments' bits set.
WindowSaturation SegmentsSaturation(const CellShape& p, const uint8_t* cells, uint32_t live);

// Bloom rate of m positions holding c items with k positions each.
double BloomFpr(double c, double m, uint32_t k);

// The fewest positions (and their k) for `items` items at rate `fpr`; bits 0 if no k up to
// kMaxWindowK reaches it within 2^28 positions.
struct BloomShape {
  uint32_t bits = 0;
  uint32_t k = 0;
};
BloomShape SmallestBloom(uint32_t items, double fpr);

}  // namespace seen::window_cells
