// Contract 4 of DESIGN: every SIMD target compiled in gives the same bytes and answers. Each
// target the CPU supports is forced in turn and compared with the scalar reference path.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstring>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/hash.h"
#include "tests/support.h"

namespace seen {
namespace {

struct Outcome {
  std::vector<uint8_t> serialized;
  std::vector<uint8_t> answers;
  std::vector<uint64_t> hashes;
};

Outcome RunEverything(uint32_t items) {
  const auto in = test::Keys(items, 0);
  const auto probe = test::Keys(100000, 1);
  Outcome o;
  Bloom filter = Bloom::Create(in.size(), 0.02, 123);
  // Half the keys through the atomic path, half through the exclusive (plain store) path.
  filter.AddU64(in.data(), in.size() / 2);
  filter.set_exclusive_adds(true);
  filter.AddU64(in.data() + in.size() / 2, in.size() - in.size() / 2);
  o.serialized.resize(SerializedSize(filter));
  Serialize(filter, o.serialized.data());
  o.answers.resize(probe.size());
  filter.ContainsU64(probe.data(), probe.size(), o.answers.data());
  o.hashes.resize(probe.size());
  HashU64Batch(probe.data(), probe.size(), 987, o.hashes.data());
  return o;
}

// The scalar single-key path, which no SIMD target touches.
Outcome RunScalarReference(uint32_t items) {
  const auto in = test::Keys(items, 0);
  const auto probe = test::Keys(100000, 1);
  Outcome o;
  Bloom filter = Bloom::Create(in.size(), 0.02, 123);
  for (uint64_t id : in) filter.PutU64(id);
  o.serialized.resize(SerializedSize(filter));
  Serialize(filter, o.serialized.data());
  for (uint64_t id : probe) o.answers.push_back(filter.TestU64(id) ? 1 : 0);
  for (uint64_t id : probe) o.hashes.push_back(HashU64(id, 987));
  return o;
}

TEST(SimdTargets, EveryTargetMatchesTheScalarReference) {
  const uint32_t items = 100000;
  const Outcome reference = RunScalarReference(items);
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  ASSERT_GE(targets.size(), 2u) << "the build should compile several targets";
  for (int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    const Outcome o = RunEverything(items);
    EXPECT_TRUE(o.serialized == reference.serialized) << hwy::TargetName(target);
    EXPECT_TRUE(o.answers == reference.answers) << hwy::TargetName(target);
    EXPECT_TRUE(o.hashes == reference.hashes) << hwy::TargetName(target);
  }
  hwy::SetSupportedTargetsForTest(0);
  std::printf("compared targets:");
  for (int64_t target : targets) std::printf(" %s", hwy::TargetName(target));
  std::printf("\n");
}

}  // namespace
}  // namespace seen
