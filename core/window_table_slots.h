// The slots of a table window (core/window_table.h): where an item goes and what its slot
// holds, shared by the layout and its SIMD query (core/window_table_kernels.cc).
#pragma once

#include <cstdint>

namespace seen::table_slots {

// The hash bits that place an item: bucket index and fingerprint together.
constexpr uint32_t kKeyBits = 27;
// Two buckets, an item's home and its partner, make one 64-byte line.
constexpr uint32_t kSlotsPerBucket = 8;
constexpr uint32_t kSegmentShift = 27;
constexpr uint32_t kAway = 1u << 26;
constexpr uint32_t kLowBits = (1u << kSegmentShift) - 1;  // away and fingerprint

// Where an item goes in a table of 2^b buckets, and what its slots compare.
struct Placement {
  uint32_t home;
  uint32_t fingerprint;
};

inline Placement Place(uint64_t hash, uint32_t b) {
  const auto key = static_cast<uint32_t>(hash >> (64 - kKeyBits));
  return {key >> (kKeyBits - b), key & ((1u << (kKeyBits - b)) - 1)};
}

inline uint32_t SlotOf(uint32_t segment, bool away, uint32_t fingerprint) {
  return (segment + 1) << kSegmentShift | (away ? kAway : 0) | fingerprint;
}

// Whether a bucket holds a slot of a segment in `live` whose low bits are `wanted`.
inline bool BucketHolds(const uint32_t* bucket, uint32_t wanted, uint32_t live) {
  for (uint32_t i = 0; i < kSlotsPerBucket; ++i) {
    const uint32_t segment = bucket[i] >> kSegmentShift;
    if (segment != 0 && ((live >> (segment - 1)) & 1) && (bucket[i] & kLowBits) == wanted) return true;
  }
  return false;
}

// Whether an item's home holds its fingerprint, or its home's partner does as an away entry,
// in a live segment.
inline bool PairHolds(const uint32_t* slots, uint32_t b, uint32_t live, uint64_t hash) {
  const Placement at = Place(hash, b);
  return BucketHolds(slots + at.home * kSlotsPerBucket, at.fingerprint, live) ||
         BucketHolds(slots + (at.home ^ 1) * kSlotsPerBucket, kAway | at.fingerprint, live);
}

}  // namespace seen::table_slots
