// The scalable filter's promises: no false negatives while it grows, the false-positive
// bound after growing 100x, counting of distinct keys, options checked, kind 3 round trips
// and roles, every kind of bad input, and the shared vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/error.h"
#include "core/hash.h"
#include "core/scalable.h"
#include "core/scalable_codec.h"
#include "tests/format_support.h"
#include "tests/support.h"
#include "tests/vector_file.h"

namespace seen {
namespace {

using test::CodeOf;
using test::CountYes;
using test::WithField;

using test::Keys;

std::vector<uint8_t> Bytes(const Scalable& filter) {
  std::vector<uint8_t> out(SerializedSize(filter));
  Serialize(filter, out.data());
  return out;
}

double MeasuredFpr(const Scalable& filter, uint64_t probes) {
  const auto absent = Keys(probes, 1);
  std::vector<uint8_t> out(absent.size());
  filter.ContainsU64(absent.data(), absent.size(), out.data());
  return static_cast<double>(CountYes(out)) / absent.size();
}

// Grown 100x past a capacity of 10,000 with the defaults (7 sub-filters), the rate over 2
// million absent keys stays at or below the bound; and it is not far below it either (a
// sizing that wastes memory fails): the last sub-filters are the loosest per key, so at
// least a third of the bound is used. At 1% that is 20,000 expected hits at most, a
// deviation of 141, so a correct filter never fails on noise.
class ScalableBound : public ::testing::TestWithParam<std::pair<double, double>> {};

TEST_P(ScalableBound, FprStaysWithinTheBoundAfterGrowing100x) {
  const auto [fpr, growth] = GetParam();
  Scalable filter = Scalable::Create({10000, fpr, growth, 0.5, 17});
  const auto keys = Keys(1000000, 0);
  filter.AddU64(keys.data(), keys.size());
  EXPECT_GE(filter.subs().size(), 3u);
  // Keys that were false positives when added do not count: at most the bound's share.
  EXPECT_GE(filter.items(), (1 - fpr) * keys.size());
  std::vector<uint8_t> out(keys.size());
  filter.ContainsU64(keys.data(), keys.size(), out.data());
  ASSERT_EQ(CountYes(out), keys.size()) << "no false negatives";
  const double measured = MeasuredFpr(filter, 2000000);
  EXPECT_LE(measured, fpr);
  EXPECT_GE(measured, fpr / 3);
  EXPECT_LE(filter.PredictedFpr(), fpr);
  EXPECT_NEAR(filter.PredictedFpr(), measured, 0.2 * measured);
}

INSTANTIATE_TEST_SUITE_P(Bounds, ScalableBound,
                         ::testing::Values(std::pair{0.01, 2.0}, std::pair{0.001, 2.0},
                                           std::pair{0.05, 4.0}));

TEST(Scalable, SubFiltersFollowGrowthAndTightening) {
  Scalable filter = Scalable::Create({1000, 0.02, 3.0, 0.25, 9});
  const auto keys = Keys(20000, 0);
  filter.AddU64(keys.data(), keys.size());
  ASSERT_GE(filter.subs().size(), 3u);
  for (size_t i = 0; i < filter.subs().size(); ++i) {
    const SubFilter& s = filter.subs()[i];
    EXPECT_EQ(s.capacity, 1000 * static_cast<uint64_t>(std::pow(3, i)));
    EXPECT_DOUBLE_EQ(s.bloom.params().target_fpr, 0.02 * 0.75 * std::pow(0.25, i));
    if (i + 1 < filter.subs().size()) {
      EXPECT_EQ(s.items, s.capacity) << "grows only when full";
    }
  }
}

TEST(Scalable, RepeatsDoNotCount) {
  Scalable filter = Scalable::Create({100, 0.001, 2.0, 0.5, 1});
  const auto keys = Keys(1000, 0);
  filter.AddU64(keys.data(), keys.size());
  const uint64_t items = filter.items();
  const size_t subs = filter.subs().size();
  filter.AddU64(keys.data(), keys.size());
  for (uint64_t id : keys) EXPECT_TRUE(filter.PutU64(id));
  EXPECT_EQ(filter.items(), items);
  EXPECT_EQ(filter.subs().size(), subs);
  EXPECT_FALSE(filter.PutU64(Keys(1, 1)[0])) << "a new key";
  EXPECT_EQ(filter.items(), items + 1);
}

TEST(Scalable, SingleAndBatchAgreeAndByteKeysWork) {
  const auto ids = Keys(5000, 0);
  Scalable batch = Scalable::Create({300, 0.01, 2.0, 0.5, 4});
  Scalable single = Scalable::Create({300, 0.01, 2.0, 0.5, 4});
  batch.AddU64(ids.data(), ids.size());
  for (uint64_t id : ids) single.PutU64(id);
  EXPECT_EQ(Bytes(batch), Bytes(single));
  std::vector<uint8_t> data;
  std::vector<uint64_t> offsets{0};
  for (uint64_t i = 0; i < 3000; ++i) {
    const std::string key = "addr" + std::to_string(test::Mix(i));
    data.insert(data.end(), key.begin(), key.end());
    offsets.push_back(data.size());
  }
  Scalable keys = Scalable::Create({100, 0.01, 2.0, 0.5, 4});
  keys.AddKeys(data.data(), offsets.data(), 3000);
  std::vector<uint8_t> out(3000);
  keys.ContainsKeys(data.data(), offsets.data(), 3000, out.data());
  EXPECT_EQ(CountYes(out), 3000u);
  EXPECT_TRUE(keys.TestKey(data.data(), offsets[1]));
  EXPECT_FALSE(keys.PutKey("", 0));
  EXPECT_TRUE(keys.PutKey("", 0));
}

TEST(Scalable, OptionsAreChecked) {
  for (const ScalableOptions& o : {ScalableOptions{0, 0.01, 2, 0.5, 0}, ScalableOptions{10, 0, 2, 0.5, 0},
                                   ScalableOptions{10, 1, 2, 0.5, 0}, ScalableOptions{10, 0.01, 0.5, 0.5, 0},
                                   ScalableOptions{10, 0.01, 100, 0.5, 0}, ScalableOptions{10, 0.01, 2, 0, 0},
                                   ScalableOptions{10, 0.01, 2, 1, 0}, ScalableOptions{10, NAN, 2, 0.5, 0}}) {
    EXPECT_EQ(CodeOf([&] { Scalable::Create(o); }), Code::kInvalidArgument) << o.initial_capacity << " " << o.fpr;
  }
}

// Growth 1 keeps every sub-filter at one key: 64 keys fill all 64, and the next is refused.
TEST(Scalable, MoreThan64SubFiltersIsTooLarge) {
  Scalable filter = Scalable::Create({1, 0.5, 1.0, 0.9, 0});
  const auto keys = Keys(200, 0);
  EXPECT_EQ(CodeOf([&] { filter.AddU64(keys.data(), keys.size()); }), Code::kTooLarge);
  EXPECT_EQ(filter.subs().size(), kMaxSubFilters);
}

Scalable Sample() {
  Scalable filter = Scalable::Create({200, 0.01, 2.0, 0.5, 5});
  const auto keys = Keys(1000, 0);
  filter.AddU64(keys.data(), keys.size());
  return filter;
}

Code Parse(const std::vector<uint8_t>& b) {
  return CodeOf([&] { DeserializeScalable(b.data(), b.size()); });
}

TEST(ScalableFormat, RoundTripAndLayout) {
  const Scalable filter = Sample();
  const auto bytes = Bytes(filter);
  const uint32_t subs = static_cast<uint32_t>(filter.subs().size());
  ASSERT_EQ(subs, 3u);  // 200 + 400 full, the third filling
  EXPECT_EQ(test::LoadU32(bytes, 12), 3u) << "kind 3";
  EXPECT_EQ(test::LoadU64(bytes, 16), 64u + 64u * subs);
  EXPECT_EQ(test::LoadU64(bytes, 64), 200u);
  EXPECT_EQ(test::LoadU32(bytes, 64 + 40), subs);
  EXPECT_EQ(test::LoadU32(bytes, 64 + 44), 1u);
  uint64_t payload = 0;
  for (uint32_t i = 0; i < subs; ++i) {
    const size_t row = 128 + 64 * i;
    EXPECT_EQ(test::LoadU64(bytes, row), filter.subs()[i].bloom.params().blocks);
    EXPECT_EQ(test::LoadU64(bytes, row + 24), filter.subs()[i].capacity);
    EXPECT_EQ(test::LoadU64(bytes, row + 32), filter.subs()[i].items);
    payload += filter.subs()[i].bloom.params().bytes();
  }
  EXPECT_EQ(test::LoadU64(bytes, 32), payload);
  Scalable copy = DeserializeScalable(bytes.data(), bytes.size());
  EXPECT_EQ(Bytes(copy), bytes);
  EXPECT_EQ(copy.items(), filter.items());
  const auto more = Keys(2000, 0);
  copy.AddU64(more.data(), more.size());  // a copy keeps growing
  EXPECT_GT(copy.subs().size(), subs);
}

TEST(ScalableFormat, SaveAndOpenInBothRoles) {
  test::ScratchDir dir;
  const std::string path = dir.File("s.seen");
  Save(Sample(), path);
  const auto keys = Keys(1000, 0);
  Scalable reader = OpenScalable(path, false, true);
  EXPECT_TRUE(reader.read_only());
  EXPECT_EQ(Bytes(reader), Bytes(Sample()));
  std::vector<uint8_t> out(keys.size());
  reader.ContainsU64(keys.data(), keys.size(), out.data());
  EXPECT_EQ(CountYes(out), keys.size());
  EXPECT_EQ(CodeOf([&] { reader.PutU64(1); }), Code::kReadOnly);
  EXPECT_EQ(CodeOf([&] { reader.AddU64(keys.data(), 1); }), Code::kReadOnly);
  Scalable writer = OpenScalable(path, true, true);
  EXPECT_FALSE(writer.read_only());
  const auto more = Keys(3000, 0);
  writer.AddU64(more.data(), more.size());
  Save(writer, path);
  EXPECT_EQ(Bytes(OpenScalable(path, false, true)), Bytes(writer));
  EXPECT_EQ(Bytes(reader), Bytes(Sample())) << "the earlier mapping still reads the old file";
}

TEST(ScalableFormat, EveryHeaderAndParamsFieldIsChecked) {
  const auto good = Bytes(Sample());
  ASSERT_EQ(Parse(good), Code::kOk);
  const uint64_t params_end = 64 + test::LoadU64(good, 16);
  for (size_t offset = 10; offset < params_end; ++offset) {
    if (offset >= 40 && offset < 48) continue;  // the payload checksum
    if (offset > 16 && offset < 24) continue;   // params_size: absurd before it is checkable
    auto bad = good;
    bad[offset] ^= 0x10;
    EXPECT_EQ(Parse(bad), Code::kBadChecksum) << "byte " << offset;
  }
  EXPECT_EQ(Parse(WithField<uint32_t>(good, 12, 1)), Code::kWrongKind);
  EXPECT_EQ(Parse(WithField<uint32_t>(good, 12, 2)), Code::kWrongKind);
  // Head: capacity, fpr, growth, tightening, count, scheme, reserved.
  EXPECT_EQ(Parse(WithField<uint64_t>(good, 64, 0)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<double>(good, 72, 0.0)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<double>(good, 72, 1.5)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<double>(good, 80, 0.5)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<double>(good, 88, 1.0)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint32_t>(good, 104, 0)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint32_t>(good, 104, 2)), Code::kInconsistent) << "rows do not match the count";
  EXPECT_EQ(Parse(WithField<uint32_t>(good, 104, 65)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint32_t>(good, 108, 2)), Code::kUnsupportedVersion);
  EXPECT_EQ(Parse(WithField<uint8_t>(good, 120, 1)), Code::kInconsistent);
  // Every row must be the sub-filter the head grows there (its seed, capacity, fpr, size).
  EXPECT_EQ(Parse(WithField<uint64_t>(good, 96, 77)), Code::kInconsistent) << "rows not grown from this seed";
  EXPECT_EQ(Parse(WithField<uint64_t>(good, 64, uint64_t{1} << 27)), Code::kInconsistent)
      << "an initial capacity the rows do not have would size the next sub-filter from nothing";
  EXPECT_EQ(Parse(WithField<double>(good, 80, 64.0)), Code::kInconsistent) << "a growth the rows do not show";
  // Rows: blocks, k, reserved, capacity, items, fpr.
  const size_t row0 = 128, row2 = 128 + 128;
  const uint64_t blocks0 = test::LoadU64(good, row0);
  EXPECT_EQ(Parse(WithField<uint64_t>(good, row0, blocks0 + 1)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint64_t>(good, row0, 0)), Code::kTooLarge);
  EXPECT_EQ(Parse(WithField<uint64_t>(good, row0, uint64_t{1} << 40)), Code::kTooLarge);
  EXPECT_EQ(Parse(WithField<uint64_t>(good, row2, (uint64_t{1} << 38) - 2)), Code::kTooLarge)
      << "the sum of the rows passes 16 TiB";
  EXPECT_EQ(Parse(WithField<uint32_t>(good, row0 + 8, 0)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint32_t>(good, row0 + 8, 9)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint32_t>(good, row0 + 12, 1)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint64_t>(good, row0 + 24, 0)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint64_t>(good, row0 + 32, 199)), Code::kInconsistent) << "an old one not full";
  EXPECT_EQ(Parse(WithField<uint64_t>(good, row2 + 32, 1u << 20)), Code::kInconsistent) << "items past capacity";
  EXPECT_EQ(Parse(WithField<double>(good, row0 + 40, 0.0)), Code::kInconsistent);
  EXPECT_EQ(Parse(WithField<uint8_t>(good, row0 + 60, 1)), Code::kInconsistent);
  // A Bloom reader refuses it.
  EXPECT_EQ(CodeOf([&] { Deserialize(good.data(), good.size()); }), Code::kWrongKind);
}

TEST(ScalableFormat, TruncationFlipsAndAbsurdSizes) {
  const auto good = Bytes(Sample());
  const uint64_t payload_at = test::LoadU64(good, 24);
  for (size_t len = 0; len < good.size(); len += (len < payload_at + 64 ? 1 : 97)) {
    ASSERT_EQ(CodeOf([&] { DeserializeScalable(good.data(), len); }), Code::kTruncated) << len;
  }
  for (size_t i = payload_at; i < good.size(); i += 53) {
    auto bad = good;
    bad[i] ^= static_cast<uint8_t>(1u << (i % 8));
    ASSERT_EQ(Parse(bad), Code::kBadChecksum) << i;
  }
  // The head and rows alone, claiming 2^43 payload bytes: refused before any allocation.
  std::vector<uint8_t> head(good.begin(), good.begin() + payload_at);
  head = WithField<uint64_t>(head, 32, uint64_t{1} << 43);
  EXPECT_EQ(Parse(head), Code::kTruncated);
}

TEST(ScalableFormat, SharedVectors) {
  const std::string dir = SEEN_SOURCE_DIR "/tests/vectors";
  int checked = 0;
  for (const char* name : {"scalable_u64", "scalable_mixed"}) {
    const test::Vector v = test::ReadVector(dir + "/" + name + ".vec");
    ASSERT_EQ(v.kind, "scalable");
    Scalable built = Scalable::Create({v.capacity, v.fpr, v.growth, v.tightening, v.seed});
    for (const test::Step& step : v.steps) {
      const test::Query& q = step.item;
      if (step.is_query) {
        const bool answer = q.is_key ? built.TestKey(q.key.data(), q.key.size()) : built.TestU64(q.id);
        ASSERT_EQ(answer ? 1 : 0, q.expected) << name << " query " << q.id << test::ToHex(q.key);
      } else if (q.is_key) {
        built.PutKey(q.key.data(), q.key.size());
      } else {
        built.PutU64(q.id);
      }
      ++checked;
    }
    const auto expected = test::ReadBytes(dir + "/" + name + ".seen");
    ASSERT_FALSE(expected.empty()) << name;
    EXPECT_TRUE(Bytes(built) == expected) << name << ": serialized bytes drifted";
    const Scalable committed = DeserializeScalable(expected.data(), expected.size());
    for (const auto& q : v.queries) {
      const bool answer = q.is_key ? committed.TestKey(q.key.data(), q.key.size()) : committed.TestU64(q.id);
      ASSERT_EQ(answer ? 1 : 0, q.expected) << name;
    }
  }
  EXPECT_GT(checked, 2000);
}

}  // namespace
}  // namespace seen
