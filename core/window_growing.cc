#include "core/window_growing.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/window_cells.h"

namespace seen {
using namespace window_cells;

namespace {

// Header fields past the sliced ones (segment start at 0, current segment at 4).
constexpr uint64_t kItemsAt = 8;
constexpr uint64_t kKeptSinceAt = 12;
constexpr uint64_t kRecordHeadBytes = 20;
// 4^15 times the base's items is far past any max_bytes; a deeper generation is corrupt.
constexpr uint32_t kMaxGeneration = 15;
constexpr uint64_t kNoRoom = std::numeric_limits<uint64_t>::max();
// Candidates ahead whose first word a query prefetches: about one memory latency of checks.
constexpr size_t kPrefetchAhead = 8;

struct Record {
  uint32_t bucket_start, generation, items, bits, k;
};

Record ReadRecord(const uint8_t* at) {
  return {LoadLe32(at), LoadLe32(at + 4), LoadLe32(at + 8), LoadLe32(at + 12), LoadLe32(at + 16)};
}

uint64_t RecordBytes(uint32_t bits) { return kRecordHeadBytes + (uint64_t{bits} + 31) / 32 * 4; }

uint64_t Capacity(const WindowParams& p, uint32_t generation) {
  return uint64_t{p.segment_items} << (2 * generation);
}

// Generation g takes the growth share / 2^g of the segment's budget: all generations
// together take at most the growth share.
BloomShape GenerationShape(const WindowParams& p, uint32_t generation) {
  const uint64_t capacity = Capacity(p, generation);
  if (generation > kMaxGeneration || capacity > UINT32_MAX) return {};
  const double segment_fpr = 1.0 - std::pow(1.0 - p.target_fpr, 1.0 / p.segments);
  const double fpr = segment_fpr * kGrowingGrowthShare * std::ldexp(1.0, -static_cast<int>(generation));
  const BloomShape shape = SmallestBloom(static_cast<uint32_t>(capacity), fpr);
  return shape.bits <= (1u << 28) ? shape : BloomShape{};
}

bool RecordHolds(const Record& r, const uint8_t* bits, uint64_t hash) {
  for (uint32_t i = 0; i < r.k; ++i) {
    const uint32_t pos = PositionOf(r.bits, hash, i);
    if (((bits[pos / 8] >> (pos % 8)) & 1) == 0) return false;
  }
  return true;
}

// The start of the oldest segment still live at `now` (pending rotations clear the oldest).
int64_t OldestLiveStart(const WindowParams& p, const uint8_t* state, uint32_t now) {
  const int64_t pending = PendingRotations(p, state, now);
  return int64_t{LoadLe32(state)} + (pending - (p.segments - 1)) * int64_t{p.segment_span};
}

template <class Drop>
void EraseRecords(WindowGrowth& growth, Drop&& drop) {
  uint64_t kept = 0;
  for (uint64_t at = 0; at < growth.size();) {
    const uint64_t bytes = RecordBytes(ReadRecord(growth.data() + at).bits);
    if (!drop(ReadRecord(growth.data() + at))) {
      std::memmove(growth.data() + kept, growth.data() + at, bytes);
      kept += bytes;
    }
    at += bytes;
  }
  growth.resize(kept);
  // Memory follows the records held: max_bytes bounds what is allocated, not only used.
  growth.shrink_to_fit();
}

// Gives up the oldest time until `need` more bytes fit in max_bytes. False if the current
// segment had to start over (the caller then adds to the base).
bool MakeRoom(const WindowParams& p, uint8_t* state, WindowGrowth& growth, uint64_t need,
              uint32_t now, uint32_t& given_up) {
  auto fits = [&] { return need != kNoRoom && p.state_bytes() + growth.size() + need <= p.max_bytes; };
  const int64_t start = LoadLe32(state);
  const uint32_t current = LoadLe32(state + 4);
  for (uint32_t back = p.segments - 1; back > 0 && !fits(); --back) {
    const int64_t bucket = start - int64_t{back} * p.segment_span;
    if (bucket + p.segment_span <= LoadLe32(state + kKeptSinceAt)) continue;  // given up already
    ClearSegment(BaseShape(p), state + kGrowingHeaderBytes, (current + p.segments - back) % p.segments);
    EraseRecords(growth, [&](const Record& r) { return r.bucket_start == bucket; });
    StoreLe32(state + kKeptSinceAt, static_cast<uint32_t>(bucket + p.segment_span));
    ++given_up;
  }
  if (fits()) return true;
  ClearSegment(BaseShape(p), state + kGrowingHeaderBytes, current);
  EraseRecords(growth, [&](const Record& r) { return r.bucket_start == start; });
  StoreLe32(state + kItemsAt, 0);
  StoreLe32(state + kKeptSinceAt, now == UINT32_MAX ? now : now + 1);
  ++given_up;
  return false;
}

// Adds an item past the base's capacity to the current segment's newest sub-filter, opening
// the next generation when it is full. False if the current segment started over instead.
bool AddToGrowth(const WindowParams& p, uint8_t* state, WindowGrowth& growth, uint64_t hash,
                 uint32_t now, uint32_t& given_up) {
  const uint32_t start = LoadLe32(state);
  uint64_t last = kNoRoom;
  for (uint64_t at = 0; at < growth.size(); at += RecordBytes(ReadRecord(growth.data() + at).bits)) last = at;
  uint32_t generation = 1;
  if (last != kNoRoom && ReadRecord(growth.data() + last).bucket_start == start) {
    const Record r = ReadRecord(growth.data() + last);
    if (r.items < Capacity(p, r.generation)) {
      StoreLe32(growth.data() + last + 8, r.items + 1);
      uint8_t* bits = growth.data() + last + kRecordHeadBytes;
      for (uint32_t i = 0; i < r.k; ++i) {
        const uint32_t pos = PositionOf(r.bits, hash, i);
        bits[pos / 8] |= static_cast<uint8_t>(1u << (pos % 8));
      }
      return true;
    }
    generation = r.generation + 1;
  }
  const BloomShape shape = GenerationShape(p, generation);
  if (!MakeRoom(p, state, growth, shape.bits == 0 ? kNoRoom : RecordBytes(shape.bits), now, given_up)) return false;
  const uint64_t at = growth.size();
  growth.reserve(at + RecordBytes(shape.bits));  // exactly: no doubling past max_bytes
  growth.resize(at + RecordBytes(shape.bits), 0);
  const uint32_t head[5] = {start, generation, 0, shape.bits, shape.k};
  for (int i = 0; i < 5; ++i) StoreLe32(growth.data() + at + 4 * i, head[i]);
  return AddToGrowth(p, state, growth, hash, now, given_up);
}

}  // namespace

uint32_t GrowingAdd(const WindowParams& p, uint8_t* state, WindowGrowth& growth,
                    const uint64_t* hashes, size_t n, uint32_t now) {
  uint32_t given_up = 0;
  uint8_t* cells = state + kGrowingHeaderBytes;
  if (CatchUpClock(p, state, cells, now) > 0) {
    StoreLe32(state + kItemsAt, 0);
    const int64_t oldest = OldestLiveStart(p, state, now);
    EraseRecords(growth, [&](const Record& r) { return r.bucket_start < oldest; });
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t items = LoadLe32(state + kItemsAt);
    if (items < p.segment_items || !AddToGrowth(p, state, growth, hashes[i], now, given_up)) {
      AddToSegment(BaseShape(p), cells, LoadLe32(state + 4), hashes[i]);
    }
    const uint32_t added = LoadLe32(state + kItemsAt);
    if (added != UINT32_MAX) StoreLe32(state + kItemsAt, added + 1);
  }
  return given_up;
}

void GrowingContains(const WindowParams& p, const uint8_t* state, const WindowGrowth* growth,
                     const uint64_t* hashes, size_t n, uint32_t now, uint8_t* out) {
  const uint8_t* cells = state + kGrowingHeaderBytes;
  const uint32_t live = LiveSegments(p, state, now);
  for (size_t i = 0; i < n; ++i) out[i] = SegmentsHolding(BaseShape(p), cells, live, hashes[i]) != 0;
  if (growth == nullptr || growth->empty()) return;
  // What the base did not find goes through each live sub-filter in turn: a heavy user's
  // sub-filters are too big for the cache, so the next candidates' first two words (a
  // half-full filter rejects a fresh item within two probes on average) are prefetched
  // while one is checked.
  thread_local std::vector<size_t> pending;
  pending.clear();
  for (size_t i = 0; i < n; ++i) {
    if (!out[i]) pending.push_back(i);
  }
  const int64_t oldest = OldestLiveStart(p, state, now);
  for (uint64_t at = 0; at < growth->size() && !pending.empty();) {
    const Record r = ReadRecord(growth->data() + at);
    const uint8_t* bits = growth->data() + at + kRecordHeadBytes;
    at += RecordBytes(r.bits);
    if (r.bucket_start < oldest) continue;
    size_t still = 0;
    for (size_t j = 0; j < pending.size(); ++j) {
      if (j + kPrefetchAhead < pending.size()) {
        const uint64_t ahead = hashes[pending[j + kPrefetchAhead]];
        __builtin_prefetch(bits + PositionOf(r.bits, ahead, 0) / 8);
        if (r.k > 1) __builtin_prefetch(bits + PositionOf(r.bits, ahead, 1) / 8);
      }
      if (RecordHolds(r, bits, hashes[pending[j]])) out[pending[j]] = 1;
      else pending[still++] = pending[j];
    }
    pending.resize(still);
  }
}

WindowSaturation GrowingSaturation(const WindowParams& p, const uint8_t* state,
                                   const WindowGrowth* growth, uint32_t now) {
  WindowSaturation sat = SegmentsSaturation(BaseShape(p), state + kGrowingHeaderBytes, LiveSegments(p, state, now));
  const int64_t oldest = OldestLiveStart(p, state, now);
  double none_match = 1 - sat.rate;
  for (uint64_t at = 0; growth != nullptr && at < growth->size();) {
    const Record r = ReadRecord(growth->data() + at);
    if (r.bucket_start >= oldest) {
      uint64_t set = 0;
      const uint8_t* bits = growth->data() + at + kRecordHeadBytes;
      for (uint64_t b = 0; b < (uint64_t{r.bits} + 7) / 8; ++b) set += static_cast<uint64_t>(__builtin_popcount(bits[b]));
      none_match *= 1 - std::pow(static_cast<double>(set) / r.bits, r.k);
    }
    at += RecordBytes(r.bits);
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

void ValidateGrowth(const WindowParams& p, const uint8_t* state, const WindowGrowth& growth,
                    const std::string& source) {
  auto bad = [&](const std::string& what) { throw Error(Code::kInconsistent, source + ": window growth " + what); };
  if (p.state_bytes() + growth.size() > p.max_bytes) bad("is past max_bytes");
  int64_t previous = -1;
  for (uint64_t at = 0; at < growth.size();) {
    if (growth.size() - at < kRecordHeadBytes) bad("ends inside a record head");
    const Record r = ReadRecord(growth.data() + at);
    if (r.generation < 1 || r.generation > kMaxGeneration) bad("has a generation outside 1..15");
    if (r.k < 1 || r.k > kMaxWindowK) bad("has k outside 1..16");
    if (r.bits < 1 || r.bits > (1u << 28)) bad("has bits outside 1..2^28");
    if (RecordBytes(r.bits) > growth.size() - at) bad("record runs past its end");
    if (r.items > Capacity(p, r.generation)) bad("record holds more than its generation's capacity");
    if (r.bucket_start < previous || r.bucket_start > LoadLe32(state)) bad("records are out of order");
    previous = r.bucket_start;
    at += RecordBytes(r.bits);
  }
}

}  // namespace seen
