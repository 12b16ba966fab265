// The batch query of a table window (core/window_table.h), SIMD through Highway: a
// candidate's line is 16 slots, compared in one to four vectors.
#pragma once

#include <cstddef>
#include <cstdint>

namespace seen {

// The slots of a table window: 2^log2_buckets buckets of 16 u32 slots, and the mask of its
// segments that count.
struct TableSlots {
  const uint32_t* slots;
  uint32_t log2_buckets;
  uint32_t live;
};

// out[i] = 1 when the table holds an entry of hashes[i] in a live segment, else 0: exactly
// table_slots::TableHolds (core/window_table_slots.h), to which tests/test_simd_targets.cc
// holds every target.
void TableHeld(const TableSlots& table, const uint64_t* hashes, size_t n, uint8_t* out);

}  // namespace seen
