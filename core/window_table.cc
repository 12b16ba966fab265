#include "core/window_table.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/window_cells.h"
#include "core/window_growing.h"
#include "core/window_table_kernels.h"
#include "core/window_table_slots.h"

namespace seen {
using namespace window_cells;
using namespace table_slots;

namespace {

// Header fields past the sliced ones (segment start at 0, current segment at 4); kept_since
// is where a growing window keeps it, so both share GrowingEffectiveSpan.
constexpr uint64_t kLog2BucketsAt = 8;
constexpr uint64_t kKeptSinceAt = 12;

uint32_t Log2Buckets(const uint8_t* state) { return LoadLe32(state + kLog2BucketsAt); }

// The table's slots: the state's own until it first doubles, then the growth.
const uint32_t* Slots(const uint8_t* state, const WindowGrowth* growth) {
  const uint8_t* bytes = growth != nullptr && !growth->empty() ? growth->data() : state + kTableHeaderBytes;
  return reinterpret_cast<const uint32_t*>(bytes);
}

uint32_t* Slots(uint8_t* state, WindowGrowth& growth) {
  return const_cast<uint32_t*>(Slots(const_cast<const uint8_t*>(state), &growth));
}

// A free slot of a bucket (every non-empty slot is live once the clock has caught up), or null.
uint32_t* FreeSlot(uint32_t* bucket) {
  for (uint32_t i = 0; i < kSlotsPerBucket; ++i) {
    if (bucket[i] == 0) return bucket + i;
  }
  return nullptr;
}

// The slot of an entry equal to `wanted` in its low bits, or null.
uint32_t* Entry(uint32_t* bucket, uint32_t wanted) {
  for (uint32_t i = 0; i < kSlotsPerBucket; ++i) {
    if (bucket[i] != 0 && (bucket[i] & kLowBits) == wanted) return bucket + i;
  }
  return nullptr;
}

// Puts an entry in its home bucket, or else in the partner; false if both are full.
bool Put(uint32_t* slots, uint32_t home, uint32_t segment, uint32_t fingerprint) {
  if (uint32_t* free = FreeSlot(slots + home * kSlotsPerBucket)) {
    *free = SlotOf(segment, false, fingerprint);
    return true;
  }
  if (uint32_t* free = FreeSlot(slots + (home ^ 1) * kSlotsPerBucket)) {
    *free = SlotOf(segment, true, fingerprint);
    return true;
  }
  return false;
}

// Rebuilds the table with 2^to buckets: an entry's 27 key bits are its home's bits then its
// fingerprint's, so they move between the two as b changes. Growing never fails (the entries
// of one home fill at most one new pair); shrinking fails, leaving the table as it was, when
// a new pair would overflow.
bool Rehash(uint8_t* state, WindowGrowth& growth, uint32_t to) {
  const uint32_t from = Log2Buckets(state);
  const uint32_t* old = Slots(state, &growth);
  std::vector<uint32_t> slots((size_t{1} << to) * kSlotsPerBucket, 0);
  for (size_t i = 0; i < (size_t{1} << from) * kSlotsPerBucket; ++i) {
    if (old[i] == 0) continue;
    const auto bucket = static_cast<uint32_t>(i / kSlotsPerBucket);
    const uint32_t home = (old[i] & kAway) != 0 ? bucket ^ 1 : bucket;
    const uint32_t fingerprint_bits = kKeyBits - from;
    const uint32_t key = home << fingerprint_bits | (old[i] & ((1u << fingerprint_bits) - 1));
    const Placement at = Place(uint64_t{key} << (64 - kKeyBits), to);
    if (!Put(slots.data(), at.home, (old[i] >> kSegmentShift) - 1, at.fingerprint)) return false;
  }
  uint8_t* start = state + kTableHeaderBytes;
  const uint64_t start_bytes = kTableStartBuckets * kTableBucketBytes;
  if (to == 1) {
    std::memcpy(start, slots.data(), start_bytes);
    WindowGrowth().swap(growth);
  } else {
    std::memset(start, 0, start_bytes);
    const auto* bytes = reinterpret_cast<const uint8_t*>(slots.data());
    WindowGrowth(bytes, bytes + slots.size() * 4).swap(growth);
  }
  StoreLe32(state + kLog2BucketsAt, to);
  return true;
}

// Empties the slots of the segments in `mask`; returns how many entries are left.
uint64_t ClearSegments(uint8_t* state, WindowGrowth& growth, uint32_t mask) {
  uint32_t* slots = Slots(state, growth);
  uint64_t left = 0;
  for (size_t i = 0; i < (size_t{1} << Log2Buckets(state)) * kSlotsPerBucket; ++i) {
    const uint32_t segment = slots[i] >> kSegmentShift;
    if (segment != 0 && ((mask >> (segment - 1)) & 1)) slots[i] = 0;
    left += slots[i] != 0;
  }
  return left;
}

// Halves the table while a quarter of it would still hold the entries.
void Shrink(uint8_t* state, WindowGrowth& growth, uint64_t entries) {
  for (uint32_t b = Log2Buckets(state); b > 1 && entries * 8 <= (uint64_t{kSlotsPerBucket} << b); --b) {
    if (!Rehash(state, growth, b - 1)) return;
  }
}

// Time mode, before a write: applies the rotations `now` is due, emptying the segments that
// become current, and shrinks what they leave.
void CatchUp(const WindowParams& p, uint8_t* state, WindowGrowth& growth, uint32_t now) {
  const uint32_t pending = PendingRotations(p, state, now);
  if (pending == 0) return;
  const uint32_t current = LoadLe32(state + 4);
  uint32_t cleared = 0;
  for (uint32_t i = 1; i <= pending; ++i) cleared |= 1u << ((current + i) % p.segments);
  StoreLe32(state + 4, (current + pending) % p.segments);
  const uint64_t gap = static_cast<uint64_t>(now - LoadLe32(state)) / p.segment_span;
  StoreLe32(state, LoadLe32(state) + static_cast<uint32_t>(gap * p.segment_span));
  Shrink(state, growth, ClearSegments(state, growth, cleared));
}

uint64_t TableBytes(uint32_t b) { return (uint64_t{kTableBucketBytes} << b); }

// Gives up the oldest segment still held; when none is left but the current one, that one too,
// and it starts over (kept_since = now + 1), as a growing window does.
void GiveUpOldest(const WindowParams& p, uint8_t* state, WindowGrowth& growth, uint32_t now) {
  const int64_t start = LoadLe32(state);
  const uint32_t current = LoadLe32(state + 4);
  for (uint32_t back = p.segments - 1; back > 0; --back) {
    const int64_t bucket = start - int64_t{back} * p.segment_span;
    if (bucket + p.segment_span <= LoadLe32(state + kKeptSinceAt)) continue;  // given up already
    ClearSegments(state, growth, 1u << ((current + p.segments - back) % p.segments));
    StoreLe32(state + kKeptSinceAt, static_cast<uint32_t>(bucket + p.segment_span));
    return;
  }
  ClearSegments(state, growth, 1u << current);
  StoreLe32(state + kKeptSinceAt, now == UINT32_MAX ? now : now + 1);
}

}  // namespace

uint32_t TableMaxLog2Buckets(double fpr) {
  // A full table holds 8 entries per home on average: 8 / 2^(27 - b) <= fpr.
  const double b = kKeyBits + std::log2(fpr / kSlotsPerBucket);
  return static_cast<uint32_t>(std::clamp(std::floor(b), 0.0, static_cast<double>(kKeyBits - 1)));
}

void TableReset(uint8_t* state) { StoreLe32(state + kLog2BucketsAt, 1); }

bool TableLog2BucketsValid(const WindowParams& p, const uint8_t* state) {
  const uint32_t b = Log2Buckets(state);
  return b >= 1 && b <= TableMaxLog2Buckets(p.target_fpr);
}

uint32_t TableAdd(const WindowParams& p, uint8_t* state, WindowGrowth& growth, const uint64_t* hashes,
                  size_t n, uint32_t now) {
  CatchUp(p, state, growth, now);
  const uint32_t current = LoadLe32(state + 4);
  const uint32_t max_log2 = TableMaxLog2Buckets(p.target_fpr);
  uint32_t given_up = 0;
  for (size_t i = 0; i < n; ++i) {
    for (;;) {
      const uint32_t b = Log2Buckets(state);
      const Placement at = Place(hashes[i], b);
      uint32_t* slots = Slots(state, growth);
      // An item added again moves to the current segment: it was shown now.
      uint32_t* entry = Entry(slots + at.home * kSlotsPerBucket, at.fingerprint);
      if (entry == nullptr) entry = Entry(slots + (at.home ^ 1) * kSlotsPerBucket, kAway | at.fingerprint);
      if (entry != nullptr) {
        *entry = SlotOf(current, (*entry & kAway) != 0, at.fingerprint);
        break;
      }
      if (Put(slots, at.home, current, at.fingerprint)) break;
      if (b < max_log2 && p.state_bytes() + TableBytes(b + 1) <= p.max_bytes) {
        Rehash(state, growth, b + 1);
      } else {
        GiveUpOldest(p, state, growth, now);
        ++given_up;
      }
    }
  }
  return given_up;
}

void TableContains(const WindowParams& p, const uint8_t* state, const WindowGrowth* growth,
                   const uint64_t* hashes, size_t n, uint32_t now, uint8_t* out) {
  TableHeld({Slots(state, growth), Log2Buckets(state), LiveSegments(p, state, now)}, hashes, n, out);
}

WindowSaturation TableSaturation(const WindowParams& p, const uint8_t* state, const WindowGrowth* growth,
                                 uint32_t now) {
  const uint32_t b = Log2Buckets(state);
  const uint32_t* slots = Slots(state, growth);
  const uint32_t live = LiveSegments(p, state, now);
  const uint64_t capacity = uint64_t{kSlotsPerBucket} << b;
  uint64_t entries = 0;
  for (uint64_t i = 0; i < capacity; ++i) {
    const uint32_t segment = slots[i] >> kSegmentShift;
    entries += segment != 0 && ((live >> (segment - 1)) & 1);
  }
  // A fresh item is compared with the entries of its home: entries / 2^b of them on average.
  const double per_home = static_cast<double>(entries) / static_cast<double>(uint64_t{1} << b);
  const double rate = 1 - std::pow(1 - std::ldexp(1.0, -static_cast<int>(kKeyBits - b)), per_home);
  return {static_cast<double>(entries) / static_cast<double>(capacity), rate, GrowingEffectiveSpan(p, state, now)};
}

void ValidateTable(const WindowParams& p, const uint8_t* state, const WindowGrowth& growth,
                   const std::string& source) {
  auto bad = [&](const std::string& what) { throw Error(Code::kInconsistent, source + ": window table " + what); };
  const uint32_t b = Log2Buckets(state);
  if (!TableLog2BucketsValid(p, state)) bad("has a bucket count outside what its rate allows");
  if (growth.size() != (b == 1 ? 0 : TableBytes(b))) bad("size does not match its bucket count");
  if (p.state_bytes() + growth.size() > p.max_bytes) bad("is past max_bytes");
  const uint32_t* slots = Slots(state, &growth);
  const uint32_t fingerprint_bits = kKeyBits - b;
  for (uint64_t i = 0; i < (uint64_t{kSlotsPerBucket} << b); ++i) {
    const uint32_t segment = slots[i] >> kSegmentShift;
    if (slots[i] != 0 && (segment == 0 || segment > p.segments)) bad("slot names no segment of the window");
    if (((slots[i] & (kAway - 1)) >> fingerprint_bits) != 0) bad("slot has a fingerprint wider than its table allows");
  }
  if (b > 1) {
    const uint8_t* start = state + kTableHeaderBytes;
    if (std::any_of(start, start + kTableStartBuckets * kTableBucketBytes, [](uint8_t x) { return x != 0; })) {
      bad("keeps slots in the state after it moved to the growth");
    }
  }
}

}  // namespace seen
