// The shared Bloom vectors of tests/vectors/, checked under whichever SIMD target is chosen:
// building from each .vec gives the committed .seen byte for byte, and the committed file
// answers every query as recorded. test_format runs it on the best target, test_simd_targets
// on every target in turn.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "tests/vector_file.h"

namespace seen::test {

// Returns how many recorded queries were checked.
inline int CheckBloomVectors() {
  const std::string dir = SEEN_SOURCE_DIR "/tests/vectors";
  int checked = 0;
  for (const char* name : {"bloom_u64", "bloom_keys", "bloom_mixed_loose"}) {
    const Vector v = ReadVector(dir + "/" + name + ".vec");
    Bloom built = Bloom::Create(v.expected_items, v.fpr, v.seed);
    built.AddU64(v.add_ids.data(), v.add_ids.size());
    for (const auto& key : v.add_keys) built.PutKey(key.data(), key.size());
    const auto expected = ReadBytes(dir + "/" + name + ".seen");
    EXPECT_FALSE(expected.empty()) << name;
    std::vector<uint8_t> bytes(SerializedSize(built));
    Serialize(built, bytes.data());
    EXPECT_TRUE(bytes == expected) << name << ": serialized bytes drifted";
    const Bloom committed = Deserialize(expected.data(), expected.size());
    for (const auto& q : v.queries) {
      const bool answer = q.is_key ? committed.TestKey(q.key.data(), q.key.size()) : committed.TestU64(q.id);
      EXPECT_EQ(answer ? 1 : 0, q.expected) << name << " query " << (q.is_key ? ToHex(q.key) : std::to_string(q.id));
      ++checked;
    }
  }
  return checked;
}

}  // namespace seen::test
