#include "core/window.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/format.h"

namespace seen {
namespace {

// State header. Ring: one little-endian u32, the next position. Sliced: two u32, the items
// in the current segment (count mode) or its start time (time mode), then its index.
constexpr uint64_t kRingHeaderBytes = 4;
constexpr uint64_t kSlicedHeaderBytes = 8;
// The sliced cells are read 4 bytes at a time at any bit offset: pad so the last read fits.
constexpr uint64_t kCellPadding = 3;
// Fingerprint 0 marks an empty ring entry.
constexpr uint32_t kFingerprintSpace = 1u << 16;

uint16_t Fingerprint(uint64_t hash) {
  const auto fp = static_cast<uint16_t>(hash >> 48);
  return fp == 0 ? 1 : fp;
}

// ---- sliced layout -------------------------------------------------------------------------

// Odd constants, drawn once at random and frozen by the format: position i of an item is
// the high half of hash * kPositionSalt[i], mapped onto m positions by multiply-shift.
// Double hashing (h1 + i * h2) would be cheaper, but on segments of a few thousand bits its
// positions collapse for steps near small fractions, which measurably doubled the rate.
constexpr uint64_t kPositionSalt[kMaxWindowK] = {
    0xf2ed66ffdcc99397ULL, 0x21bade026a6ae769ULL, 0x9dd8904f07489671ULL, 0x6102dd7063e8540fULL,
    0x466de486522c4f8dULL, 0x83faac572f564653ULL, 0x0620f0877e5fe381ULL, 0x781b9a43d04ce50bULL,
    0x27e47ffc284a2d4fULL, 0xc35d7d3b92e4016fULL, 0x79f74d60ac03031fULL, 0x06e7df8e1eb1c66fULL,
    0x817af708207473b7ULL, 0x2e09e4b8245edebdULL, 0x1f07a223563ebc39ULL, 0xb7c039842be38ecdULL};

// The i-th of the k bit positions of an item.
uint32_t PositionOf(const WindowParams& p, uint64_t hash, uint32_t i) {
  const auto mixed = static_cast<uint32_t>((hash * kPositionSalt[i]) >> 32);
  return static_cast<uint32_t>((static_cast<uint64_t>(mixed) * p.bits) >> 32);
}

template <class Visit>
void ForEachPosition(const WindowParams& p, uint64_t hash, Visit&& visit) {
  for (uint32_t i = 0; i < p.k; ++i) visit(PositionOf(p, hash, i));
}

// The S segment bits of position `pos`, as the low S bits.
uint32_t CellAt(const WindowParams& p, const uint8_t* cells, uint32_t pos) {
  const uint64_t bit = static_cast<uint64_t>(pos) * p.segments;
  return (LoadLe32(cells + bit / 8) >> (bit % 8)) & ((1u << p.segments) - 1);
}

void SetCellBit(const WindowParams& p, uint8_t* cells, uint32_t pos, uint32_t segment) {
  const uint64_t bit = static_cast<uint64_t>(pos) * p.segments + segment;
  cells[bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
}

void ClearSegment(const WindowParams& p, uint8_t* cells, uint32_t segment) {
  for (uint32_t pos = 0; pos < p.bits; ++pos) {
    const uint64_t bit = static_cast<uint64_t>(pos) * p.segments + segment;
    cells[bit / 8] &= static_cast<uint8_t>(~(1u << (bit % 8)));
  }
}

// Time mode: how many rotations `now` is past the current segment's start (0 if the clock
// went backwards).
uint32_t PendingRotations(const WindowParams& p, const uint8_t* state, uint32_t now) {
  const uint32_t start = LoadLe32(state);
  if (now < start) return 0;
  return std::min<uint64_t>((now - start) / p.segment_span, p.segments);
}

void Rotate(const WindowParams& p, uint8_t* state, uint32_t times) {
  uint8_t* cells = state + kSlicedHeaderBytes;
  uint32_t current = LoadLe32(state + 4);
  for (uint32_t i = 0; i < std::min(times, p.segments); ++i) {
    current = (current + 1) % p.segments;
    ClearSegment(p, cells, current);
  }
  StoreLe32(state + 4, current);
}

// Which segments still count at `now`: in time mode, those a pending rotation would clear
// are masked out, so a query never needs to write.
uint32_t LiveSegments(const WindowParams& p, const uint8_t* state, uint32_t now) {
  const uint32_t all = (1u << p.segments) - 1;
  if (p.mode == WindowMode::kCount) return all;
  const uint32_t pending = PendingRotations(p, state, now);
  const uint32_t current = LoadLe32(state + 4);
  uint32_t live = all;
  for (uint32_t i = 1; i <= pending; ++i) live &= ~(1u << ((current + i) % p.segments));
  return live;
}

void SlicedAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n,
               uint32_t now) {
  uint8_t* cells = state + kSlicedHeaderBytes;
  if (p.mode == WindowMode::kTime) {
    const uint32_t pending = PendingRotations(p, state, now);
    if (pending > 0) {
      Rotate(p, state, pending);
      // Keep segment starts on the grid of the first one, however long the gap.
      const uint64_t gap = static_cast<uint64_t>(now - LoadLe32(state)) / p.segment_span;
      StoreLe32(state, LoadLe32(state) + static_cast<uint32_t>(gap * p.segment_span));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (p.mode == WindowMode::kCount) {
      if (LoadLe32(state) == p.segment_span) {
        Rotate(p, state, 1);
        StoreLe32(state, 0);
      }
      StoreLe32(state, LoadLe32(state) + 1);
    }
    const uint32_t current = LoadLe32(state + 4);
    ForEachPosition(p, hashes[i], [&](uint32_t pos) { SetCellBit(p, cells, pos, current); });
  }
}

void SlicedContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes,
                    size_t n, uint32_t now, uint8_t* out) {
  const uint8_t* cells = state + kSlicedHeaderBytes;
  const uint32_t live = LiveSegments(p, state, now);
  for (size_t i = 0; i < n; ++i) {
    // A segment holds the item if all its k bits are set: AND the cells, one bit per segment.
    // Most candidates are unseen: stop once no segment can hold the item any more.
    uint32_t segments = live;
    for (uint32_t j = 0; j < p.k && segments != 0; ++j) segments &= CellAt(p, cells, PositionOf(p, hashes[i], j));
    out[i] = segments != 0;
  }
}

// A fresh item is a false positive when, in some live segment, all k of its bits are set;
// with segment s a fraction f_s full that happens with probability f_s^k, independently.
WindowSaturation SlicedSaturation(const WindowParams& p, const uint8_t* state, uint32_t now) {
  const uint8_t* cells = state + kSlicedHeaderBytes;
  const uint32_t live = LiveSegments(p, state, now);
  std::vector<uint64_t> set_bits(p.segments, 0);
  for (uint32_t pos = 0; pos < p.bits; ++pos) {
    const uint32_t cell = CellAt(p, cells, pos) & live;
    for (uint32_t s = 0; s < p.segments; ++s) set_bits[s] += (cell >> s) & 1;
  }
  double none_match = 1;
  uint64_t live_bits = 0, live_count = 0;
  for (uint32_t s = 0; s < p.segments; ++s) {
    if (((live >> s) & 1) == 0) continue;
    none_match *= 1 - std::pow(static_cast<double>(set_bits[s]) / p.bits, p.k);
    live_bits += set_bits[s];
    ++live_count;
  }
  const double capacity = static_cast<double>(p.bits) * std::max<uint64_t>(live_count, 1);
  return {live_bits / capacity, 1 - none_match};
}

// ---- ring layout ---------------------------------------------------------------------------

// A fresh item matches an entry when their fingerprints agree, 1 in 2^16 - 1 (0 is unused).
WindowSaturation RingSaturation(const WindowParams& p, const uint8_t* state) {
  const uint8_t* entries = state + kRingHeaderBytes;
  uint32_t used = 0;
  for (uint32_t e = 0; e < p.span; ++e) {
    uint16_t entry;
    std::memcpy(&entry, entries + 2 * e, 2);
    used += entry != 0;
  }
  return {static_cast<double>(used) / p.span,
          1 - std::pow(1 - 1.0 / (kFingerprintSpace - 1), static_cast<double>(used))};
}

void RingAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n) {
  uint32_t next = LoadLe32(state);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = Fingerprint(hashes[i]);
    StoreLe16(state + kRingHeaderBytes + 2 * static_cast<uint64_t>(next), fp);
    next = next + 1 == p.span ? 0 : next + 1;
  }
  StoreLe32(state, next);
}

// Below this many candidates a scan of the ring beats building the fingerprint set.
constexpr size_t kRingScanLimit = 4;

void RingContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes,
                  size_t n, uint8_t* out) {
  const uint8_t* entries = state + kRingHeaderBytes;
  if (n <= kRingScanLimit) {
    for (size_t i = 0; i < n; ++i) {
      const uint16_t fp = Fingerprint(hashes[i]);
      bool found = false;
      for (uint32_t e = 0; e < p.span && !found; ++e) {
        found = LoadLe16(entries + 2 * e) == fp;
      }
      out[i] = found;
    }
    return;
  }
  // The ring as a set of 2^16 bits, built once per batch; 8 KiB stays in L1.
  thread_local std::vector<uint64_t> set(kFingerprintSpace / 64);
  for (uint32_t e = 0; e < p.span; ++e) {
    const uint16_t entry = LoadLe16(entries + 2 * e);
    set[entry >> 6] |= uint64_t{1} << (entry & 63);
  }
  set[0] &= ~uint64_t{1};  // fingerprint 0 is an empty entry, never an item
  for (size_t i = 0; i < n; ++i) {
    const uint16_t fp = Fingerprint(hashes[i]);
    out[i] = (set[fp >> 6] >> (fp & 63)) & 1;
  }
  // Cleared for the next batch: one pass of wide stores beats a read-modify-write per entry
  // once the ring is longer than the set has cache lines (128).
  if (p.span > 128) {
    std::memset(set.data(), 0, set.size() * sizeof(uint64_t));
  } else {
    for (uint32_t e = 0; e < p.span; ++e) set[LoadLe16(entries + 2 * e) >> 6] = 0;
  }
}

// ---- sizing --------------------------------------------------------------------------------

// Bloom rate of one segment of m positions holding c items with k positions each.
double SegmentFpr(double c, double m, uint32_t k) {
  return std::pow(1.0 - std::pow(1.0 - 1.0 / m, k * c), k);
}

uint32_t MinSegments(double max_slack) {
  if (!(max_slack > 0)) throw Error(Code::kInvalidArgument, "max_slack must be > 0");
  const double segments = std::ceil(1.0 / max_slack) + 1.0;
  return static_cast<uint32_t>(std::max(2.0, segments));
}

// The smallest sliced layout for `per_segment` items per segment and S segments.
WindowParams SlicedFor(uint32_t segments, uint32_t per_segment_items, double fpr) {
  // All S segments full: 1 - (1 - f)^S <= fpr.
  const double segment_fpr = 1.0 - std::pow(1.0 - fpr, 1.0 / segments);
  WindowParams best;
  for (uint32_t k = 1; k <= kMaxWindowK; ++k) {
    double lo = 1, hi = 1e9;
    if (SegmentFpr(per_segment_items, hi, k) > segment_fpr) continue;
    for (int step = 0; step < 80; ++step) {
      const double mid = std::floor(0.5 * (lo + hi));
      if (SegmentFpr(per_segment_items, mid, k) > segment_fpr) lo = mid + 1;
      else hi = mid;
      if (lo >= hi) break;
    }
    const auto bits = static_cast<uint32_t>(hi);
    if (best.k == 0 || bits < best.bits) {
      best.layout = WindowLayout::kSliced;
      best.segments = segments;
      best.segment_items = per_segment_items;
      best.bits = bits;
      best.k = k;
    }
  }
  return best;
}

// The span of each of the s - 1 full segments that cover `span`, rounded up; 0 when the
// rounded-up span would not fit in 32 bits (span near 2^32).
uint32_t SegmentSpan(uint32_t span, uint32_t s) {
  const uint64_t per_segment = (uint64_t{span} + s - 2) / (s - 1);
  return per_segment * (s - 1) > UINT32_MAX ? 0 : static_cast<uint32_t>(per_segment);
}

void RequireFpr(double fpr) {
  if (!(fpr > 0.0 && fpr < 1.0)) {
    throw Error(Code::kInvalidArgument, "fpr must be in (0, 1), got " + std::to_string(fpr));
  }
}

}  // namespace

uint64_t WindowParams::state_bytes() const {
  const uint64_t bytes = layout == WindowLayout::kRing
                             ? kRingHeaderBytes + 2 * static_cast<uint64_t>(span)
                             : kSlicedHeaderBytes + (static_cast<uint64_t>(bits) * segments + 7) / 8 + kCellPadding;
  // Whole u32s, so every state in a store's arena keeps its header aligned.
  return (bytes + 3) / 4 * 4;
}

double WindowParams::slack() const {
  return layout == WindowLayout::kRing ? 0.0 : 1.0 / (segments - 1);
}

double AverageWindowFpr(const WindowParams& p) {
  if (p.layout == WindowLayout::kRing) return PredictWindowFpr(p);
  // The current segment is as likely to hold 1 item as segment_items.
  const double full = std::pow(1.0 - SegmentFpr(p.segment_items, p.bits, p.k), p.segments - 1);
  double sum = 0;
  for (uint32_t fill = 1; fill <= p.segment_items; ++fill) {
    sum += 1.0 - full * (1.0 - SegmentFpr(fill, p.bits, p.k));
  }
  return sum / p.segment_items;
}

double PredictWindowFpr(const WindowParams& p) {
  if (p.layout == WindowLayout::kRing) {
    return 1.0 - std::pow(1.0 - 1.0 / (kFingerprintSpace - 1), p.span);
  }
  return 1.0 - std::pow(1.0 - SegmentFpr(p.segment_items, p.bits, p.k), p.segments);
}

WindowParams SizeCountWindow(uint32_t items, double fpr, double max_slack, uint64_t seed) {
  RequireFpr(fpr);
  if (items == 0) throw Error(Code::kInvalidArgument, "span must be at least 1 item, got 0");
  WindowParams best;
  for (uint32_t s = MinSegments(max_slack); s <= kMaxWindowSegments; ++s) {
    const uint32_t per_segment = SegmentSpan(items, s);
    if (per_segment == 0) continue;
    WindowParams candidate = SlicedFor(s, per_segment, fpr);
    if (candidate.k == 0) continue;
    candidate.segment_span = per_segment;
    candidate.span = per_segment * (s - 1);
    if (candidate.k != 0 && (best.k == 0 || candidate.state_bytes() < best.state_bytes())) {
      best = candidate;
    }
  }
  WindowParams ring;
  ring.layout = WindowLayout::kRing;
  ring.span = items;
  // The ring has no slack; it wins whenever it is no larger and reaches the rate.
  if (PredictWindowFpr(ring) <= fpr && (best.k == 0 || ring.state_bytes() <= best.state_bytes())) {
    best = ring;
  }
  if (best.layout == WindowLayout::kRing && best.span == 0) {
    throw Error(Code::kInvalidArgument, "span " + std::to_string(items) + ": no window layout of that many items reaches fpr " +
                                            std::to_string(fpr) + " with slack at most " + std::to_string(max_slack) +
                                            " (a segment holds at most 2^28 positions)");
  }
  best.mode = WindowMode::kCount;
  best.seed = seed;
  best.target_fpr = fpr;
  return best;
}

WindowParams SizeTimeWindow(uint32_t seconds, uint32_t expected_items, double fpr,
                            double max_slack, uint64_t seed) {
  RequireFpr(fpr);
  const uint32_t min_segments = MinSegments(max_slack);
  if (seconds < min_segments - 1) {
    throw Error(Code::kInvalidArgument, "span " + std::to_string(seconds) + " seconds is under the shortest time window, " +
                                            std::to_string(min_segments - 1) + " seconds");
  }
  WindowParams best;
  for (uint32_t s = min_segments; s <= kMaxWindowSegments; ++s) {
    const uint32_t per_segment_items = std::max<uint32_t>(1, SegmentSpan(expected_items, s));
    WindowParams candidate = SlicedFor(s, per_segment_items, fpr);
    if (candidate.k != 0 && (best.k == 0 || candidate.state_bytes() < best.state_bytes())) {
      best = candidate;
    }
  }
  if (best.k == 0) throw Error(Code::kInvalidArgument, "no window layout reaches fpr " + std::to_string(fpr));
  best.mode = WindowMode::kTime;
  best.segment_span = SegmentSpan(seconds, best.segments);
  if (best.segment_span == 0) {
    throw Error(Code::kInvalidArgument, "span " + std::to_string(seconds) + " seconds is over the longest time window, " +
                                            std::to_string(UINT32_MAX / (best.segments - 1) * (best.segments - 1)));
  }
  best.span = best.segment_span * (best.segments - 1);
  best.seed = seed;
  best.target_fpr = fpr;
  return best;
}

WindowParams SizeCountWindowForBytes(uint32_t items, uint64_t bytes, double max_slack,
                                     uint64_t seed) {
  if (items == 0) throw Error(Code::kInvalidArgument, "span must be at least 1 item, got 0");
  WindowParams best;
  double best_fpr = 2.0;
  WindowParams ring;
  ring.layout = WindowLayout::kRing;
  ring.span = items;
  if (ring.state_bytes() <= bytes) best = ring, best_fpr = PredictWindowFpr(ring);
  for (uint32_t s = MinSegments(max_slack); s <= kMaxWindowSegments; ++s) {
    WindowParams candidate;
    candidate.layout = WindowLayout::kSliced;
    candidate.segments = s;
    candidate.segment_span = candidate.segment_items = SegmentSpan(items, s);
    if (candidate.segment_span == 0) continue;
    candidate.span = candidate.segment_span * (s - 1);
    // The most positions whose cells fit in the budget.
    candidate.bits = bytes > kSlicedHeaderBytes + kCellPadding
                         ? static_cast<uint32_t>(std::min<uint64_t>((bytes - kSlicedHeaderBytes - kCellPadding) * 8 / s, 1u << 28))
                         : 0;
    while (candidate.bits > 0 && candidate.state_bytes() > bytes) --candidate.bits;
    if (candidate.bits == 0) continue;
    for (uint32_t k = 1; k <= kMaxWindowK; ++k) {
      candidate.k = k;
      const double fpr = AverageWindowFpr(candidate);
      if (fpr < best_fpr) best = candidate, best_fpr = fpr;
    }
  }
  if (best_fpr >= 1.0) {
    throw Error(Code::kInvalidArgument, std::to_string(bytes) + " bytes cannot hold a useful window of " +
                                            std::to_string(items) + " items");
  }
  best.mode = WindowMode::kCount;
  best.seed = seed;
  best.target_fpr = best_fpr;
  return best;
}

void ValidateWindowParams(const WindowParams& p, const std::string& source) {
  auto bad = [&](const std::string& what) { throw Error(Code::kInconsistent, source + ": " + what); };
  if (p.mode != WindowMode::kCount && p.mode != WindowMode::kTime) bad("unknown window mode");
  if (p.layout == WindowLayout::kRing) {
    if (p.mode != WindowMode::kCount) bad("a ring window counts items");
    if (p.span == 0 || p.span > (1u << 24)) bad("ring span outside 1..2^24");
    return;
  }
  if (p.layout != WindowLayout::kSliced) bad("unknown window layout");
  if (p.segments < 2 || p.segments > kMaxWindowSegments) bad("segments outside 2..16");
  if (p.k < 1 || p.k > kMaxWindowK) bad("k outside 1..16");
  if (p.bits == 0 || p.bits > (1u << 28)) bad("bits per segment outside 1..2^28");
  if (p.segment_span == 0) bad("segment span is 0");
  if (p.segment_items == 0) bad("segment items is 0");
  if (static_cast<uint64_t>(p.segment_span) * (p.segments - 1) != p.span) bad("span != segment span * (segments - 1)");
}

WindowSaturation MeasureWindowSaturation(const WindowParams& p, const uint8_t* state,
                                         uint32_t now) {
  return p.layout == WindowLayout::kRing ? RingSaturation(p, state) : SlicedSaturation(p, state, now);
}

bool WindowStateValid(const WindowParams& p, const uint8_t* state) {
  if (p.layout == WindowLayout::kRing) return LoadLe32(state) < p.span;
  if (LoadLe32(state + 4) >= p.segments) return false;
  return p.mode == WindowMode::kTime || LoadLe32(state) <= p.segment_span;
}

void WindowReset(const WindowParams& p, uint8_t* state, uint32_t now) {
  std::memset(state, 0, p.state_bytes());
  if (p.mode == WindowMode::kTime) StoreLe32(state, now);
}

void WindowAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n,
               uint32_t now) {
  if (p.layout == WindowLayout::kRing) RingAdd(p, state, hashes, n);
  else SlicedAdd(p, state, hashes, n, now);
}

void WindowContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes,
                    size_t n, uint32_t now, uint8_t* out) {
  if (p.layout == WindowLayout::kRing) RingContains(p, state, hashes, n, out);
  else SlicedContains(p, state, hashes, n, now, out);
}

}  // namespace seen
