// The MinHash index in the container format (kind 7): round trips through bytes and files,
// the read-only mapped open, removed and replaced documents left behind, keys, and every
// field of a damaged file, through bytes and through a mapped file.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/format.h"
#include "core/minhash.h"
#include "core/minhash_codec.h"
#include "core/minhash_index.h"
#include "tests/format_support.h"
#include "tests/support.h"
#include "tests/vector_file.h"

namespace seen {
namespace {

using test::CodeOf;
using test::WithField;

std::string Text(std::mt19937_64& rng) {
  std::string text;
  for (int w = 0; w < 60; ++w) text += "w" + std::to_string(rng() % 3000) + " ";
  return text;
}

// 500 texts with ids 100..599; then id 100 removed and id 101 given text 0's words.
struct Sample {
  explicit Sample(const MinhashOptions& options = MinhashOptions{}) : index(options, 0.7) {
    std::mt19937_64 rng(5);
    for (int i = 0; i < 500; ++i) {
      texts.push_back(Text(rng));
      index.Add(100 + i, SketchText(texts.back().data(), texts.back().size(), options));
    }
    index.Remove(100);
    index.Add(101, SketchText(texts[0].data(), texts[0].size(), options));
  }
  std::vector<std::string> texts;
  MinhashIndex index;
};

std::vector<uint8_t> Bytes(const MinhashIndex& index) {
  std::vector<uint8_t> out(SerializedSize(index));
  Serialize(index, out.data());
  return out;
}

std::vector<uint64_t> Ids(const MinhashIndex& index, const std::string& text) {
  std::vector<uint64_t> ids;
  for (const auto& m : index.Query(SketchText(text.data(), text.size(), index.options()))) ids.push_back(m.id);
  return ids;
}

TEST(MinhashFormat, RoundTripsThroughBytesAndFiles) {
  Sample s;
  const auto bytes = Bytes(s.index);
  EXPECT_EQ(test::LoadU32(bytes, 12), 7u) << "kind 7";
  const MinhashIndex copy = DeserializeMinhashIndex(bytes.data(), bytes.size(), std::nullopt);
  EXPECT_EQ(copy.size(), 499u) << "the removed id is not saved";
  EXPECT_EQ(Bytes(copy), bytes);
  test::ScratchDir dir;
  Save(s.index, dir.File("m.seen"));
  MinhashIndex opened = OpenMinhashIndex(dir.File("m.seen"), std::nullopt, false, true);
  EXPECT_EQ(opened.threshold(), 0.7);
  for (const auto& text : s.texts) ASSERT_EQ(Ids(opened, text), Ids(s.index, text));
  EXPECT_EQ(Ids(opened, s.texts[0]), (std::vector<uint64_t>{101})) << "101 holds text 0 now";
  // An opened index is writable.
  opened.Add(7, SketchText(s.texts[1].data(), s.texts[1].size(), opened.options()));
  EXPECT_TRUE(opened.Remove(101));
  EXPECT_EQ(Ids(opened, s.texts[1]), (std::vector<uint64_t>{7}));
  EXPECT_EQ(opened.size(), 499u);
}

TEST(MinhashFormat, AMappedIndexAnswersInPlaceLikeTheIndexItWasSavedFrom) {
  Sample s;
  test::ScratchDir dir;
  Save(s.index, dir.File("m.seen"));
  for (bool verify : {true, false}) {
    MinhashIndex mapped = OpenMinhashIndex(dir.File("m.seen"), std::nullopt, true, verify);
    EXPECT_TRUE(mapped.read_only());
    EXPECT_EQ(mapped.size(), 499u);
    for (const auto& text : s.texts) ASSERT_EQ(Ids(mapped, text), Ids(s.index, text));
    EXPECT_EQ(Bytes(mapped), Bytes(s.index)) << "saving a mapped index writes the same file";
    const auto sketch = SketchText(s.texts[1].data(), s.texts[1].size(), mapped.options());
    EXPECT_EQ(CodeOf([&] { mapped.Add(7, sketch); }), Code::kReadOnly);
    EXPECT_EQ(CodeOf([&] { mapped.Remove(101); }), Code::kReadOnly);
    EXPECT_EQ(Ids(mapped, s.texts[1]), Ids(s.index, s.texts[1])) << "the refused writes changed nothing";
  }
  // The tables stay in the file: the mapped index holds the payload, not a copy beside it.
  const MinhashIndex copy = OpenMinhashIndex(dir.File("m.seen"), std::nullopt, false, true);
  const MinhashIndex mapped = OpenMinhashIndex(dir.File("m.seen"), std::nullopt, true, true);
  EXPECT_LT(mapped.bytes(), copy.bytes() + 1);
  EXPECT_FALSE(copy.read_only());
}

TEST(MinhashFormat, AKeyedIndexOpensOnlyWithItsKey) {
  MinhashOptions keyed;
  keyed.key = SecretKey{0x1234, 0x5678};
  const Sample s(keyed);
  const auto bytes = Bytes(s.index);
  EXPECT_EQ(CodeOf([&] { DeserializeMinhashIndex(bytes.data(), bytes.size(), std::nullopt); }), Code::kIncompatible);
  EXPECT_EQ(CodeOf([&] { DeserializeMinhashIndex(bytes.data(), bytes.size(), SecretKey{0x1234, 0x5679}); }),
            Code::kIncompatible);
  const MinhashIndex opened = DeserializeMinhashIndex(bytes.data(), bytes.size(), keyed.key);
  EXPECT_EQ(Ids(opened, s.texts[3]), Ids(s.index, s.texts[3]));
  const auto plain = Bytes(Sample().index);
  EXPECT_EQ(CodeOf([&] { DeserializeMinhashIndex(plain.data(), plain.size(), keyed.key); }), Code::kIncompatible);
}

// Payload offsets of the sample (499 documents, 128 bins, the bands of t = 0.7).
struct Offsets {
  uint64_t ids = 128, by_id = 128 + 499 * 8, bands = by_id + 499 * 16;
};

// The code DeserializeMinhashIndex gives bytes, after checking that a read-only mapped open of
// a file of them gives the same (and that a refusal's message names the file).
Code CheckedBothWays(const std::vector<uint8_t>& b) {
  const Code copied = CodeOf([&] { DeserializeMinhashIndex(b.data(), b.size(), std::nullopt); });
  test::ScratchDir dir;
  const std::string path = dir.File("damaged.seen");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  std::string message;
  const Code mapped = CodeOf([&] {
    try {
      OpenMinhashIndex(path, std::nullopt, true, true);
    } catch (const Error& e) {
      message = e.what();
      throw;
    }
  });
  EXPECT_EQ(mapped, copied) << message;
  if (mapped != Code::kOk) {
    EXPECT_NE(message.find(path), std::string::npos) << message;
  }
  return copied;
}

TEST(MinhashFormat, EveryFieldIsChecked) {
  const auto good = Bytes(Sample().index);
  auto parse = CheckedBothWays;
  ASSERT_EQ(parse(good), Code::kOk);
  EXPECT_EQ(parse(WithField<uint32_t>(good, 12, 6)), Code::kWrongKind);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 64, 500)), Code::kInconsistent) << "count vs payload";
  EXPECT_EQ(parse(WithField<uint64_t>(good, 64, uint64_t{1} << 40)), Code::kTooLarge) << "absurd count";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 72, 100)), Code::kInconsistent) << "bins not a power of two";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 72, 256)), Code::kInconsistent) << "bins vs the shape";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 76, 9)), Code::kInconsistent) << "shingle";
  EXPECT_EQ(parse(WithField<double>(good, 88, 1.5)), Code::kInconsistent) << "threshold";
  EXPECT_EQ(parse(WithField<double>(good, 88, 0.9)), Code::kInconsistent) << "threshold vs bands";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 96, 1)), Code::kInconsistent) << "bands";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 100, 1)), Code::kInconsistent) << "rows";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 104, 2)), Code::kUnsupportedVersion) << "table scheme";
  for (size_t at = 108; at < 128; ++at) EXPECT_EQ(parse(WithField<uint8_t>(good, at, 1)), Code::kInconsistent) << at;
  // Payload damage fails the checksum; with the checksum fixed, the table checks refuse it.
  const Offsets o;
  auto resealed = [&](size_t at, uint32_t value) {
    auto bad = WithField<uint32_t>(good, at, value, false);
    ResealContainer(bad.data(), bad.size());
    return parse(bad);
  };
  EXPECT_EQ(parse(WithField<uint32_t>(good, o.bands, 0xFFFF, false)), Code::kBadChecksum);
  EXPECT_EQ(resealed(o.bands + 4, 499), Code::kInconsistent) << "a band slot past count";
  EXPECT_EQ(resealed(o.bands, 0xFFFFFFFF), Code::kInconsistent) << "a band out of order";
  EXPECT_EQ(resealed(o.by_id + 8, 3), Code::kInconsistent) << "an id entry naming another id's slot";
  EXPECT_EQ(resealed(o.by_id + 12, 1), Code::kInconsistent) << "padding";
  EXPECT_EQ(resealed(o.ids, 5), Code::kInconsistent) << "an id its entry does not name";
  auto message = [&](size_t at, uint32_t value) {
    auto bad = WithField<uint32_t>(good, at, value, false);
    ResealContainer(bad.data(), bad.size());
    try {
      DeserializeMinhashIndex(bad.data(), bad.size(), std::nullopt);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(o.bands + 4, 499).find("band 0 entry 0"), std::string::npos) << "the message names the field";
  EXPECT_NE(message(o.by_id + 12, 1).find("id entry 0"), std::string::npos);
  for (size_t len : {size_t{0}, size_t{63}, size_t{100}, size_t{128}, good.size() / 2, good.size() - 1}) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_NE(parse(cut), Code::kOk) << len;
  }
}

TEST(MinhashFormat, AnEmptyIndexRoundTrips) {
  const MinhashIndex empty(MinhashOptions{}, 0.8);
  const auto bytes = Bytes(empty);
  const MinhashIndex copy = DeserializeMinhashIndex(bytes.data(), bytes.size(), std::nullopt);
  EXPECT_EQ(copy.size(), 0u);
  EXPECT_EQ(copy.threshold(), 0.8);
}

// tests/vectors/minhash_index.vec: its script rebuilds minhash_index.seen byte for byte, and
// the saved index answers its queries.
TEST(MinhashFormat, SharedVector) {
  const std::string base = SEEN_SOURCE_DIR "/tests/vectors/minhash_index";
  std::ifstream vec(base + ".vec");
  ASSERT_TRUE(vec) << "missing " << base << ".vec";
  MinhashOptions options;
  double threshold = 0;
  std::optional<MinhashIndex> index;
  std::vector<std::pair<std::string, std::vector<uint64_t>>> queries;
  for (std::string line; std::getline(vec, line);) {
    std::istringstream fields(line);
    std::string op;
    fields >> op;
    if (op == "bins") fields >> options.bins;
    if (op == "shingle") fields >> options.shingle;
    if (op == "seed") fields >> options.seed;
    if (op == "threshold") fields >> threshold;
    std::string hex;
    uint64_t id;
    if (op == "add") {
      if (!index) index.emplace(options, threshold);
      fields >> id >> hex;
      const std::string text = test::FromHex(hex);
      index->Add(id, SketchText(text.data(), text.size(), options));
    }
    if (op == "remove") fields >> id, index->Remove(id);
    if (op == "query") {
      fields >> hex;
      queries.push_back({test::FromHex(hex), {std::istream_iterator<uint64_t>(fields), {}}});
    }
  }
  ASSERT_TRUE(index.has_value());
  std::ifstream seen_file(base + ".seen", std::ios::binary);
  const std::vector<uint8_t> want{std::istreambuf_iterator<char>(seen_file), {}};
  EXPECT_EQ(Bytes(*index), want);
  const MinhashIndex opened = DeserializeMinhashIndex(want.data(), want.size(), std::nullopt);
  ASSERT_GE(queries.size(), 8u);
  for (const auto& [text, ids] : queries) EXPECT_EQ(Ids(opened, text), ids);
}

}  // namespace
}  // namespace seen
