// Ring windows (layout 1): the last `span` items of a count window as 16-bit fingerprints in
// insertion order, a ring of span entries after a u32 header (the next position). An item
// is seen when an entry holds its fingerprint: 1 in 2^16 - 1 for an item never added.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/window.h"

namespace seen {

constexpr uint64_t kRingHeaderBytes = 4;
// Fingerprint 0 marks an empty entry.
constexpr uint32_t kFingerprintSpace = 1u << 16;

WindowSaturation RingSaturation(const WindowParams& p, const uint8_t* state);
void RingAdd(const WindowParams& p, uint8_t* state, const uint64_t* hashes, size_t n);
void RingContains(const WindowParams& p, const uint8_t* state, const uint64_t* hashes, size_t n,
                  uint8_t* out);

}  // namespace seen
