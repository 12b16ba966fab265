// The slots of a table window (core/window_table.h): where an item goes and what its slot
// holds, shared by the layout and its SIMD query (core/window_table_kernels.cc).
//
// A line of 16 slots holds two buckets. An item's entry sits in its line: in its home bucket,
// or in the other one (away). When its line is full, it goes to the buddy line (line ^ 1,
// the other half of the same 128-byte block) as a displaced entry, and its line keeps an
// overflow marker in its first slot: a query reads the buddy only for a line that overflowed.
#pragma once

#include <cstdint>

namespace seen::table_slots {

// The hash bits that place an item: bucket index and fingerprint together.
constexpr uint32_t kKeyBits = 26;
constexpr uint32_t kSlotsPerBucket = 8;
constexpr uint32_t kSlotsPerLine = 2 * kSlotsPerBucket;
// bits 27..31: segment + 1 (0: empty); bit 26: displaced; bit 25: away (for a displaced
// entry: its home is the upper bucket of its line); bits 0..24: fingerprint (26 - b bits).
constexpr uint32_t kSegmentShift = 27;
constexpr uint32_t kDisplaced = 1u << 26;
constexpr uint32_t kAway = 1u << 25;
constexpr uint32_t kLowBits = (1u << kSegmentShift) - 1;
// Segment field 31 names no segment: never live, never a match.
constexpr uint32_t kOverflowMarker = 0xFFFFFFFFu;
// The low bits of a saturation marker: a line that had to take an item of its segment when
// neither it, its buddy, a larger table nor older time had room. While its segment is live it
// answers for every item the line's queries read: the line's own and, as displaced entries
// could have been its victims, its buddy's once that overflowed. No entry has these bits:
// only a displaced entry has kDisplaced, and displaced entries live in tables of 4 buckets
// and more, whose fingerprints have at most 24 bits.
constexpr uint32_t kSaturated = kDisplaced | 1u << 24;

// Where an item goes in a table of 2^b buckets, and what its slots compare.
struct Placement {
  uint32_t home;
  uint32_t fingerprint;
};

inline Placement Place(uint64_t hash, uint32_t b) {
  const auto key = static_cast<uint32_t>(hash >> (64 - kKeyBits));
  return {key >> (kKeyBits - b), key & ((1u << (kKeyBits - b)) - 1)};
}

inline uint32_t SlotOf(uint32_t segment, uint32_t flags, uint32_t fingerprint) {
  return (segment + 1) << kSegmentShift | flags | fingerprint;
}

// The low bits of an item's entry in its own line: for each bucket of the line, 0 in its home
// and kAway in the other.
inline uint32_t NativeFlags(uint32_t home, uint32_t bucket_of_line) {
  return (home & 1) == bucket_of_line ? 0 : kAway;
}

// The low bits of an item's entry displaced into the buddy line, in either bucket there.
inline uint32_t DisplacedFlags(uint32_t home) { return kDisplaced | ((home & 1) != 0 ? kAway : 0); }

// Whether a slot is an entry of a segment in `live` with low bits `wanted`, or a saturation
// marker of one.
inline bool SlotHolds(uint32_t slot, uint32_t wanted, uint32_t live) {
  const uint32_t segment = slot >> kSegmentShift;
  const uint32_t low = slot & kLowBits;
  return segment != 0 && segment <= 16 && ((live >> (segment - 1)) & 1) && (low == wanted || low == kSaturated);
}

inline bool IsSaturation(uint32_t slot) { return slot != kOverflowMarker && (slot & kLowBits) == kSaturated; }

// The definition a query answers by: whether an item's line holds its entry, or, when the
// line overflowed, its buddy holds it displaced, in a live segment; or the line read holds a
// live saturation marker.
inline bool TableHolds(const uint32_t* slots, uint32_t b, uint32_t live, uint64_t hash) {
  const Placement at = Place(hash, b);
  const uint32_t* line = slots + (at.home >> 1) * kSlotsPerLine;
  for (uint32_t i = 0; i < kSlotsPerLine; ++i) {
    if (SlotHolds(line[i], NativeFlags(at.home, i / kSlotsPerBucket) | at.fingerprint, live)) return true;
  }
  if (line[0] != kOverflowMarker) return false;
  const uint32_t* buddy = slots + ((at.home >> 1) ^ 1) * kSlotsPerLine;
  for (uint32_t i = 0; i < kSlotsPerLine; ++i) {
    if (SlotHolds(buddy[i], DisplacedFlags(at.home) | at.fingerprint, live)) return true;
  }
  return false;
}

}  // namespace seen::table_slots
