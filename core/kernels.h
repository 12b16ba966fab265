// Batch kernels over key hashes, SIMD through Highway with dynamic dispatch (kernels.cc is
// the one place that dispatches). Each prefetches the blocks of keys ahead of the one it
// probes, so a batch runs at the speed of random cache-line reads, not of their latency.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/block.h"

namespace seen {

// out[i] = 1 if every bit of hashes[i] is set in its block, else 0.
void ContainsHashes(const Blocks& blocks, const uint64_t* hashes, size_t n, uint8_t* out);

// Sets the bits of every hash (relaxed atomic OR: safe against concurrent adds).
void AddHashes(const Blocks& blocks, const uint64_t* hashes, size_t n);

// The name of the SIMD target the dispatcher chose, e.g. "AVX2".
const char* ChosenTargetName();

}  // namespace seen
