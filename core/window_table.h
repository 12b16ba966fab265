// Fingerprint-table time windows (layout 4): each item is a 32-bit slot in a table of
// 32-byte buckets of 8 slots, two buckets to a 64-byte line, so a query reads one line
// whatever the user's activity, where a growing window (layout 3) reads cells in every one
// of its levels. The table doubles when an item finds its line and the line's buddy full,
// and halves when rotations leave it an eighth full: memory follows activity, up to
// max_bytes. Past it the window gives up its oldest time; when only the current segment is
// left, it gives up rate, never an item: a full line takes a saturation marker that answers
// for all its items until the segment goes (core/window_table_slots.h), and the table keeps
// its size while one is live.
//
// An item's hash gives 26 key bits (hash >> 38): the top b of them pick its home bucket among
// 2^b, the other 26 - b are its fingerprint. Where an entry sits and what its slot holds is
// core/window_table_slots.h. Doubling moves the fingerprint's top bit into the bucket index,
// so no hash is needed to rehash. A fresh item matches only its home's own entries: the rate
// is about (entries per bucket) / 2^(26 - b), at most 8 / 2^(26 - b) on average over a full
// table. Sizing caps b so that this stays under the target (TableMaxLog2Buckets).
//
// State: kTableHeaderBytes (the current segment's start time and index, as sliced windows
// keep them; b; kept_since, as growing windows keep it), then the first table of
// kTableStartBuckets buckets. A table of more buckets is the growth instead, and the state's
// table is then zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/window.h"

namespace seen {

constexpr uint64_t kTableHeaderBytes = 16;
constexpr uint32_t kTableStartBuckets = 2;
constexpr uint64_t kTableBucketBytes = 32;

// The most buckets (as log2) whose full table keeps a fresh item's rate under `fpr`.
uint32_t TableMaxLog2Buckets(double fpr);

// A reset state's table: the first one, empty (the caller zeroed the state).
void TableReset(uint8_t* state);
// Whether the state's bucket count is one a table can have (the growth is checked on load).
bool TableLog2BucketsValid(const WindowParams& p, const uint8_t* state);

// Returns how many segments it gave up to max_bytes.
uint32_t TableAdd(const WindowParams& p, uint8_t* state, WindowGrowth& growth,
                  const uint64_t* hashes, size_t n, uint32_t now);
void TableContains(const WindowParams& p, const uint8_t* state, const WindowGrowth* growth,
                   const uint64_t* hashes, size_t n, uint32_t now, uint8_t* out);
WindowSaturation TableSaturation(const WindowParams& p, const uint8_t* state,
                                 const WindowGrowth* growth, uint32_t now);
// Refuses (kInconsistent, naming `source`) unless the state's table size agrees with the
// growth of `growth_size` bytes, fits max_bytes, and every slot names a segment of the window
// and a fingerprint that fits its table.
Status CheckTable(const WindowParams& p, const uint8_t* state, const uint8_t* growth, uint64_t growth_size,
                  const std::string& source);

}  // namespace seen
