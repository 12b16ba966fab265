// The scan of a ring window's entries (core/window_ring.h), SIMD through Highway: a vector of
// entries compared with one fingerprint at a time.
#pragma once

#include <cstdint>

namespace seen {

// The first of entries[0..span) (little-endian u16) equal to fp, as an index, or span if
// none, on every SIMD target; tests/test_simd_targets.cc holds each to a plain loop.
uint32_t RingFind(const uint8_t* entries, uint32_t span, uint16_t fp);

}  // namespace seen
