// The check value a keyed file carries (header flags, docs/FORMAT.md) comes from a key of its
// own, derived from the secret key, so that no file shows an output of the function that
// places keys. It was SipHash-1-3 of a fixed label under the key itself, which told where
// that one label lands; files with that old value still open, with their key only, for one
// release, and every save writes the new value.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/format.h"
#include "core/hash.h"
#include "core/subkey.h"
#include "tests/format_support.h"
#include "tests/support.h"

namespace seen {
namespace {

using test::CodeOf;

constexpr size_t kOffFlags = 48;
const char kLabel[] = "seen key check";
const SecretKey kKey{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};

uint64_t FlagsOf(const std::vector<uint8_t>& bytes) { return test::LoadU64(bytes, kOffFlags); }

// The flags files carried before: the keyed bit and the key's own hash of the label.
uint64_t OldFlags(const SecretKey& key) {
  return 1 | (HashBytes(kLabel, sizeof kLabel - 1, Hashing(0, key)) >> 8 << 8);
}

std::vector<uint8_t> KeyedBytes() {
  Bloom filter = Bloom::Create(1000, 0.01, 0, kKey);
  const auto keys = test::Keys(500, 0);
  filter.AddU64(keys.data(), keys.size());
  std::vector<uint8_t> bytes(SerializedSize(filter));
  Serialize(filter, bytes.data());
  return bytes;
}

TEST(KeyCheck, IsNoOutputOfTheFunctionThatPlacesKeys) {
  EXPECT_NE(kKey.CheckValue(), HashBytes(kLabel, sizeof kLabel - 1, Hashing(0, kKey)) >> 8);
  for (uint64_t seed : {0, 1, 77}) {
    EXPECT_NE(kKey.CheckValue(), HashBytes(kLabel, sizeof kLabel - 1, Hashing(seed, kKey)) >> 8) << seed;
  }
}

// Pinned, as docs/FORMAT.md states it: SipHash-1-3 of the label under the key's subkey for
// the label (core/subkey.h).
TEST(KeyCheck, IsTheLabelsHashUnderTheCheckSubkey) {
  const SecretKey check = Subkey(kKey, kLabel);
  EXPECT_NE(check, kKey);
  EXPECT_EQ(kKey.CheckValue(), SipHash13(check.k0, check.k1, kLabel, sizeof kLabel - 1) >> 8);
  EXPECT_EQ(FlagsOf(KeyedBytes()), 1 | kKey.CheckValue() << 8);
}

TEST(KeyCheck, AFileWithTheOldValueOpensWithItsKeyOnly) {
  const std::vector<uint8_t> fresh = KeyedBytes();
  const std::vector<uint8_t> old = test::WithField(fresh, kOffFlags, OldFlags(kKey));
  ASSERT_NE(FlagsOf(old), FlagsOf(fresh));
  const Bloom opened = Deserialize(old.data(), old.size(), kKey);
  const auto keys = test::Keys(500, 0);
  std::vector<uint8_t> found(keys.size());
  opened.ContainsU64(keys.data(), keys.size(), found.data());
  EXPECT_EQ(test::CountYes(found), keys.size());
  EXPECT_EQ(CodeOf([&] { Deserialize(old.data(), old.size(), SecretKey{kKey.k0, kKey.k1 + 1}); }),
            Code::kIncompatible);
  EXPECT_EQ(CodeOf([&] { Deserialize(old.data(), old.size()); }), Code::kIncompatible);
  // Written again, it carries the new value.
  std::vector<uint8_t> again(SerializedSize(opened));
  Serialize(opened, again.data());
  EXPECT_EQ(FlagsOf(again), FlagsOf(fresh));
}

}  // namespace
}  // namespace seen
