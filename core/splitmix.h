// SplitMix64's output function: distinct, well-spread 64-bit ids from a counter. It is a
// bijection, so distinct inputs give distinct ids, and disjoint input ranges (even and odd,
// or a high bit set) give disjoint id sets. The CLI's demo and simulation and the benchmarks
// make their keys with it; their published numbers depend on these exact constants.
#pragma once

#include <cstdint>

namespace seen {

inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace seen
