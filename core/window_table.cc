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

// A free slot of `count` slots (every non-empty slot is live once the clock has caught up),
// or null.
uint32_t* FreeSlot(uint32_t* slots, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    if (slots[i] == 0) return slots + i;
  }
  return nullptr;
}

bool Overflowed(const uint32_t* line) { return line[0] == kOverflowMarker; }

// The entry of an item (any segment), or null: in its line, or displaced in the buddy.
uint32_t* Entry(uint32_t* slots, uint32_t b, const Placement& at) {
  uint32_t* line = slots + (at.home >> 1) * kSlotsPerLine;
  for (uint32_t i = 0; i < kSlotsPerLine; ++i) {
    if (line[i] != 0 && line[i] != kOverflowMarker &&
        (line[i] & kLowBits) == (NativeFlags(at.home, i / kSlotsPerBucket) | at.fingerprint)) {
      return line + i;
    }
  }
  if (b < 2 || !Overflowed(line)) return nullptr;
  uint32_t* buddy = slots + ((at.home >> 1) ^ 1) * kSlotsPerLine;
  for (uint32_t i = 0; i < kSlotsPerLine; ++i) {
    if (buddy[i] != 0 && buddy[i] != kOverflowMarker && (buddy[i] & kLowBits) == (DisplacedFlags(at.home) | at.fingerprint)) {
      return buddy + i;
    }
  }
  return nullptr;
}

// The home bucket of the entry in slot i.
uint32_t HomeOf(uint32_t slot, size_t i) {
  const auto bucket = static_cast<uint32_t>(i / kSlotsPerBucket);
  if ((slot & kDisplaced) != 0) return (((bucket >> 1) ^ 1) << 1) | ((slot & kAway) != 0 ? 1 : 0);
  return (slot & kAway) != 0 ? bucket ^ 1 : bucket;
}

// Puts an entry in its line: its home bucket, else the other; else, from 4 buckets up, in the
// buddy line, first marking its own line overflowed (the marker takes a slot: an entry of the
// line moves to the buddy to make room, or home if it was displaced from there). False when
// there is no room.
bool Put(uint32_t* slots, uint32_t b, uint32_t home, uint32_t segment, uint32_t fingerprint) {
  uint32_t* line = slots + (home >> 1) * kSlotsPerLine;
  const uint32_t mine = (home & 1) * kSlotsPerBucket, other = kSlotsPerBucket - mine;
  uint32_t* free = FreeSlot(line + mine, kSlotsPerBucket);
  if (free == nullptr) free = FreeSlot(line + other, kSlotsPerBucket);
  if (free != nullptr) {
    *free = SlotOf(segment, NativeFlags(home, static_cast<uint32_t>(free - line) / kSlotsPerBucket), fingerprint);
    return true;
  }
  if (b < 2) return false;
  uint32_t* buddy = slots + ((home >> 1) ^ 1) * kSlotsPerLine;
  if (!Overflowed(line)) {
    uint32_t* moved_to = FreeSlot(buddy, kSlotsPerLine);
    if (moved_to == nullptr) return false;
    // Line slot 0 makes room: whichever entry it holds goes to the buddy line.
    const uint32_t moved = line[0];
    const uint32_t moved_home = HomeOf(moved, static_cast<size_t>(line - slots));
    const uint32_t fingerprint_of_moved = moved & (kAway - 1);
    const uint32_t flags = (moved & kDisplaced) != 0
                               ? NativeFlags(moved_home, static_cast<uint32_t>(moved_to - buddy) / kSlotsPerBucket)
                               : DisplacedFlags(moved_home);
    *moved_to = (moved & ~kLowBits) | flags | fingerprint_of_moved;
    line[0] = kOverflowMarker;
  }
  free = FreeSlot(buddy, kSlotsPerLine);
  if (free == nullptr) return false;
  *free = SlotOf(segment, DisplacedFlags(home), fingerprint);
  return true;
}

// Rebuilds the table with 2^to buckets: an entry's 26 key bits are its home's bits then its
// fingerprint's, so they move between the two as b changes. False, leaving the table as it
// was, when a line and its buddy cannot hold what falls in them, or while a saturation marker
// is live (the items it answers for have no key bits to move).
bool Rehash(uint8_t* state, WindowGrowth& growth, uint32_t to) {
  const uint32_t from = Log2Buckets(state);
  const uint32_t* old = Slots(state, &growth);
  const size_t count = (size_t{1} << from) * kSlotsPerBucket;
  if (std::any_of(old, old + count, IsSaturation)) return false;
  const uint32_t fingerprint_bits = kKeyBits - from;
  // Built where it will stay: the growth (zeros: empty slots), or for the first table a
  // buffer for the state.
  WindowGrowth built(to == 1 ? 0 : (size_t{1} << to) * kTableBucketBytes);
  uint32_t first[kTableStartBuckets * kSlotsPerBucket] = {};
  uint32_t* slots = to == 1 ? first : reinterpret_cast<uint32_t*>(built.data());
  for (size_t i = 0; i < count; ++i) {
    if (old[i] == 0 || old[i] == kOverflowMarker) continue;
    const uint32_t key = HomeOf(old[i], i) << fingerprint_bits | (old[i] & ((1u << fingerprint_bits) - 1));
    const Placement at = Place(uint64_t{key} << (64 - kKeyBits), to);
    if (!Put(slots, to, at.home, (old[i] >> kSegmentShift) - 1, at.fingerprint)) return false;
  }
  uint8_t* start = state + kTableHeaderBytes;
  std::memcpy(start, first, sizeof first);  // zero unless the table is back to its first
  built.swap(growth);
  StoreLe32(state + kLog2BucketsAt, to);
  return true;
}

// Empties the slots of the segments in `mask`; returns how many entries are left.
uint64_t ClearSegments(uint8_t* state, WindowGrowth& growth, uint32_t mask) {
  uint32_t* slots = Slots(state, growth);
  uint64_t left = 0;
  for (size_t i = 0; i < (size_t{1} << Log2Buckets(state)) * kSlotsPerBucket; ++i) {
    const uint32_t segment = slots[i] >> kSegmentShift;
    if (segment != 0 && slots[i] != kOverflowMarker && ((mask >> (segment - 1)) & 1)) slots[i] = 0;
    left += slots[i] != 0 && slots[i] != kOverflowMarker;
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

// Doubles the table (more than once in the rare case that a line cannot hold what doubling
// puts in it), within max_bytes and the rate's limit; false when it cannot.
bool Grow(const WindowParams& p, uint8_t* state, WindowGrowth& growth, uint32_t max_log2) {
  for (uint32_t to = Log2Buckets(state) + 1; to <= max_log2 && p.state_bytes() + TableBytes(to) <= p.max_bytes; ++to) {
    if (Rehash(state, growth, to)) return true;
  }
  return false;
}

// Gives up the oldest segment before the current one that still holds entries, moving
// kept_since past its end. It goes by the entries, not by kept_since alone: a segment that
// kept_since already passed may still hold entries (added at the second its successor
// started, or in a hostile file), and skipping it would leave an add looping. False when no
// older segment holds any: the current one holds items of this very call, and is never given up.
bool GiveUpOldest(const WindowParams& p, uint8_t* state, WindowGrowth& growth) {
  const uint32_t* slots = Slots(state, growth);
  uint32_t held = 0;
  for (size_t i = 0; i < (size_t{1} << Log2Buckets(state)) * kSlotsPerBucket; ++i) {
    const uint32_t segment = slots[i] >> kSegmentShift;
    if (segment != 0 && slots[i] != kOverflowMarker) held |= 1u << (segment - 1);
  }
  const int64_t start = LoadLe32(state);
  const uint32_t current = LoadLe32(state + 4);
  for (uint32_t back = p.segments - 1; back > 0; --back) {
    const uint32_t segment = (current + p.segments - back) % p.segments;
    if (((held >> segment) & 1) == 0) continue;
    ClearSegments(state, growth, 1u << segment);
    const int64_t segment_end = start - int64_t{back - 1} * p.segment_span;
    const int64_t kept_since = std::max<int64_t>(LoadLe32(state + kKeptSinceAt), segment_end);
    StoreLe32(state + kKeptSinceAt, static_cast<uint32_t>(std::clamp<int64_t>(kept_since, 0, UINT32_MAX)));
    return true;
  }
  return false;
}

// The live saturation marker of an item's line, or null.
uint32_t* SaturationOf(uint32_t* slots, uint32_t home) {
  uint32_t* line = slots + (home >> 1) * kSlotsPerLine;
  uint32_t* marker = std::find_if(line, line + kSlotsPerLine, IsSaturation);
  return marker == line + kSlotsPerLine ? nullptr : marker;
}

// Gives up the rate of an item's full line, so as to keep the item: a saturation marker of
// the current segment takes the place of one of its entries, and answers for that entry, the
// item and whatever else the line's queries read, until the segment goes. Every entry left is
// of the current segment (older ones were given up first), so none outlives the marker.
void Saturate(uint32_t* slots, uint32_t home, uint32_t current) {
  uint32_t* line = slots + (home >> 1) * kSlotsPerLine;
  line[Overflowed(line) ? 1 : 0] = SlotOf(current, kSaturated, 0);
}

}  // namespace

uint32_t TableMaxLog2Buckets(double fpr) {
  // A full table holds 8 entries per home on average: 8 / 2^(26 - b) <= fpr.
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
  bool only_current = false;
  for (size_t i = 0; i < n; ++i) {
    for (;;) {
      const uint32_t b = Log2Buckets(state);
      const Placement at = Place(hashes[i], b);
      uint32_t* slots = Slots(state, growth);
      // An item added again moves to the current segment: it was shown now.
      if (uint32_t* entry = Entry(slots, b, at)) {
        *entry = SlotOf(current, *entry & (kDisplaced | kAway), at.fingerprint);
        break;
      }
      if (uint32_t* marker = SaturationOf(slots, at.home)) {
        *marker = SlotOf(current, kSaturated, 0);
        break;
      }
      if (Put(slots, b, at.home, current, at.fingerprint)) break;
      if (Grow(p, state, growth, max_log2)) continue;
      // Time before rate, but never the current segment's: past that, the rate. Once no older
      // segment holds an entry, none will in this call: its later items skip the table scan.
      if (!only_current && GiveUpOldest(p, state, growth)) {
        ++given_up;
        continue;
      }
      only_current = true;
      Saturate(slots, at.home, current);
      break;
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
  const uint64_t lines = capacity / kSlotsPerLine;
  uint64_t entries = 0;
  std::vector<bool> marked(lines);
  for (uint64_t i = 0; i < capacity; ++i) {
    const uint32_t segment = slots[i] >> kSegmentShift;
    const bool counts = segment != 0 && slots[i] != kOverflowMarker && ((live >> (segment - 1)) & 1);
    entries += counts && !IsSaturation(slots[i]);
    if (counts && IsSaturation(slots[i])) marked[i / kSlotsPerLine] = true;
  }
  // A line answers for every item whose query reads a live saturation marker: in the line, or
  // in its buddy when the line overflowed.
  uint64_t answering = 0;
  for (uint64_t line = 0; line < lines; ++line) {
    answering += marked[line] || (Overflowed(slots + line * kSlotsPerLine) && marked[line ^ 1]);
  }
  // Else a fresh item is compared with the entries of its home: entries / 2^b of them on average.
  const double per_home = static_cast<double>(entries) / static_cast<double>(uint64_t{1} << b);
  const double matched = 1 - std::pow(1 - std::ldexp(1.0, -static_cast<int>(kKeyBits - b)), per_home);
  const double share = static_cast<double>(answering) / static_cast<double>(lines);
  const double rate = share + (1 - share) * matched;
  return {static_cast<double>(entries) / static_cast<double>(capacity), rate, GrowingEffectiveSpan(p, state, now)};
}

Status CheckTable(const WindowParams& p, const uint8_t* state, const uint8_t* growth, uint64_t growth_size,
                  const std::string& source) {
  auto bad = [&](const std::string& what) { return Status::Refused(Code::kInconsistent, source + ": window table " + what); };
  const uint32_t b = Log2Buckets(state);
  if (!TableLog2BucketsValid(p, state)) return bad("has a bucket count outside what its rate allows");
  if (growth_size != (b == 1 ? 0 : TableBytes(b))) return bad("size does not match its bucket count");
  if (p.state_bytes() + growth_size > p.max_bytes) return bad("is past max_bytes");
  // Read as little-endian words, not through a uint32_t pointer: the bytes may still be the
  // caller's buffer, at any alignment.
  const uint8_t* slots = growth_size != 0 ? growth : state + kTableHeaderBytes;
  const uint32_t fingerprint_bits = kKeyBits - b;
  for (uint64_t i = 0; i < (uint64_t{kSlotsPerBucket} << b); ++i) {
    const uint32_t slot = LoadLe32(slots + 4 * i);
    if (slot == kOverflowMarker) {
      if (b < 2 || i % kSlotsPerLine != 0) return bad("has an overflow marker outside a line's first slot, or in a table of one line");
      continue;
    }
    const uint32_t segment = slot >> kSegmentShift;
    if (slot != 0 && (segment == 0 || segment > p.segments)) return bad("slot names no segment of the window");
    if (IsSaturation(slot)) continue;
    if (((slot & (kAway - 1)) >> fingerprint_bits) != 0) return bad("slot has a fingerprint wider than its table allows");
  }
  if (b > 1) {
    const uint8_t* start = state + kTableHeaderBytes;
    if (std::any_of(start, start + kTableStartBuckets * kTableBucketBytes, [](uint8_t x) { return x != 0; })) {
      return bad("keeps slots in the state after it moved to the growth");
    }
  }
  return {};
}

}  // namespace seen
