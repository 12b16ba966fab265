// Sizing of the blocked layout of block.h. The classic Bloom formula underestimates a blocked
// filter's false-positive rate, because blocks fill unevenly (their load is Poisson), so
// sizing here averages the per-block rate over that Poisson load.
#pragma once

#include <cstdint>

namespace seen {

// Filters above this many bytes (16 TiB) are refused as absurd rather than attempted.
constexpr uint64_t kMaxFilterBytes = uint64_t{1} << 44;

struct Sizing {
  uint64_t blocks;
  uint32_t k;
};

// Expected false-positive rate of `blocks` blocks holding `items` keys with k bits each.
double PredictFpr(double items, uint64_t blocks, uint32_t k);

// The fewest blocks (then the smallest k) that deliver `fpr` at `items`. Throws
// Error(kInvalidArgument) for fpr outside (0, 1), Error(kTooLarge) past kMaxFilterBytes.
Sizing SizeFor(uint64_t items, double fpr);

// The k that minimises PredictFpr for `items` in `blocks` blocks.
uint32_t BestK(uint64_t items, uint64_t blocks);

// Blocks for a byte budget (rounded up to whole blocks); throws like SizeFor.
uint64_t BlocksForBytes(uint64_t bytes);

}  // namespace seen
