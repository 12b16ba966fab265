// An exposure window for one user: was this item shown to them recently? It guarantees the
// last `span` items (count mode) or the last `span` seconds (time mode) are always found,
// and forgets what is older than the span plus a stated slack. Two layouts; sizing picks the
// smaller one that meets the target false-positive rate:
//
//  - ring:   the last N items' 16-bit fingerprints in insertion order (count mode only).
//            Exact span, no slack; fpr = 1 - (1 - 2^-16)^N. A batch query turns the ring into
//            a 2^16-bit set once, then tests each candidate with one bit read.
//  - sliced: S Bloom segments that share their bit positions: position p holds S bits, one
//            per segment, side by side, so one load answers for every segment at once. The
//            current segment takes new items; when it holds span/(S-1) items (or its
//            span/(S-1) seconds pass) the oldest segment is cleared and becomes current.
//            Slack 1/(S-1); sized so the fpr of all S segments together is the target.
//
// The state of a window is a flat byte array (so a store can keep millions of them in one
// arena); these functions operate on it. Hashes are XXH3 key hashes with params.seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace seen {

enum class WindowMode : uint32_t { kCount = 1, kTime = 2 };
enum class WindowLayout : uint32_t { kRing = 1, kSliced = 2 };

constexpr uint32_t kMaxWindowSegments = 16;
constexpr uint32_t kMaxWindowK = 16;

struct WindowParams {
  WindowMode mode = WindowMode::kCount;
  WindowLayout layout = WindowLayout::kRing;
  uint32_t span = 0;          // guaranteed: the last `span` items, or seconds
  uint32_t segments = 0;      // sliced: S
  uint32_t segment_span = 0;  // sliced: items, or seconds, per segment
  uint32_t segment_items = 0; // sliced: items a segment is sized for (time mode: expected)
  uint32_t bits = 0;          // sliced: bit positions per segment (m)
  uint32_t k = 0;             // sliced: positions per item
  uint64_t seed = 0;
  double target_fpr = 0;

  // Bytes of one window's state: an 8-byte header, then the ring or the sliced cells.
  uint64_t state_bytes() const;
  // How far past the span an item may still be found, as a fraction of the span.
  double slack() const;
};

// The smallest count window for the last `items` items at total fpr `fpr`, with slack at most
// max_slack. Throws Error(kInvalidArgument) for impossible requests.
WindowParams SizeCountWindow(uint32_t items, double fpr, double max_slack, uint64_t seed);
// A time window for the last `seconds` seconds, expecting at most `expected_items` in them.
WindowParams SizeTimeWindow(uint32_t seconds, uint32_t expected_items, double fpr,
                            double max_slack, uint64_t seed);
// The count window whose state fits in `bytes` with the lowest steady-state rate (averaged
// over the fill of the current segment).
WindowParams SizeCountWindowForBytes(uint32_t items, uint64_t bytes, double max_slack,
                                     uint64_t seed);
// The false-positive rate once the window is full (every segment at capacity): the bound
// sizing keeps under the target.
double PredictWindowFpr(const WindowParams& params);
// The rate averaged over a steady state, where the current segment is on average half full.
double AverageWindowFpr(const WindowParams& params);
// How saturated a window is at `now`: the share of its capacity in use (ring entries, or the
// set bits of the segments still live) and the false-positive rate that fill gives an item
// never added. Unlike PredictWindowFpr, this follows the actual state, so a time window that
// received more than expected_items shows a rate above its target.
struct WindowSaturation {
  double fill = 0;
  double rate = 0;
};
WindowSaturation MeasureWindowSaturation(const WindowParams& params, const uint8_t* state,
                                         uint32_t now);
// Throws Error(kInconsistent) naming the field when params cannot describe a window.
void ValidateWindowParams(const WindowParams& params, const std::string& source);

// Whether a state's header can belong to params (its positions and counters in range), so
// a corrupt state is refused before it is written through.
bool WindowStateValid(const WindowParams& params, const uint8_t* state);

// State operations. `now` is in seconds and only matters in time mode; a clock that moves
// backwards never rotates backwards, so nothing inside the span is ever forgotten.
void WindowReset(const WindowParams& params, uint8_t* state, uint32_t now);
void WindowAdd(const WindowParams& params, uint8_t* state, const uint64_t* hashes, size_t n,
               uint32_t now);
// out[i] = 1 if item i may be in the window at time `now`, else 0.
void WindowContains(const WindowParams& params, const uint8_t* state, const uint64_t* hashes,
                    size_t n, uint32_t now, uint8_t* out);

}  // namespace seen
