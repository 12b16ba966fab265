// The container format: round trips, files, roles, the shared vectors, and a sweep of every
// kind of bad input, each of which must be refused with its own status.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <dirent.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/error.h"
#include "core/hash.h"
#include "tests/format_support.h"
#include "tests/bloom_vectors.h"
#include "tests/support.h"
#include "tests/vector_file.h"

namespace seen {
namespace {

using test::CodeOf;
using test::WithField;

std::vector<uint8_t> Bytes(const Bloom& filter) {
  std::vector<uint8_t> out(SerializedSize(filter));
  Serialize(filter, out.data());
  return out;
}

Bloom Sample(uint64_t seed = 5) {
  const auto keys = test::Keys(5000, 0);
  Bloom filter = Bloom::Create(5000, 0.01, seed);
  filter.AddU64(keys.data(), keys.size());
  return filter;
}

TEST(Format, RoundTripCopiesAndViews) {
  const Bloom filter = Sample();
  const auto bytes = Bytes(filter);
  const Bloom copy = Deserialize(bytes.data(), bytes.size());
  EXPECT_EQ(Bytes(copy), bytes);
  EXPECT_FALSE(copy.read_only());
  const Bloom view = View(bytes.data(), bytes.size(), true);
  EXPECT_TRUE(view.read_only());
  EXPECT_EQ(view.bytes(), bytes.data() + 128) << "a view must not copy";
  for (uint64_t id : test::Keys(5000, 0)) ASSERT_TRUE(view.TestU64(id));
}

TEST(Format, HeaderFieldsAreWhereTheDocSays) {
  const Bloom filter = Sample(0xABCDEF);
  const auto b = Bytes(filter);
  EXPECT_EQ(std::memcmp(b.data(), "\x89SEEN\r\n\x1a", 8), 0);
  EXPECT_EQ(test::LoadU16(b, 8), 1);   // major
  EXPECT_EQ(test::LoadU16(b, 10), 0);  // minor
  EXPECT_EQ(test::LoadU32(b, 12), 1u);  // kind bloom
  EXPECT_EQ(test::LoadU64(b, 16), 64u);  // params size
  EXPECT_EQ(test::LoadU64(b, 24), 128u);  // payload offset
  EXPECT_EQ(test::LoadU64(b, 32), filter.params().bytes());
  EXPECT_EQ(test::LoadU64(b, 40), XXH3_64bits(b.data() + 128, filter.params().bytes()));
  EXPECT_EQ(test::LoadU64(b, 64), filter.params().blocks);
  EXPECT_EQ(test::LoadU32(b, 72), filter.params().k);
  EXPECT_EQ(test::LoadU32(b, 76), 1u);  // block scheme
  EXPECT_EQ(test::LoadU64(b, 80), 0xABCDEFu);
}

TEST(Format, SaveAndOpenInBothRoles) {
  test::ScratchDir dir;
  const std::string path = dir.File("f.seen");
  const Bloom filter = Sample();
  Save(filter, path);
  {
    Bloom reader = Open(path, false, true);
    EXPECT_TRUE(reader.read_only());
    EXPECT_EQ(Bytes(reader), Bytes(filter));
    const uint64_t id = 424242;
    EXPECT_EQ(CodeOf([&] { reader.PutU64(id); }), Code::kReadOnly);
    EXPECT_EQ(CodeOf([&] { reader.AddU64(&id, 1); }), Code::kReadOnly);
    EXPECT_EQ(CodeOf([&] { reader.Clear(); }), Code::kReadOnly);
  }
  const auto fresh = test::Keys(100, 1);
  {
    Bloom writer = Open(path, true, true);
    writer.AddU64(fresh.data(), fresh.size());
    writer.Sync();
  }
  Bloom reopened = Open(path, false, true);  // verifies the resealed checksums
  for (uint64_t id : fresh) ASSERT_TRUE(reopened.TestU64(id));
}

// The query role on a large file (256 MiB): mapped, answering, and refusing every write.
TEST(Format, LargeFileQueryRole) {
  test::ScratchDir dir;
  const std::string path = dir.File("large.seen");
  const auto keys = test::Keys(100000, 0);
  {
    Bloom filter = Bloom::CreateBytes(10000000, uint64_t{256} << 20, 3);
    filter.AddU64(keys.data(), keys.size());
    Save(filter, path);
  }
  Bloom reader = Open(path, false, false);
  EXPECT_TRUE(reader.read_only());
  std::vector<uint8_t> out(keys.size());
  reader.ContainsU64(keys.data(), keys.size(), out.data());
  EXPECT_EQ(std::count(out.begin(), out.end(), 1), static_cast<long>(keys.size()));
  EXPECT_EQ(CodeOf([&] { reader.AddU64(keys.data(), 1); }), Code::kReadOnly);
  EXPECT_EQ(CodeOf([&] { reader.PutKey("x", 1); }), Code::kReadOnly);
  EXPECT_EQ(CodeOf([&] { reader.Merge(reader); }), Code::kReadOnly);
}

TEST(Format, ChangesReachTheFileOnFreeToo) {
  test::ScratchDir dir;
  const std::string path = dir.File("f.seen");
  Save(Sample(), path);
  { Open(path, true, true).PutU64(777); }
  EXPECT_TRUE(Open(path, false, true).TestU64(777));
}

TEST(Format, FailedSaveLeavesThePreviousFileIntact) {
  test::ScratchDir dir;
  const std::string path = dir.File("f.seen");
  const Bloom small = Sample();
  Save(small, path);
  const auto before = test::ReadBytes(path);
  // A real write failure: the file size limit makes write() fail with EFBIG partway.
  const Bloom big = Bloom::Create(1000000, 0.001, 1);
  struct rlimit old_limit;
  getrlimit(RLIMIT_FSIZE, &old_limit);
  signal(SIGXFSZ, SIG_IGN);
  struct rlimit low = old_limit;
  low.rlim_cur = before.size() + 4096;
  setrlimit(RLIMIT_FSIZE, &low);
  const Code code = CodeOf([&] { Save(big, path); });
  setrlimit(RLIMIT_FSIZE, &old_limit);
  signal(SIGXFSZ, SIG_DFL);
  EXPECT_EQ(code, Code::kIo);
  EXPECT_EQ(test::ReadBytes(path), before);
  EXPECT_EQ(Bytes(Open(path, false, true)), before);
  // No temporary file is left behind.
  int entries = 0;
  DIR* d = opendir(dir.path().c_str());
  while (dirent* e = readdir(d)) entries += e->d_name[0] != '.';
  closedir(d);
  EXPECT_EQ(entries, 1);
}

TEST(Format, SaveIntoAMissingDirectoryIsAnIoError) {
  EXPECT_EQ(CodeOf([&] { Save(Sample(), "/nonexistent-dir/f.seen"); }), Code::kIo);
  EXPECT_EQ(CodeOf([&] { Open("/nonexistent-dir/f.seen", false, true); }), Code::kIo);
}

TEST(Format, EveryHeaderFieldIsChecked) {
  const auto good = Bytes(Sample());
  auto parse = [](const std::vector<uint8_t>& b) {
    return CodeOf([&] { Deserialize(b.data(), b.size()); });
  };
  ASSERT_EQ(parse(good), Code::kOk);
  // Unsigned edits: magic and version are checked before the checksum, the rest by it.
  EXPECT_EQ(parse(WithField<uint8_t>(good, 0, 'X', false)), Code::kBadMagic);
  EXPECT_EQ(parse(WithField<uint8_t>(good, 7, 0, false)), Code::kBadMagic);
  EXPECT_EQ(parse(WithField<uint16_t>(good, 8, 2, false)), Code::kUnsupportedVersion);
  for (size_t offset = 10; offset < 128; ++offset) {
    if (offset >= 40 && offset < 48) continue;  // the payload checksum, checked below
    if (offset > 16 && offset < 24) continue;   // params_size: absurd before it is checkable
    auto bad = good;
    bad[offset] ^= 0x10;
    EXPECT_EQ(parse(bad), Code::kBadChecksum) << "byte " << offset;
  }
  EXPECT_EQ(parse(WithField<uint8_t>(good, 20, 1, false)), Code::kTooLarge);
  // Signed edits reach the field checks themselves.
  EXPECT_EQ(parse(WithField<uint16_t>(good, 10, 7, true)), Code::kOk) << "minor versions are compatible";
  EXPECT_EQ(parse(WithField<uint32_t>(good, 12, 2, true)), Code::kWrongKind);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 16, 1u << 20, false)), Code::kTooLarge);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 24, 100, true)), Code::kInconsistent);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 32, test::LoadU64(good, 32) - 64, true)), Code::kInconsistent);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 32, test::LoadU64(good, 32) + 64, true)), Code::kTruncated);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 32, ~uint64_t{0}, true)), Code::kTooLarge);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 48, 2, true)), Code::kInconsistent);  // an unknown flag bit
  EXPECT_EQ(parse(WithField<uint64_t>(good, 48, 1, true)), Code::kIncompatible);  // keyed: needs its key
  EXPECT_EQ(parse(WithField<uint64_t>(good, 64, test::LoadU64(good, 64) + 1, true)), Code::kInconsistent);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 64, uint64_t{1} << 50, true)), Code::kTooLarge);
  EXPECT_EQ(parse(WithField<uint64_t>(good, 64, 0, true)), Code::kTooLarge);
  EXPECT_EQ(parse(WithField<uint32_t>(good, 72, 0, true)), Code::kInconsistent);
  EXPECT_EQ(parse(WithField<uint32_t>(good, 72, 9, true)), Code::kInconsistent);
  EXPECT_EQ(parse(WithField<uint32_t>(good, 76, 2, true)), Code::kUnsupportedVersion);
}

TEST(Format, AbsurdSizesAllocateNothing) {
  // A 128-byte input claiming a 2^43-byte payload must be refused before any allocation:
  // under ASan an attempt would abort, here it would take seconds and gigabytes.
  auto good = Bytes(Sample());
  std::vector<uint8_t> head(good.begin(), good.begin() + 128);
  head = WithField<uint64_t>(head, 32, uint64_t{1} << 43, true);
  head = WithField<uint64_t>(head, 64, uint64_t{1} << 37, true);
  EXPECT_EQ(CodeOf([&] { Deserialize(head.data(), head.size()); }), Code::kTruncated);
}

TEST(Format, TruncationAtAnyLengthIsRefused) {
  const auto good = Bytes(Sample());
  for (size_t len = 0; len < good.size(); len += (len < 256 ? 1 : 509)) {
    const Code code = CodeOf([&] { Deserialize(good.data(), len); });
    ASSERT_TRUE(code == Code::kTruncated) << "length " << len << " gave " << static_cast<int>(code);
  }
  auto longer = good;
  longer.push_back(0);
  EXPECT_EQ(CodeOf([&] { Deserialize(longer.data(), longer.size()); }), Code::kInconsistent);
}

TEST(Format, PayloadBitFlipsFailTheChecksum) {
  const auto good = Bytes(Sample());
  for (size_t i = 128; i < good.size(); i += 97) {
    auto bad = good;
    bad[i] ^= static_cast<uint8_t>(1u << (i % 8));
    ASSERT_EQ(CodeOf([&] { Deserialize(bad.data(), bad.size()); }), Code::kBadChecksum) << i;
    // Skipping payload verification is the caller's explicit choice.
    ASSERT_EQ(CodeOf([&] { View(bad.data(), bad.size(), false); }), Code::kOk);
  }
}

TEST(Format, CorruptFileIsRefusedAtOpen) {
  test::ScratchDir dir;
  const std::string path = dir.File("f.seen");
  auto bytes = Bytes(Sample());
  bytes.resize(bytes.size() - 1000);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  EXPECT_EQ(CodeOf([&] { Open(path, false, true); }), Code::kTruncated);
  EXPECT_EQ(CodeOf([&] { Open(path, true, true); }), Code::kTruncated);
  // A read-write open that fails must not "repair" the file by resealing it.
  EXPECT_EQ(test::ReadBytes(path), bytes);
}

// The shared vectors (tests/bloom_vectors.h) on the best target this CPU has.
TEST(Format, SharedVectors) { EXPECT_GT(test::CheckBloomVectors(), 800); }

}  // namespace
}  // namespace seen
