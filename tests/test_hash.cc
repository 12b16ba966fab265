// The SIMD batch hash of u64 ids must be exactly XXH3-64 of the id's 8 little-endian bytes;
// keyed, exactly SipHash-1-3, whose code also gives the paper's SipHash-2-4 vectors.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <cstring>
#include <vector>

#include "core/error.h"
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

// The first vectors of the SipHash paper's appendix (SipHash-2-4, key 00..0f, messages 00,
// 00 01, ...): the same template runs SipHash-1-3.
TEST(Hash, SipHashGivesThePapersVectors) {
  const uint64_t k0 = 0x0706050403020100ULL, k1 = 0x0f0e0d0c0b0a0908ULL;
  const uint8_t message[15] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
  EXPECT_EQ((SipHash<2, 4>(k0, k1, message, 0)), 0x726fdb47dd0e0e31ULL);
  EXPECT_EQ((SipHash<2, 4>(k0, k1, message, 1)), 0x74f839c593dc67fdULL);
  EXPECT_EQ((SipHash<2, 4>(k0, k1, message, 15)), 0xa129ca6149be45e5ULL);
  // The u64 form is the byte form of the id's 8 little-endian bytes.
  const uint64_t id = 0x0706050403020100ULL;
  EXPECT_EQ(SipHash13U64(k0, k1, id), SipHash13(k0, k1, message, 8));
}

TEST(Hash, KeyedBatchMatchesSipHashForEveryLength) {
  const Hashing keyed(5, SecretKey{0x1234, 0x5678});
  for (size_t n = 0; n <= 67; ++n) {
    const std::vector<uint64_t> ids = test::Keys(n, 3);
    std::vector<uint64_t> hashes(n);
    HashU64Batch(ids.data(), n, keyed, hashes.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(hashes[i], SipHash13(0x1234 ^ 5, 0x5678, &ids[i], 8)) << "n " << n << " i " << i;
      ASSERT_EQ(hashes[i], HashU64(ids[i], keyed));
    }
  }
  const char text[] = "has this been seen before?";
  EXPECT_EQ(HashBytes(text, sizeof text - 1, keyed), SipHash13(0x1234 ^ 5, 0x5678, text, sizeof text - 1));
  EXPECT_NE(HashBytes(text, sizeof text - 1, keyed), HashBytes(text, sizeof text - 1, Hashing(5)));
}

TEST(Hash, SecretKeysComeFromSixteenToSixtyFourBytes) {
  uint8_t bytes[64];
  for (int i = 0; i < 64; ++i) bytes[i] = static_cast<uint8_t>(i);
  const SecretKey direct = SecretKey::FromBytes(bytes, 16);
  EXPECT_EQ(direct.k0, 0x0706050403020100ULL);
  EXPECT_EQ(direct.k1, 0x0f0e0d0c0b0a0908ULL);
  const SecretKey folded = SecretKey::FromBytes(bytes, 32);
  EXPECT_FALSE(folded == direct);
  EXPECT_FALSE(folded == SecretKey::FromBytes(bytes, 33));
  EXPECT_NE(direct.CheckValue(), folded.CheckValue());
  EXPECT_LT(direct.CheckValue(), uint64_t{1} << 56);
  EXPECT_THROW(SecretKey::FromBytes(bytes, 15), Error);
  EXPECT_THROW(SecretKey::FromBytes(bytes, 65), Error);
  EXPECT_THROW(SecretKey::FromBytes(nullptr, 16), Error);
}

}  // namespace
}  // namespace seen
