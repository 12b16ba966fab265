// The batch query of a table window (core/window_table.h), SIMD through Highway: a
// candidate's pair of buckets is 32 slots, compared in one to eight vectors.
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

// out[i] = 1 when the pair of buckets of hashes[i] holds an entry of its fingerprint on its
// side in a live segment, else 0. The scalar reference is table_slots::PairHolds (core/window_table_slots.h); tests/test_simd_targets.cc holds every target to it.
void TableHeld(const TableSlots& table, const uint64_t* hashes, size_t n, uint8_t* out);

}  // namespace seen
