#include "core/window.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/real_text.h"
#include "core/window_cells.h"
#include "core/window_growing.h"
#include "core/window_kernels.h"
#include "core/window_packed.h"
#include "core/window_ring.h"
#include "core/window_table.h"
#include "core/window_table_slots.h"

namespace seen {
using namespace window_cells;

namespace {

// State header. Ring: kRingHeaderBytes (core/window_ring.h). Sliced: kSlicedHeaderBytes
// (core/window_cells.h). Growing: kGrowingHeaderBytes (core/window_growing.h). Table:
// kTableHeaderBytes and the first table (core/window_table.h). Packed: core/window_packed.h.

// ---- sliced layout -------------------------------------------------------------------------

// In count mode, an item the current segment already holds takes no count: it lives exactly
// as long there as it would if added again, and a replayed mark (clients retry) then moves no
// segment out early.
void SlicedAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n,
               uint32_t now) {
  uint8_t* cells = state + kSlicedHeaderBytes;
  if (p.mode == WindowMode::kTime) CatchUpClock(p, state, cells, now);
  for (size_t i = 0; i < n; ++i) {
    if (p.mode == WindowMode::kCount) {
      const uint32_t current = LoadLe32(state + 4);
      if (SegmentsHolding(BaseShape(p), cells, 1u << current, hashes[i]) != 0) continue;
      if (LoadLe32(state) == p.segment_span) {
        Rotate(p, state, cells, 1);
        StoreLe32(state, 0);
      }
      StoreLe32(state, LoadLe32(state) + 1);
    }
    AddToSegment(BaseShape(p), cells, LoadLe32(state + 4), hashes[i]);
  }
}

void SlicedContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes,
                    size_t n, uint32_t now, uint8_t* out) {
  const uint8_t* cells = state + kSlicedHeaderBytes;
  const LiveCells base{BaseShape(p), cells, LiveSegments(p, state, now)};
  MarkHeld(&base, 1, hashes, n, out);
}

}  // namespace

WindowSaturation window_cells::SegmentsSaturation(const CellShape& p, const uint8_t* cells,
                                                  uint32_t live) {
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
  return {live_bits / capacity, 1 - none_match, 0};
}

// ---- sizing --------------------------------------------------------------------------------

double window_cells::BloomFpr(double c, double m, uint32_t k) {
  return std::pow(1.0 - std::pow(1.0 - 1.0 / m, k * c), k);
}

BloomShape window_cells::SmallestBloom(uint32_t items, double fpr) {
  BloomShape best;
  for (uint32_t k = 1; k <= kMaxWindowK; ++k) {
    double lo = 1, hi = 1e9;
    if (BloomFpr(items, hi, k) > fpr) continue;
    for (int step = 0; step < 80; ++step) {
      const double mid = std::floor(0.5 * (lo + hi));
      if (BloomFpr(items, mid, k) > fpr) lo = mid + 1;
      else hi = mid;
      if (lo >= hi) break;
    }
    const auto bits = static_cast<uint32_t>(hi);
    if (best.k == 0 || bits < best.bits) best = {bits, k};
  }
  return best;
}

namespace {

uint32_t MinSegments(double max_slack) {
  if (!(max_slack > 0)) throw Error(Code::kInvalidArgument, "max_slack must be > 0");
  const double segments = std::ceil(1.0 / max_slack) + 1.0;
  return static_cast<uint32_t>(std::max(2.0, segments));
}

// The smallest sliced layout for `per_segment` items per segment and S segments.
WindowParams SlicedFor(uint32_t segments, uint32_t per_segment_items, double fpr) {
  // All S segments full: 1 - (1 - f)^S <= fpr.
  const BloomShape shape = SmallestBloom(per_segment_items, 1.0 - std::pow(1.0 - fpr, 1.0 / segments));
  WindowParams best;
  if (shape.k == 0) return best;
  best.layout = WindowLayout::kSliced;
  best.segments = segments;
  best.segment_items = per_segment_items;
  best.bits = shape.bits;
  best.k = shape.k;
  return best;
}

// The span of each of the s - 1 full segments that cover `span`, rounded up; 0 when the
// rounded-up span would not fit in 32 bits (span near 2^32).
uint32_t SegmentSpan(uint32_t span, uint32_t s) {
  const uint64_t per_segment = (uint64_t{span} + s - 2) / (s - 1);
  return per_segment * (s - 1) > UINT32_MAX ? 0 : static_cast<uint32_t>(per_segment);
}

// The rates a time window may keep, for create and every file alike: below 1e-9 a growing
// window's levels would need more than 2^28 positions, and a table has no fingerprint long
// enough, so a window that kept one could only give up its items. A count window's rate is
// only reported, so any in (0, 1) will do.
constexpr double kMinTimeWindowFpr = 1e-9;

bool FprValid(WindowMode mode, double fpr) {
  return fpr >= (mode == WindowMode::kTime ? kMinTimeWindowFpr : 0.0) && fpr > 0.0 && fpr < 1.0;
}

void RequireFpr(WindowMode mode, double fpr) {
  if (!FprValid(mode, fpr)) {
    throw Error(Code::kInvalidArgument, std::string("fpr must be in ") +
                                            (mode == WindowMode::kTime ? "[1e-09, 1) for a time window" : "(0, 1)") +
                                            ", got " + RealText(fpr));
  }
}

}  // namespace

uint64_t WindowParams::state_bytes() const {
  if (layout == WindowLayout::kTable) return kTableHeaderBytes + kTableStartBuckets * kTableBucketBytes;
  if (layout == WindowLayout::kPacked) return (PackedStateBytes(segments, segment_span) + 3) / 4 * 4;
  const uint64_t header = layout == WindowLayout::kGrowing ? kGrowingHeaderBytes : kSlicedHeaderBytes;
  const uint64_t bytes = layout == WindowLayout::kRing ? kRingHeaderBytes + 2 * static_cast<uint64_t>(span)
                                                       : header + CellBytes(bits, segments);
  // Whole u32s, so every state in a store's arena keeps its header aligned.
  return (bytes + 3) / 4 * 4;
}

double WindowParams::slack() const {
  return layout == WindowLayout::kRing ? 0.0 : 1.0 / (segments - 1);
}

namespace {

// A packed window's rate holding `held` items: each a 1 in 2^16 match.
double PackedFpr(double held) { return 1.0 - std::pow(1.0 - 1.0 / kFingerprintSpace, held); }

}  // namespace

double AverageWindowFpr(const WindowParams& p) {
  if (p.layout == WindowLayout::kRing || p.layout == WindowLayout::kTable) return PredictWindowFpr(p);
  // The current segment holds from 1 item to segment_span alike.
  if (p.layout == WindowLayout::kPacked) return PackedFpr((p.segments - 1) * p.segment_span + (p.segment_span + 1) / 2.0);
  // The current segment is as likely to hold 1 item as segment_items.
  const double full = std::pow(1.0 - BloomFpr(p.segment_items, p.bits, p.k), p.segments - 1);
  double sum = 0;
  for (uint32_t fill = 1; fill <= p.segment_items; ++fill) {
    sum += 1.0 - full * (1.0 - BloomFpr(fill, p.bits, p.k));
  }
  return sum / p.segment_items;
}

namespace {

// The log2 of the most buckets a table window reaches: its rate's limit, or max_bytes.
uint32_t TableCapLog2Buckets(const WindowParams& p) {
  uint32_t b = TableMaxLog2Buckets(p.target_fpr);
  while (b > 1 && p.state_bytes() + (kTableBucketBytes << b) > p.max_bytes) --b;
  return b;
}

}  // namespace

double PredictWindowFpr(const WindowParams& p) {
  if (p.layout == WindowLayout::kTable) {
    // Its largest table full: a bucket's worth of entries per home, each a 1 in 2^(26 - b) match.
    return 1.0 - std::pow(1.0 - std::ldexp(1.0, -static_cast<int>(table_slots::kKeyBits - TableCapLog2Buckets(p))),
                          table_slots::kSlotsPerBucket);
  }
  if (p.layout == WindowLayout::kRing) {
    return 1.0 - std::pow(1.0 - 1.0 / (kFingerprintSpace - 1), p.span);
  }
  if (p.layout == WindowLayout::kPacked) return PackedFpr(static_cast<double>(p.segments) * p.segment_span);
  return 1.0 - std::pow(1.0 - BloomFpr(p.segment_items, p.bits, p.k), p.segments);
}

namespace {

// Packed segments of the last `items` in s segments, or span 0 if a segment cannot hold its
// share.
WindowParams PackedFor(uint32_t items, uint32_t s) {
  WindowParams packed;
  packed.layout = WindowLayout::kPacked;
  packed.segments = s;
  packed.segment_span = SegmentSpan(items, s);
  if (packed.segment_span != 0 && packed.segment_span <= kPackedMaxSegmentSpan) packed.span = packed.segment_span * (s - 1);
  return packed;
}

}  // namespace

WindowParams SizeCountWindow(uint32_t items, double fpr, double max_slack, uint64_t seed) {
  RequireFpr(WindowMode::kCount, fpr);
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
  for (uint32_t s = MinSegments(max_slack); s <= kMaxWindowSegments; ++s) {
    const WindowParams packed = PackedFor(items, s);
    if (packed.span == 0) continue;
    if (PredictWindowFpr(packed) <= fpr && (best.span == 0 || packed.state_bytes() < best.state_bytes())) {
      best = packed;
    }
  }
  WindowParams ring;
  ring.layout = WindowLayout::kRing;
  ring.span = items;
  // The ring has no slack; it wins whenever it is no larger and reaches the rate.
  if (PredictWindowFpr(ring) <= fpr && (best.span == 0 || ring.state_bytes() <= best.state_bytes())) {
    best = ring;
  }
  if (best.span == 0) {
    throw Error(Code::kInvalidArgument, "span " + std::to_string(items) + ": no window layout of that many items reaches fpr " +
                                            RealText(fpr) + " with slack at most " + RealText(max_slack) +
                                            " (a segment holds at most 2^28 positions)");
  }
  best.mode = WindowMode::kCount;
  best.seed = seed;
  best.target_fpr = fpr;
  return best;
}

namespace {

// What every time window of `seconds` shares: S segments (the fewest the slack allows: more
// hardly shrink a window, but a heavy user's query checks each), their span, and the items
// each is expected to take.
WindowParams TimeGrid(uint32_t seconds, uint32_t expected_items, double fpr, double max_slack, uint64_t seed) {
  RequireFpr(WindowMode::kTime, fpr);
  const uint32_t s = MinSegments(max_slack);
  if (seconds < s - 1) {
    throw Error(Code::kInvalidArgument, "span " + std::to_string(seconds) + " seconds is under the shortest time window, " +
                                            std::to_string(s - 1) + " seconds");
  }
  if (expected_items == 0) throw Error(Code::kInvalidArgument, "expected_items must be at least 1, got 0");
  if (s > kMaxWindowSegments) {
    throw Error(Code::kInvalidArgument, "max_slack " + RealText(max_slack) + " needs more than 16 segments: at least " +
                                            std::to_string(1.0 / (kMaxWindowSegments - 1)) + " for a time window");
  }
  WindowParams grid;
  grid.mode = WindowMode::kTime;
  grid.segments = s;
  grid.segment_span = SegmentSpan(seconds, s);
  if (grid.segment_span == 0) {
    throw Error(Code::kInvalidArgument, "span " + std::to_string(seconds) + " seconds is over the longest time window, " +
                                            std::to_string(UINT32_MAX / (s - 1) * (s - 1)));
  }
  grid.span = grid.segment_span * (s - 1);
  grid.segment_items = std::max<uint32_t>(1, SegmentSpan(expected_items, s));
  grid.seed = seed;
  grid.target_fpr = fpr;
  return grid;
}

}  // namespace

WindowParams SizeTimeWindow(uint32_t seconds, uint32_t expected_items, double fpr,
                            double max_slack, uint64_t seed, uint64_t max_bytes) {
  WindowParams table = TimeGrid(seconds, expected_items, fpr, max_slack, seed);
  table.layout = WindowLayout::kTable;
  const uint64_t cap = max_bytes != 0 ? max_bytes : kDefaultGrowingMaxBytes;
  if (cap > table.state_bytes() + (kTableBucketBytes << TableMaxLog2Buckets(fpr))) {
    return SizeGrowingTimeWindow(seconds, expected_items, fpr, max_slack, seed, max_bytes);
  }
  const uint64_t smallest = table.state_bytes() + 2 * kTableStartBuckets * kTableBucketBytes;
  if (cap < smallest) {
    throw Error(Code::kInvalidArgument, "max_bytes " + std::to_string(max_bytes) + " is under " + std::to_string(smallest) +
                                            ", the smallest time window that can grow");
  }
  table.max_bytes = static_cast<uint32_t>(cap);
  return table;
}

WindowParams SizeGrowingTimeWindow(uint32_t seconds, uint32_t expected_items, double fpr,
                                   double max_slack, uint64_t seed, uint64_t max_bytes) {
  const WindowParams grid = TimeGrid(seconds, expected_items, fpr, max_slack, seed);
  const uint32_t s = grid.segments;
  const uint32_t per_segment_items = std::max(grid.segment_items / kGrowingStartShare,
                                              std::min(grid.segment_items, kGrowingMinStartItems));
  // The base's share of each segment's budget, as the total rate of S segments.
  const double segment_fpr = 1.0 - std::pow(1.0 - fpr, 1.0 / s);
  const double base_fpr = 1.0 - std::pow(1.0 - kGrowingBaseShare * segment_fpr, s);
  WindowParams best = SlicedFor(s, per_segment_items, base_fpr);
  if (best.k == 0) throw Error(Code::kInvalidArgument, "no window layout reaches fpr " + RealText(fpr));
  best.layout = WindowLayout::kGrowing;
  best.mode = WindowMode::kTime;
  best.segment_span = grid.segment_span;
  best.span = grid.span;
  best.seed = seed;
  best.target_fpr = fpr;
  const uint64_t cap = max_bytes != 0 ? max_bytes : std::max<uint64_t>(kDefaultGrowingMaxBytes, 4 * best.state_bytes());
  if (cap < 2 * best.state_bytes() || cap > UINT32_MAX) {
    throw Error(Code::kInvalidArgument, "max_bytes " + std::to_string(max_bytes) + " is outside " +
                                            std::to_string(2 * best.state_bytes()) + "..2^32 - 1 for this time window (twice its " +
                                            std::to_string(best.state_bytes()) + "-byte start)");
  }
  best.max_bytes = static_cast<uint32_t>(cap);
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
    const WindowParams packed = PackedFor(items, s);
    if (packed.span == 0) continue;
    if (packed.state_bytes() <= bytes && AverageWindowFpr(packed) < best_fpr) best = packed, best_fpr = AverageWindowFpr(packed);
  }
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

Status CheckWindowParams(const WindowParams& p, const std::string& source) {
  auto bad = [&](const std::string& what) { return Status::Refused(Code::kInconsistent, source + ": " + what); };
  if (p.mode != WindowMode::kCount && p.mode != WindowMode::kTime) return bad("unknown window mode");
  if (p.layout == WindowLayout::kRing) {
    if (p.mode != WindowMode::kCount) return bad("a ring window counts items");
    if (p.span == 0 || p.span > (1u << 24)) return bad("ring span outside 1..2^24");
    return {};
  }
  if (p.layout == WindowLayout::kPacked) {
    if (p.mode != WindowMode::kCount) return bad("a packed window counts items");
    if (p.segments < 2 || p.segments > kMaxWindowSegments) return bad("segments outside 2..16");
    if (p.segment_span == 0 || p.segment_span > kPackedMaxSegmentSpan) return bad("packed segment span outside 1..255");
    if (static_cast<uint64_t>(p.segment_span) * (p.segments - 1) != p.span) return bad("span != segment span * (segments - 1)");
    if (p.segment_items != 0 || p.bits != 0 || p.k != 0 || p.max_bytes != 0) {
      return bad("segment items, bits, k or max_bytes set on a packed window");
    }
    if (!FprValid(p.mode, p.target_fpr)) return bad("target fpr outside (0, 1)");
    return {};
  }
  if (p.layout != WindowLayout::kSliced && !p.grows()) return bad("unknown window layout");
  if (p.grows() && p.mode != WindowMode::kTime) return bad("a growing or table window keeps time");
  if (p.segments < 2 || p.segments > kMaxWindowSegments) return bad("segments outside 2..16");
  if (p.layout == WindowLayout::kTable) {
    if (p.bits != 0 || p.k != 0) return bad("bits and k are set on a table window");
    if (p.segment_span == 0) return bad("segment span is 0");
    if (static_cast<uint64_t>(p.segment_span) * (p.segments - 1) != p.span) return bad("span != segment span * (segments - 1)");
    if (p.max_bytes < p.state_bytes() + 2 * kTableStartBuckets * kTableBucketBytes) return bad("max_bytes is under a doubled first table");
    if (!FprValid(p.mode, p.target_fpr)) return bad("target fpr outside [1e-09, 1)");
    return {};
  }
  if (p.k < 1 || p.k > kMaxWindowK) return bad("k outside 1..16");
  if (p.bits == 0 || p.bits > (1u << 28)) return bad("bits per segment outside 1..2^28");
  if (p.segment_span == 0) return bad("segment span is 0");
  if (p.segment_items == 0) return bad("segment items is 0");
  if (static_cast<uint64_t>(p.segment_span) * (p.segments - 1) != p.span) return bad("span != segment span * (segments - 1)");
  if (p.layout == WindowLayout::kGrowing && p.max_bytes < 2 * p.state_bytes()) return bad("max_bytes is under twice the state bytes");
  if (p.layout != WindowLayout::kGrowing && p.max_bytes != 0) return bad("max_bytes is set on a window that cannot grow");
  if (!FprValid(p.mode, p.target_fpr)) return bad(p.mode == WindowMode::kTime ? "target fpr outside [1e-09, 1)" : "target fpr outside (0, 1)");
  return {};
}

void ValidateWindowParams(const WindowParams& p, const std::string& source) {
  ThrowIfRefused(CheckWindowParams(p, source));
}

Status CheckWindowGrowth(const WindowParams& p, const uint8_t* state, const uint8_t* growth, uint64_t growth_size,
                         const std::string& source) {
  if (p.layout == WindowLayout::kTable) return CheckTable(p, state, growth, growth_size, source);
  return CheckGrowth(p, growth, growth_size, source);
}

void ValidateWindowGrowth(const WindowParams& p, const uint8_t* state, const WindowGrowth& growth,
                          const std::string& source) {
  ThrowIfRefused(CheckWindowGrowth(p, state, growth.data(), growth.size(), source));
}

WindowSaturation MeasureWindowSaturation(const WindowParams& p, const uint8_t* state,
                                         const WindowGrowth* growth, uint32_t now) {
  if (p.layout == WindowLayout::kGrowing) return GrowingSaturation(p, state, growth, now);
  if (p.layout == WindowLayout::kTable) return TableSaturation(p, state, growth, now);
  WindowSaturation sat = p.layout == WindowLayout::kRing     ? RingSaturation(p, state)
                         : p.layout == WindowLayout::kPacked ? PackedSaturation(p, state)
                         : SegmentsSaturation(BaseShape(p), state + kSlicedHeaderBytes, LiveSegments(p, state, now));
  sat.effective_span = p.span;
  return sat;
}

uint32_t WindowEffectiveSpan(const WindowParams& p, const uint8_t* state, uint32_t now) {
  return p.grows() ? GrowingEffectiveSpan(p, state, now) : p.span;
}

bool WindowStateValid(const WindowParams& p, const uint8_t* state) {
  if (p.layout == WindowLayout::kRing) return LoadLe32(state) < p.span;
  if (p.layout == WindowLayout::kPacked) return PackedStateValid(p, state);
  if (LoadLe32(state + 4) >= p.segments) return false;
  if (p.layout == WindowLayout::kTable && !TableLog2BucketsValid(p, state)) return false;
  return p.mode == WindowMode::kTime || LoadLe32(state) <= p.segment_span;
}

void WindowReset(const WindowParams& p, uint8_t* state, uint32_t now) {
  std::memset(state, 0, p.state_bytes());
  if (p.mode == WindowMode::kTime) StoreLe32(state, now);
  if (p.layout == WindowLayout::kTable) TableReset(state);
}

uint32_t WindowAdd(const WindowParams& p, uint8_t* state, WindowGrowth* growth,
                   const uint64_t* hashes, size_t n, uint32_t now) {
  if (p.layout == WindowLayout::kGrowing) return GrowingAdd(p, state, *growth, hashes, n, now);
  if (p.layout == WindowLayout::kTable) return TableAdd(p, state, *growth, hashes, n, now);
  if (p.layout == WindowLayout::kRing) RingAdd(p, state, hashes, n);
  else if (p.layout == WindowLayout::kPacked) PackedAdd(p, state, hashes, n);
  else SlicedAdd(p, state, hashes, n, now);
  return 0;
}

void WindowContains(const WindowParams& p, const uint8_t* state, const WindowGrowth* growth,
                    const uint64_t* hashes, size_t n, uint32_t now, uint8_t* out) {
  switch (p.layout) {
    case WindowLayout::kRing: return RingContains(p, state, hashes, n, out);
    case WindowLayout::kSliced: return SlicedContains(p, state, hashes, n, now, out);
    case WindowLayout::kGrowing: return GrowingContains(p, state, growth, hashes, n, now, out);
    case WindowLayout::kTable: return TableContains(p, state, growth, hashes, n, now, out);
    case WindowLayout::kPacked: return PackedContains(p, state, hashes, n, out);
  }
}

}  // namespace seen
