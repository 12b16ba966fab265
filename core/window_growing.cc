#include "core/window_growing.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/window_cells.h"
#include "core/window_kernels.h"

namespace seen {
using namespace window_cells;

namespace {

// Header fields past the sliced ones (segment start at 0, current segment at 4).
constexpr uint64_t kItemsAt = 8;
constexpr uint64_t kKeptSinceAt = 12;
constexpr uint64_t kLevelHeadBytes = 16;
// 4^15 times the base's items is far past any max_bytes; a deeper level is corrupt.
constexpr uint32_t kMaxGeneration = 15;
constexpr uint64_t kNoRoom = std::numeric_limits<uint64_t>::max();

// A level has one slot per segment holding items in it, in the order of the segments: its
// cells are `slots` bits wide, so memory follows the segments that grew, not all S.
struct Level {
  uint32_t generation;
  uint32_t segments;  // mask of the segments with a slot
  CellShape shape;    // shape.segments: the slots
  uint64_t at;        // where its head starts in the growth
  const uint8_t* cells(const WindowGrowth& g) const { return g.data() + at + kLevelHeadBytes; }
  uint8_t* cells(WindowGrowth& g) const { return g.data() + at + kLevelHeadBytes; }
};

uint64_t LevelBytes(const CellShape& shape) {
  return kLevelHeadBytes + (CellBytes(shape.bits, shape.segments) + 3) / 4 * 4;
}

// At most what one more slot adds to a level of `bits` positions.
uint64_t SlotBytes(uint32_t bits) { return (uint64_t{bits} + 7) / 8 + 4; }

Level ReadLevel(const uint8_t* growth, uint64_t at) {
  const uint8_t* head = growth + at;
  const uint32_t segments = LoadLe32(head + 12);
  return {LoadLe32(head), segments,
          {LoadLe32(head + 4), static_cast<uint32_t>(__builtin_popcount(segments)), LoadLe32(head + 8)}, at};
}

// A validated growth's levels (at most one per generation), without allocating: adds and
// queries list them on every call.
struct LevelList {
  std::array<Level, kMaxGeneration> items;
  size_t size = 0;
  const Level* begin() const { return items.data(); }
  const Level* end() const { return items.data() + size; }
};

LevelList Levels(const WindowGrowth& g) {
  LevelList levels;
  for (uint64_t at = 0; at < g.size() && levels.size < kMaxGeneration; at += LevelBytes(levels.items[levels.size++].shape)) {
    levels.items[levels.size] = ReadLevel(g.data(), at);
  }
  return levels;
}

// The slots of the segments in `mask` within a level's `segments`.
uint32_t SlotsOf(uint32_t mask, uint32_t segments) {
  uint32_t slots = 0;
  for (uint32_t slot = 0; segments != 0; segments &= segments - 1, ++slot) {
    if (mask & segments & -segments) slots |= 1u << slot;
  }
  return slots;
}

// The slot of segment s within `segments` (which holds it).
uint32_t SlotOf(uint32_t s, uint32_t segments) {
  return static_cast<uint32_t>(__builtin_popcount(segments & ((1u << s) - 1)));
}

// Copies each kept segment's bit of every cell from its old slot (`from`) to its new one
// (`to`) in cells of the same positions. A heavy user's level has millions of positions, and
// it is rewritten whenever a segment takes a slot in it or leaves it: a cell is remapped
// through tables of its low and high byte, and cells of at most 8 bits go 8 at a time (whole
// bytes in either width).
void MoveSlots(const CellShape& old_shape, const uint8_t* old_cells, const CellShape& shape, uint8_t* cells,
               const uint32_t* from, const uint32_t* to, uint32_t moves) {
  uint32_t low[256] = {}, high[256] = {};
  for (uint32_t m = 0; m < moves; ++m) {
    uint32_t* table = from[m] < 8 ? low : high;
    for (uint32_t byte = 0; byte < 256; ++byte) table[byte] |= ((byte >> (from[m] % 8)) & 1) << to[m];
  }
  const auto moved = [&](uint32_t cell) { return low[cell & 0xFF] | high[cell >> 8]; };
  const uint32_t in_width = old_shape.segments, out_width = shape.segments;
  const uint64_t in_bytes = CellBytes(old_shape.bits, in_width), out_bytes = CellBytes(shape.bits, out_width);
  uint32_t pos = 0;
  if (in_width <= 8 && out_width <= 8) {
    const uint64_t in_mask = (1u << in_width) - 1;
    // While both 8-byte accesses stay in their arrays.
    for (; pos + 8 <= shape.bits && pos / 8 * uint64_t{in_width} + 8 <= in_bytes &&
           pos / 8 * uint64_t{out_width} + 8 <= out_bytes;
         pos += 8) {
      const uint64_t in = LoadLe64(old_cells + pos / 8 * in_width);
      uint64_t out = 0;
      for (uint32_t c = 0; c < 8; ++c) out |= uint64_t{moved((in >> (c * in_width)) & in_mask)} << (c * out_width);
      StoreLe64(cells + pos / 8 * out_width, out);
    }
  }
  // The rest cell by cell into a bit stream, from the byte the last group ended on.
  uint8_t* out = cells + pos / 8 * out_width;
  uint64_t pending = 0;
  uint32_t pending_bits = 0;
  for (; pos < shape.bits; ++pos) {
    pending |= uint64_t{moved(CellAt(old_shape, old_cells, pos))} << pending_bits;
    pending_bits += out_width;
    if (pending_bits >= 32) {
      StoreLe32(out, static_cast<uint32_t>(pending));
      out += 4, pending >>= 32, pending_bits -= 32;
    }
  }
  for (; pending_bits > 0; pending_bits = pending_bits > 8 ? pending_bits - 8 : 0) {
    *out++ = static_cast<uint8_t>(pending);
    pending >>= 8;
  }
}

// The bytes of a level of `base_shape` with slots for `segments` (none for no segments).
uint64_t ReslottedBytes(const CellShape& base_shape, uint32_t segments) {
  if (segments == 0) return 0;
  return LevelBytes({base_shape.bits, static_cast<uint32_t>(__builtin_popcount(segments)), base_shape.k});
}

// Appends to `next` (its capacity reserved) the level `old` of `growth` with slots for
// `segments`, keeping the cells of the segments it already had; nothing for no segments.
void AppendReslotted(WindowGrowth& next, const WindowGrowth& growth, const Level& old, uint32_t generation,
                     const CellShape& base_shape, uint32_t segments) {
  if (segments == 0) return;
  const CellShape shape{base_shape.bits, static_cast<uint32_t>(__builtin_popcount(segments)), base_shape.k};
  const uint64_t at = next.size();
  next.resize(at + LevelBytes(shape));  // zeros: a new level's cells are empty, and MoveSlots leaves the padding
  uint8_t* level = next.data() + at;
  const uint32_t head[4] = {generation, shape.bits, shape.k, segments};
  for (int i = 0; i < 4; ++i) StoreLe32(level + 4 * i, head[i]);
  // Where each kept segment's bit moves: from its old slot to its new one.
  uint32_t from[kMaxWindowSegments], to[kMaxWindowSegments], moves = 0;
  for (uint32_t kept = old.segments & segments; kept != 0; kept &= kept - 1, ++moves) {
    const auto s = static_cast<uint32_t>(__builtin_ctz(kept));
    from[moves] = SlotOf(s, old.segments), to[moves] = SlotOf(s, segments);
  }
  if (moves > 0) MoveSlots(old.shape, old.cells(growth), shape, level + kLevelHeadBytes, from, to, moves);
}

// Rewrites a level (or, at `at` past the last, writes a new one) with slots for `segments`,
// keeping the cells of segments it already had; for no segments the level goes. The growth
// is rebuilt at its exact size, so memory follows the slots held.
void Reslot(WindowGrowth& growth, uint64_t at, uint64_t old_bytes, const Level& old, uint32_t generation,
            const CellShape& base_shape, uint32_t segments) {
  WindowGrowth next;
  next.reserve(growth.size() - old_bytes + ReslottedBytes(base_shape, segments));  // exactly: no doubling past max_bytes
  next.insert(next.end(), growth.begin(), growth.begin() + static_cast<std::ptrdiff_t>(at));
  AppendReslotted(next, growth, old, generation, base_shape, segments);
  next.insert(next.end(), growth.begin() + static_cast<std::ptrdiff_t>(at + old_bytes), growth.end());
  growth.swap(next);
}

uint64_t Capacity(const WindowParams& p, uint32_t generation) {
  return uint64_t{p.segment_items} << (2 * generation);
}

// Where the next item of a segment that already took `items` goes: 0 is the base, g the level
// whose share of the segment's items holds it; kMaxGeneration + 1 if none could.
uint32_t LevelOf(const WindowParams& p, uint64_t items) {
  uint64_t end = p.segment_items;
  uint32_t generation = 0;
  while (items >= end && generation <= kMaxGeneration) end += Capacity(p, ++generation);
  return generation;
}

// Level g takes the growth share / 2^g of each segment's budget: all levels together take
// at most the growth share. Bits 0 when no shape reaches it.
CellShape LevelShape(const WindowParams& p, uint32_t generation) {
  const uint64_t capacity = Capacity(p, generation);
  if (generation > kMaxGeneration || capacity > UINT32_MAX) return {0, 1, 0};
  const double segment_fpr = 1.0 - std::pow(1.0 - p.target_fpr, 1.0 / p.segments);
  const double fpr = segment_fpr * kGrowingGrowthShare * std::ldexp(1.0, -static_cast<int>(generation));
  const BloomShape shape = SmallestBloom(static_cast<uint32_t>(capacity), fpr);
  if (shape.bits > (1u << 28)) return {0, 1, 0};
  return {shape.bits, 1, shape.k};
}

// LevelShape, remembered per thread for the last params it was asked about (a store's users
// all share theirs): its search takes tens of microseconds, and users open levels often.
CellShape RememberedLevelShape(const WindowParams& p, uint32_t generation) {
  struct Remembered {
    uint32_t segment_items = 0, segments = 0;
    double target_fpr = 0;
    uint32_t known = 0;  // a bit per generation
    std::array<CellShape, kMaxGeneration + 1> shapes;
  };
  thread_local Remembered remembered;
  if (generation > kMaxGeneration) return LevelShape(p, generation);
  Remembered& r = remembered;
  if (r.segment_items != p.segment_items || r.segments != p.segments || r.target_fpr != p.target_fpr) {
    r = {p.segment_items, p.segments, p.target_fpr, 0, {}};
  }
  if (((r.known >> generation) & 1) == 0) r.shapes[generation] = LevelShape(p, generation), r.known |= 1u << generation;
  return r.shapes[generation];
}

// Takes the segments in `mask` out of every level (their slots go; a level left with none
// goes), rebuilding the growth once. The base's cells are the caller's.
void DropFromLevels(WindowGrowth& growth, uint32_t mask) {
  const LevelList levels = Levels(growth);
  uint64_t bytes = 0;
  bool touched = false;
  for (const Level& level : levels) {
    touched |= (level.segments & mask) != 0;
    bytes += ReslottedBytes(level.shape, level.segments & ~mask);
  }
  if (!touched) return;
  WindowGrowth next;
  next.reserve(bytes);  // exactly, as Reslot
  for (const Level& level : levels) {
    if ((level.segments & mask) == 0) {
      const auto begin = growth.begin() + static_cast<std::ptrdiff_t>(level.at);
      next.insert(next.end(), begin, begin + static_cast<std::ptrdiff_t>(LevelBytes(level.shape)));
    } else {
      AppendReslotted(next, growth, level, level.generation, level.shape, level.segments & ~mask);
    }
  }
  growth.swap(next);
}

void GiveUp(const WindowParams& p, uint8_t* state, WindowGrowth& growth, uint32_t mask) {
  for (uint32_t s = 0; s < p.segments; ++s) {
    if ((mask >> s) & 1) ClearSegment(BaseShape(p), state + kGrowingHeaderBytes, s);
  }
  DropFromLevels(growth, mask);
}

uint32_t SegmentMask(const WindowParams& p, uint32_t first, uint32_t count) {
  uint32_t mask = 0;
  for (uint32_t i = 0; i < std::min(count, p.segments); ++i) mask |= 1u << ((first + i) % p.segments);
  return mask;
}

// Gives up the oldest segments, fewest first, until `need` more bytes fit in max_bytes. False
// when all older ones are not enough: the current segment is never given up (it holds items
// of this very call), so the caller keeps the item in a level the segment already has, and
// the window gives up its rate instead.
bool MakeRoom(const WindowParams& p, uint8_t* state, WindowGrowth& growth, uint64_t need,
              uint32_t& given_up) {
  if (need == kNoRoom) return false;  // no level to make room for: giving up time cannot help
  auto fits = [&] { return p.state_bytes() + growth.size() + need <= p.max_bytes; };
  const int64_t start = LoadLe32(state);
  const uint32_t current = LoadLe32(state + 4);
  for (uint32_t back = p.segments - 1; back > 0 && !fits(); --back) {
    const int64_t bucket = start - int64_t{back} * p.segment_span;
    if (bucket + p.segment_span <= LoadLe32(state + kKeptSinceAt)) continue;  // given up already
    GiveUp(p, state, growth, 1u << ((current + p.segments - back) % p.segments));
    StoreLe32(state + kKeptSinceAt, static_cast<uint32_t>(bucket + p.segment_span));
    ++given_up;
  }
  return fits();
}

const Level* Find(const LevelList& levels, uint32_t generation) {
  for (const Level& level : levels) {
    if (level.generation == generation) return &level;
  }
  return nullptr;
}

// The deepest level in which segment s has a slot, or null: where an item goes when max_bytes
// leaves no room for the level it is due, so the rate, not the item, is given up.
const Level* DeepestHolding(const LevelList& levels, uint32_t s) {
  const Level* deepest = nullptr;
  for (const Level& level : levels) {
    if (((level.segments >> s) & 1) && (deepest == nullptr || level.generation > deepest->generation)) deepest = &level;
  }
  return deepest;
}

// Adds an item to the current segment in level `generation`, giving the segment a slot there
// first (opening the level if no segment had one). Without room for that, in the deepest
// level the segment already has; false if it has none, and the caller adds to the base.
// `levels` are the growth's, kept so when it changes: an add of many items reads them once.
bool AddToLevel(const WindowParams& p, uint8_t* state, WindowGrowth& growth, LevelList& levels,
                uint32_t generation, uint64_t hash, uint32_t& given_up) {
  const uint32_t current = LoadLe32(state + 4);
  const Level* level = Find(levels, generation);
  if (level == nullptr || ((level->segments >> current) & 1) == 0) {
    // A level keeps the shape it has (a file's levels are its own); a new one is sized here.
    const CellShape shape = level != nullptr ? CellShape{level->shape.bits, 1, level->shape.k} : RememberedLevelShape(p, generation);
    const uint64_t need = shape.bits == 0 ? kNoRoom : level == nullptr ? LevelBytes(shape) : SlotBytes(shape.bits);
    const bool room = MakeRoom(p, state, growth, need, given_up);
    levels = Levels(growth);  // giving up moved them
    if (room) {
      uint64_t at = 0;  // levels stay in order of generation
      for (const Level& l : levels) {
        if (l.generation < generation) at = l.at + LevelBytes(l.shape);
      }
      const Level* existing = Find(levels, generation);
      const Level none{generation, 0, shape, at};
      const Level& old = existing != nullptr ? *existing : none;
      Reslot(growth, at, existing != nullptr ? LevelBytes(old.shape) : 0, old, generation, shape,
             old.segments | 1u << current);
      levels = Levels(growth);
      level = Find(levels, generation);
    } else {
      level = DeepestHolding(levels, current);
      if (level == nullptr) return false;
    }
  }
  AddToSegment(level->shape, level->cells(growth), SlotOf(current, level->segments), hash);
  return true;
}

}  // namespace

uint32_t GrowingAdd(const WindowParams& p, uint8_t* state, WindowGrowth& growth,
                    const uint64_t* hashes, size_t n, uint32_t now) {
  uint32_t given_up = 0;
  uint8_t* cells = state + kGrowingHeaderBytes;
  const uint32_t before = LoadLe32(state + 4);
  const uint32_t rotated = CatchUpClock(p, state, cells, now);
  if (rotated > 0) {
    StoreLe32(state + kItemsAt, 0);
    DropFromLevels(growth, SegmentMask(p, before + 1, rotated));
  }
  LevelList levels = Levels(growth);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t generation = LevelOf(p, LoadLe32(state + kItemsAt));
    if (generation == 0 || !AddToLevel(p, state, growth, levels, generation, hashes[i], given_up)) {
      AddToSegment(BaseShape(p), cells, LoadLe32(state + 4), hashes[i]);
    }
    const uint32_t added = LoadLe32(state + kItemsAt);
    if (added != UINT32_MAX) StoreLe32(state + kItemsAt, added + 1);
  }
  return given_up;
}

void GrowingContains(const WindowParams& p, const uint8_t* state, const WindowGrowth* growth,
                     const uint64_t* hashes, size_t n, uint32_t now, uint8_t* out) {
  const uint32_t live = LiveSegments(p, state, now);
  // Each level answers for all its segments at once: a query costs one pass per level
  // (a handful, as each holds 4x the last), not one per segment and generation.
  std::array<LiveCells, 1 + kMaxGeneration> arrays;
  arrays[0] = {BaseShape(p), state + kGrowingHeaderBytes, live};
  size_t count = 1;
  if (growth != nullptr) {
    for (const Level& level : Levels(*growth)) arrays[count++] = {level.shape, level.cells(*growth), SlotsOf(live, level.segments)};
  }
  MarkHeld(arrays.data(), count, hashes, n, out);
}

WindowSaturation GrowingSaturation(const WindowParams& p, const uint8_t* state,
                                   const WindowGrowth* growth, uint32_t now) {
  const uint32_t live = LiveSegments(p, state, now);
  WindowSaturation sat = SegmentsSaturation(BaseShape(p), state + kGrowingHeaderBytes, live);
  double none_match = 1 - sat.rate;
  if (growth != nullptr) {
    for (const Level& level : Levels(*growth)) {
      const uint32_t slots = SlotsOf(live, level.segments);
      if (slots != 0) none_match *= 1 - SegmentsSaturation(level.shape, level.cells(*growth), slots).rate;
    }
  }
  sat.rate = 1 - none_match;
  sat.effective_span = GrowingEffectiveSpan(p, state, now);
  return sat;
}

uint32_t GrowingEffectiveSpan(const WindowParams& p, const uint8_t* state, uint32_t now) {
  const int64_t kept_since = LoadLe32(state + kKeptSinceAt);
  if (kept_since == 0) return p.span;
  return static_cast<uint32_t>(std::min<int64_t>(p.span, std::max<int64_t>(0, int64_t{now} - kept_since)));
}

Status CheckGrowth(const WindowParams& p, const uint8_t* growth, uint64_t size, const std::string& source) {
  auto bad = [&](const std::string& what) { return Status::Refused(Code::kInconsistent, source + ": window growth " + what); };
  if (p.state_bytes() + size > p.max_bytes) return bad("is past max_bytes");
  uint32_t previous = 0;
  for (uint64_t at = 0; at < size;) {
    if (size - at < kLevelHeadBytes) return bad("ends inside a level head");
    const Level level = ReadLevel(growth, at);
    if (level.generation < 1 || level.generation > kMaxGeneration) return bad("has a generation outside 1..15");
    if (level.generation <= previous) return bad("levels are out of order");
    if (level.shape.k < 1 || level.shape.k > kMaxWindowK) return bad("has k outside 1..16");
    if (level.shape.bits < 1 || level.shape.bits > (1u << 28)) return bad("has bits outside 1..2^28");
    if (LevelBytes(level.shape) > size - at) return bad("level runs past its end");
    if (level.segments == 0 || level.segments >> p.segments != 0) return bad("level has slots for no segment, or for one past S");
    previous = level.generation;
    at += LevelBytes(level.shape);
  }
  return {};
}

}  // namespace seen
