// Growing time windows (layout 3): sliced segments in time whose base holds a quarter of the
// expected items per segment (at least 8). A segment given more goes on into growth levels,
// as a scalable filter does: level g holds 4^g times the base's items per segment at a rate
// halved each level, so all levels together stay within each segment's share of the target,
// however many items it takes. Light users stay at the base; heavy ones grow.
//
// A level is sliced like the base, with cells of S bits, one per segment: one pass over a
// level answers a candidate for every segment at once, so a query costs one pass per level
// (a handful), not one per segment and generation. A level is opened for all segments when
// the first one needs it, and goes when none holds items in it.
//
// State: kGrowingHeaderBytes (the current segment's start time and index, the items it took,
// and `kept_since`), then the base cells. Growth: levels in order of generation, each a
// 16-byte head (generation, bits, k, and the mask of segments holding items in it, as u32)
// and its cells padded to 4 bytes.
//
// When state and growth would pass max_bytes, the window gives up time before rate: the
// fewest oldest segments whose levels then free enough, and kept_since moves to the next
// segment's start. It never gives up the current segment, which holds the items of this very
// call: when giving up every older one is not enough, the item goes into the deepest level the
// current segment already has (or the base), and the rate rises instead, as the saturation
// shows. Every item added at or after kept_since and within the span is found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/window.h"

namespace seen {

constexpr uint64_t kGrowingHeaderBytes = 16;
// The base holds this fraction of the expected items per segment (most users never reach
// it), but at least kGrowingMinStartItems: smaller levels would cost more in heads.
constexpr uint32_t kGrowingStartShare = 4;
constexpr uint32_t kGrowingMinStartItems = 8;
// The shares of each segment's rate budget: the base's, and all growth generations'
// together. The 5% left over absorbs the spread of a full filter's actual fill around its
// expectation, so the measured saturation of a full window stays under the target too.
constexpr double kGrowingBaseShare = 0.70;
constexpr double kGrowingGrowthShare = 0.25;
constexpr uint64_t kDefaultGrowingMaxBytes = 1 << 20;

// Returns how many segments it gave up to max_bytes.
uint32_t GrowingAdd(const WindowParams& p, uint8_t* state, WindowGrowth& growth,
                    const uint64_t* hashes, size_t n, uint32_t now);
void GrowingContains(const WindowParams& p, const uint8_t* state, const WindowGrowth* growth,
                     const uint64_t* hashes, size_t n, uint32_t now, uint8_t* out);
WindowSaturation GrowingSaturation(const WindowParams& p, const uint8_t* state,
                                   const WindowGrowth* growth, uint32_t now);
uint32_t GrowingEffectiveSpan(const WindowParams& p, const uint8_t* state, uint32_t now);
// Refuses (kInconsistent, naming `source`) a growth of `size` bytes unless its levels are well
// formed, in order, and fit in max_bytes with the state.
Status CheckGrowth(const WindowParams& p, const uint8_t* growth, uint64_t size, const std::string& source);

}  // namespace seen
