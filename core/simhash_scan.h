// Hamming scans of the SimHash index, dispatched to the best SIMD target at run time (the
// per-target build gives them the popcnt instruction without any -march flag).
#pragma once

#include <cstddef>
#include <cstdint>

namespace seen {

// The chunk a caller scans at once: hits needs room for this many indices.
constexpr size_t kScanChunk = 256;

// Writes to hits the indices i < n (n <= kScanChunk) with popcount(sigs[i] ^ query) <= k;
// returns how many.
size_t ScanSigs(const uint32_t* sigs, size_t n, uint32_t query, uint32_t k, uint32_t* hits);

// The same over fps[i * stride] (stride 2 walks {fingerprint, id} entries).
size_t ScanFingerprints(const uint64_t* fps, size_t n, size_t stride, uint64_t query, uint32_t k,
                        uint32_t* hits);

// How many of fps[0..n) lie within k of query, a vector popcount per lane: the brute-force
// baseline of bench/bench_simhash.cc.
size_t CountWithin(const uint64_t* fps, size_t n, uint64_t query, uint32_t k);

}  // namespace seen
