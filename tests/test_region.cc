// Where filter memory lands (core/region.h): from 2 MiB up, allocations and file mappings start
// on a 2 MiB boundary, or the kernel cannot back them with huge pages, and a random query pays
// a 4 KiB page-table walk (bench/results/spam.md). Smaller ones are plain mappings.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/file.h"
#include "core/region.h"
#include "tests/support.h"

namespace seen {
namespace {

constexpr uint64_t kHugePage = uint64_t{2} << 20;

bool HugeAligned(const uint8_t* p) { return reinterpret_cast<uintptr_t>(p) % kHugePage == 0; }

// Sizes that are not whole huge pages, so the kernel's own alignment of large anonymous
// mappings (which needs a length in whole huge pages) cannot pass the test for us.
constexpr uint64_t kSizes[] = {kHugePage + 4096, 5 * kHugePage + 192, 9 * kHugePage - 64};

TEST(Region, AllocationsFrom2MiBStartOnAHugePage) {
  for (uint64_t bytes : kSizes) {
    Region region = Region::Allocate(bytes);
    EXPECT_TRUE(HugeAligned(region.data())) << bytes;
    ASSERT_EQ(region.size(), bytes);
    // All of it is mapped, zeroed and writable, to the last byte.
    EXPECT_EQ(region.data()[0], 0);
    EXPECT_EQ(region.data()[bytes - 1], 0);
    region.data()[bytes - 1] = 7;
    EXPECT_EQ(region.data()[bytes - 1], 7);
  }
}

TEST(Region, SmallAllocationsWork) {
  Region region = Region::Allocate(100);
  ASSERT_EQ(region.size(), 100u);
  region.data()[99] = 1;
  EXPECT_EQ(region.data()[99], 1);
}

// Linux 6.18 places large file mappings on a 2 MiB boundary by itself on ext4, so
// here this holds MapFile to the mapping's contents more than to its alignment; kernels and
// file systems that place file mappings anywhere rely on MapHugeAligned for it.
TEST(Region, FileMappingsFrom2MiBStartOnAHugePage) {
  const test::ScratchDir dir;
  for (uint64_t bytes : kSizes) {
    std::vector<char> contents(bytes);
    for (uint64_t i = 0; i < bytes; ++i) contents[i] = static_cast<char>(i * 31 + 5);
    const std::string path = dir.File("mapped-" + std::to_string(bytes));
    std::ofstream(path, std::ios::binary).write(contents.data(), static_cast<std::streamsize>(bytes));
    for (bool writable : {false, true}) {
      Region file = MapFile(path, writable, /*populate=*/false);
      EXPECT_TRUE(HugeAligned(file.data())) << bytes;
      ASSERT_EQ(file.size(), bytes);
      // The mapping shows the file from its first byte to its last.
      EXPECT_EQ(file.data()[0], static_cast<uint8_t>(contents[0]));
      EXPECT_EQ(file.data()[bytes / 2], static_cast<uint8_t>(contents[bytes / 2]));
      EXPECT_EQ(file.data()[bytes - 1], static_cast<uint8_t>(contents[bytes - 1]));
    }
  }
}

// KiB of the mapping that holds `p` which the kernel maps with 2 MiB pages (FilePmdMapped of
// its /proc/self/smaps entry), after reading a byte of every 2 MiB of it.
uint64_t HugeMappedKib(const uint8_t* p, uint64_t bytes) {
  volatile uint8_t sink = 0;
  for (uint64_t at = 0; at < bytes; at += kHugePage) sink = sink + p[at];
  FILE* smaps = std::fopen("/proc/self/smaps", "r");
  if (smaps == nullptr) return 0;
  char line[512];
  bool inside = false;
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, smaps) != nullptr) {
    unsigned long long start = 0, end = 0;
    if (std::sscanf(line, "%llx-%llx ", &start, &end) == 2) {
      const auto at = reinterpret_cast<uintptr_t>(p);
      inside = start <= at && at < end;
    } else if (inside && std::sscanf(line, "FilePmdMapped: %llu kB", &kib) == 1) {
      break;
    }
  }
  std::fclose(smaps);
  return kib;
}

// A saved filter maps with 2 MiB pages wherever a file written in large aligned pieces does:
// the save's writes let the page cache hold it in 2 MiB folios. Where even such a file gets
// none (a kernel or file system without large folios), there is nothing to hold the save to.
TEST(Region, SavedFiltersMapWithHugePagesWhereTheFileSystemCan) {
  const test::ScratchDir dir;
  constexpr uint64_t kBytes = 16 * kHugePage;
  const std::string probe = dir.File("aligned-writes");
  {
    std::vector<char> chunk(2 * kHugePage, 1);
    std::ofstream out(probe, std::ios::binary);
    for (uint64_t at = 0; at < kBytes; at += chunk.size()) out.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  }
  const Region reference = MapFile(probe, /*writable=*/false, /*populate=*/false);
  const uint64_t reference_kib = HugeMappedKib(reference.data(), reference.size());
  if (reference_kib == 0) {
    GTEST_SKIP() << "no 2 MiB pages for a file written in 4 MiB pieces under " << dir.path();
  }
  Bloom filter = Bloom::CreateBytes(1000000, kBytes, 7);
  const std::vector<uint64_t> keys = test::Keys(1000, 3);
  filter.AddU64(keys.data(), keys.size());
  const std::string path = dir.File("filter.seen");
  Save(filter, path);
  const Region file = MapFile(path, /*writable=*/false, /*populate=*/false);
  // At least half of what the reference file got: all of it but the first 2 MiB (written in
  // two pieces, the payload's first and the header) when memory is not fragmented, and room
  // for a kernel short of free 2 MiB blocks at the time. Writes of 1 MiB give none.
  EXPECT_GE(HugeMappedKib(file.data(), file.size()), reference_kib / 2);
}

}  // namespace
}  // namespace seen
