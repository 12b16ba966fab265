// The batch query of a window's bit-sliced cells (core/window_cells.h), SIMD through Highway:
// every sliced window's base, and every growth level of a growing window, answers through it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/window_cells.h"

namespace seen {

// Sets out[i] to 1 when some segment in the mask `live` has all k cells of hashes[i] set; leaves
// the others as they are, so several arrays can answer into one out. Exactly
// window_cells::SegmentsHolding(...) != 0 on every SIMD target.
void MarkHeld(const window_cells::CellShape& shape, const uint8_t* cells, uint32_t live, const uint64_t* hashes, size_t n, uint8_t* out);

}  // namespace seen
