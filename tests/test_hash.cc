// The SIMD batch hash of u64 ids must be exactly XXH3-64 of the id's 8 little-endian bytes.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstring>
#include <vector>

#include "core/hash.h"
#include "tests/support.h"

namespace seen {
namespace {

uint64_t ReferenceXxh3(uint64_t id, uint64_t seed) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(id >> (8 * i));
  return XXH3_64bits_withSeed(bytes, 8, seed);
}

TEST(Hash, BatchMatchesXxh3ForEveryLengthAndSeed) {
  const uint64_t seeds[] = {0, 1, 42, 0xFFFFFFFFu, 0x123456789abcdef0ULL, ~uint64_t{0}};
  for (uint64_t seed : seeds) {
    for (size_t n = 0; n <= 67; ++n) {
      std::vector<uint64_t> ids = test::Keys(n, seed & 1);
      if (n > 0) ids[0] = 0;
      if (n > 1) ids[1] = ~uint64_t{0};
      std::vector<uint64_t> hashes(n);
      HashU64Batch(ids.data(), n, seed, hashes.data());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(hashes[i], ReferenceXxh3(ids[i], seed)) << "seed " << seed << " n " << n << " i " << i;
      }
    }
  }
}

TEST(Hash, SingleFormsMatchXxh3) {
  EXPECT_EQ(HashU64(0x0102030405060708ULL, 7), ReferenceXxh3(0x0102030405060708ULL, 7));
  const char text[] = "has this been seen before?";
  EXPECT_EQ(HashBytes(text, sizeof text - 1, 99), XXH3_64bits_withSeed(text, sizeof text - 1, 99));
}

}  // namespace
}  // namespace seen
