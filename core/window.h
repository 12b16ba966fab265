// An exposure window for one user: was this item shown to them recently? It guarantees the
// last `span` items (count mode) or the last `span` seconds (time mode) are always found,
// and forgets what is older than the span plus a stated slack. Sizing picks the smallest
// layout that meets the target false-positive rate:
//
//  - ring:   the last N items' 16-bit fingerprints in insertion order (count mode only).
//            Exact span, no slack; fpr = 1 - (1 - 2^-16)^N. A batch query turns the ring into
//            a 2^16-bit set once, then tests each candidate with one bit read.
//  - sliced: S Bloom segments that share their bit positions: position p holds S bits, one
//            per segment, side by side, so one load answers for every segment at once. The
//            current segment takes new items; when it holds span/(S-1) items (or its
//            span/(S-1) seconds pass) the oldest segment is cleared and becomes current.
//            Slack 1/(S-1); sized so the fpr of all S segments together is the target.
//  - growing: sliced segments in time mode whose base is sized for a quarter of the
//            expected items; a segment given more opens sub-filters of its own, each 4x the
//            last and tighter, so the rate stays under the target for any number of items
//            (core/window_growing.h). Memory follows activity, up to max_bytes; past it the
//            window gives up its oldest time, then its rate, never an item.
//  - packed: count mode: the ring's fingerprints in S segments of span/(S-1) items, each a
//            sorted set coded Elias-Fano (core/window_packed.h): about 12 bits an item where a
//            ring takes 16, for a slack of 1/(S-1). The last 500 items at 1% in 866 bytes.
//  - table:  time mode: each item a 32-bit fingerprint slot in a table of 64-byte buckets
//            that doubles as the user's activity grows (core/window_table.h). A query reads
//            one pair of buckets however many items the window holds; the default for time
//            windows whenever its fingerprints stay long enough for the target up to
//            max_bytes (1% up to 4 MiB), else the growing layout.
//
// The state of a window is a flat byte array (so a store can keep millions of them in one
// arena), and for a growing window a second, variable one, its growth (empty until a
// segment overflows); these functions operate on them. Hashes are XXH3 key hashes with
// params.seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/hash.h"
#include "core/window_bytes.h"
#include "core/window_memory.h"

namespace seen {

enum class WindowMode : uint32_t { kCount = 1, kTime = 2 };
enum class WindowLayout : uint32_t { kRing = 1, kSliced = 2, kGrowing = 3, kTable = 4, kPacked = 5 };

// What a growing window opened beyond its base state (core/window_growing.h), or a table
// window's table once it outgrew its state (core/window_table.h).
using WindowGrowth = WindowBytes;

constexpr uint32_t kMaxWindowSegments = 16;
constexpr uint32_t kMaxWindowK = 16;

struct WindowParams {
  WindowMode mode = WindowMode::kCount;
  WindowLayout layout = WindowLayout::kRing;
  uint32_t span = 0;          // guaranteed: the last `span` items, or seconds
  uint32_t segments = 0;      // sliced and packed: S
  uint32_t segment_span = 0;  // sliced and packed: items, or seconds, per segment
  uint32_t segment_items = 0; // sliced: items a segment is sized for (time mode: expected)
  uint32_t bits = 0;          // sliced: bit positions per segment (m)
  uint32_t k = 0;             // sliced: positions per item
  uint32_t max_bytes = 0;     // growing: the most bytes state and growth may hold together
  uint64_t seed = 0;
  double target_fpr = 0;
  std::optional<SecretKey> key = std::nullopt;  // keyed mode (docs/SECURITY.md): never written to a file

  Hashing hashing() const { return {seed, key}; }
  // Whether the window keeps a growth beside its state (the growing and table layouts).
  bool grows() const { return layout == WindowLayout::kGrowing || layout == WindowLayout::kTable; }

  // Bytes of one window's state: a header, then the ring or the sliced cells (for a growing
  // window, its base: the growth comes on top).
  uint64_t state_bytes() const;
  // How far past the span an item may still be found, as a fraction of the span.
  double slack() const;
};

// The smallest count window for the last `items` items at total fpr `fpr`, with slack at most
// max_slack. Throws Error(kInvalidArgument) for impossible requests.
WindowParams SizeCountWindow(uint32_t items, double fpr, double max_slack, uint64_t seed);
// A time window for the last `seconds` seconds that may grow to max_bytes (0: 1 MiB): a
// table window when its fingerprints reach fpr at that size, else SizeGrowingTimeWindow's.
WindowParams SizeTimeWindow(uint32_t seconds, uint32_t expected_items, double fpr,
                            double max_slack, uint64_t seed, uint64_t max_bytes);
// A growing time window, sized to start for `expected_items` in the span, that may grow to
// max_bytes (0: the larger of 1 MiB and 4x its start).
WindowParams SizeGrowingTimeWindow(uint32_t seconds, uint32_t expected_items, double fpr,
                                   double max_slack, uint64_t seed, uint64_t max_bytes);
// The count window whose state fits in `bytes` with the lowest steady-state rate (averaged
// over the fill of the current segment).
WindowParams SizeCountWindowForBytes(uint32_t items, uint64_t bytes, double max_slack,
                                     uint64_t seed);
// The false-positive rate once the window is full (every segment at capacity; for a growing
// window, its base): the bound sizing keeps under the target.
double PredictWindowFpr(const WindowParams& params);
// The rate averaged over a steady state, where the current segment is on average half full.
double AverageWindowFpr(const WindowParams& params);
// How saturated a window is at `now`: the share of its capacity in use (ring entries, or the
// set bits of the segments still live) and the false-positive rate that fill gives an item
// never added. Unlike PredictWindowFpr, this follows the actual state, so a sliced time
// window that received more than its expected items shows a rate above its target. The
// effective span is the span, less what a growing window gave up to its max_bytes.
struct WindowSaturation {
  double fill = 0;
  double rate = 0;
  uint32_t effective_span = 0;
};
WindowSaturation MeasureWindowSaturation(const WindowParams& params, const uint8_t* state,
                                         const WindowGrowth* growth, uint32_t now);
// The effective span alone, in O(1): the span, less what a growing window gave up.
uint32_t WindowEffectiveSpan(const WindowParams& params, const uint8_t* state, uint32_t now);
// Throws Error(kInconsistent) naming the field when params cannot describe a window.
void ValidateWindowParams(const WindowParams& params, const std::string& source);
// The same for a growing or table window's state and growth together (the growth may be
// empty), before either is read.
void ValidateWindowGrowth(const WindowParams& params, const uint8_t* state, const WindowGrowth& growth,
                          const std::string& source);
// The two checks above, returning the refusal instead of throwing it (core/error.h); the
// growth's bytes may lie anywhere, still in the input they are loaded from.
Status CheckWindowParams(const WindowParams& params, const std::string& source);
Status CheckWindowGrowth(const WindowParams& params, const uint8_t* state, const uint8_t* growth,
                         uint64_t growth_size, const std::string& source);

// Whether a state's header can belong to params (its positions and counters in range), so
// a corrupt state is refused before it is written through.
bool WindowStateValid(const WindowParams& params, const uint8_t* state);

// State operations. `now` is in seconds and only matters in time mode; a clock that moves
// backwards never rotates backwards, so nothing inside the span is ever forgotten.
void WindowReset(const WindowParams& params, uint8_t* state, uint32_t now);
// `growth` is only read or written for a growing window (may be null for the others).
// Returns how many segments a growing window gave up to its max_bytes (0 for the others).
uint32_t WindowAdd(const WindowParams& params, uint8_t* state, WindowGrowth* growth,
               const uint64_t* hashes, size_t n, uint32_t now);
// out[i] = 1 if item i may be in the window at time `now`, else 0.
void WindowContains(const WindowParams& params, const uint8_t* state, const WindowGrowth* growth,
                    const uint64_t* hashes, size_t n, uint32_t now, uint8_t* out);

}  // namespace seen
