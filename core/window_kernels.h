// The batch query of a window's bit-sliced cells (core/window_cells.h), SIMD through Highway:
// every sliced window's base, and every growth level of a growing window, answers through it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/window_cells.h"

namespace seen {

// One array of sliced cells and the segments (or, in a growth level, the slots) of it that
// count.
struct LiveCells {
  window_cells::CellShape shape;
  const uint8_t* cells;
  uint32_t live;
};

// out[i] = 1 when some array has, in some segment of its `live`, all shape.k cells of
// hashes[i] set; else 0. Exactly window_cells::SegmentsHolding(...) != 0 for some array, on
// every SIMD target. An item's positions are mixed once for all the arrays.
void MarkHeld(const LiveCells* arrays, size_t count, const uint64_t* hashes, size_t n, uint8_t* out);

}  // namespace seen
