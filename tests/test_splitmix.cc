// core/splitmix.h: the mixer that makes the keys of `seen demo`, `seen simulate` and the
// benchmarks, whose published numbers depend on it. Pinned to SplitMix64's reference
// outputs, so that a changed constant fails here instead of silently moving those numbers.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/splitmix.h"

namespace seen {
namespace {

TEST(SplitMix64, GivesTheReferenceGeneratorsOutputs) {
  // The reference generator seeded 0 adds the golden gamma to its state, then mixes it:
  // its outputs are SplitMix64(0), SplitMix64(gamma), ...
  const uint64_t gamma = 0x9e3779b97f4a7c15ULL;
  EXPECT_EQ(SplitMix64(0), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(SplitMix64(gamma), 0x6e789e6aa1b965f4ULL);
}

}  // namespace
}  // namespace seen
