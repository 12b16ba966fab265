// Where filter memory lands (core/region.h): from 2 MiB up, allocations and file mappings start
// on a 2 MiB boundary, or the kernel cannot back them with huge pages, and a random query pays
// a 4 KiB page-table walk (bench/results/spam.md). Smaller ones are plain mappings.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <vector>

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

// Linux 6.18 places large file mappings on a 2 MiB boundary by itself on ext4 and tmpfs, so
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

}  // namespace
}  // namespace seen
