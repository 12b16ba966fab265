// A window made with a WindowMemory (core/window_memory.h) takes every byte of its state and
// growth from it, through creation, growth (a table's rehash, a growing window's levels),
// copies and deserialization, and gives every byte back.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>
#include <vector>

#include "core/window.h"
#include "core/window_codec.h"

namespace seen {
namespace {

// Counts the bytes it hands out and fails the test on a free of anything it did not.
struct CountingMemory {
  std::map<void*, size_t> live;
  size_t refuse_from = SIZE_MAX;  // allocations of this many bytes or more return null

  static void* Alloc(void* self, size_t bytes) {
    auto* m = static_cast<CountingMemory*>(self);
    if (bytes >= m->refuse_from) return nullptr;
    void* p = std::malloc(bytes);
    m->live[p] = bytes;
    return p;
  }
  static void Free(void* self, void* p) {
    auto* m = static_cast<CountingMemory*>(self);
    ASSERT_EQ(m->live.erase(p), 1u) << "freed a block it did not allocate";
    std::free(p);
  }
  size_t LiveBytes() const {
    size_t sum = 0;
    for (const auto& block : live) sum += block.second;
    return sum;
  }
  WindowMemory memory{Alloc, Free, this};
};

std::vector<uint64_t> Items(size_t n) {
  std::vector<uint64_t> items(n);
  for (uint64_t i = 0; i < n; ++i) items[i] = i * 0x9E3779B97F4A7C15ULL + 1;
  return items;
}

// Everything the window holds comes from the memory: its vectors carry it, and it handed out
// at least their bytes; blocks of 4 KiB and more sit on cache lines.
void ExpectAllFrom(const Window& w, const CountingMemory& counted) {
  EXPECT_EQ(w.state.get_allocator().memory(), &counted.memory);
  EXPECT_EQ(w.growth.get_allocator().memory(), &counted.memory);
  EXPECT_GE(counted.LiveBytes(), w.state.capacity() + w.growth.capacity());
  if (w.growth.size() >= 4096) {
    EXPECT_EQ(reinterpret_cast<uintptr_t>(w.growth.data()) % 64, 0u);
  }
}

struct Case {
  const char* name;
  WindowParams params;
};

std::vector<Case> Cases() {
  return {{"ring", SizeCountWindow(500, 0.01, 0.25, 1)},
          {"sliced", SizeCountWindow(100000, 0.01, 0.25, 2)},
          {"table", SizeTimeWindow(86400, 1000, 0.01, 0.25, 3, 0)},
          {"growing", SizeGrowingTimeWindow(3600, 100, 0.01, 0.25, 4, 0)}};
}

TEST(WindowMemory, EveryLayoutTakesItsBytesFromItAndGivesThemBack) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    CountingMemory counted;
    {
      Window w = Window::Create(c.params, 0, &counted.memory);
      ExpectAllFrom(w, counted);
      const std::vector<uint64_t> items = Items(200000);
      for (size_t i = 0; i < items.size(); i += 1000) {
        w.AddU64(items.data() + i, 1000, static_cast<uint32_t>(i / 100));
      }
      ExpectAllFrom(w, counted);  // a table's rehash and a growing window's levels too
      const Window copy = w;
      ExpectAllFrom(copy, counted);
      const std::vector<uint8_t> bytes = SerializeWindow(w);
      const Window back = DeserializeWindow(bytes.data(), bytes.size(), std::nullopt, &counted.memory);
      ExpectAllFrom(back, counted);
      EXPECT_EQ(back.state, w.state);
      EXPECT_EQ(back.growth, w.growth);
    }
    EXPECT_EQ(counted.LiveBytes(), 0u);
  }
}

TEST(WindowMemory, GrowthThatTheMemoryRefusesThrowsAndLeavesTheWindowWhole) {
  CountingMemory counted;
  Window w = Window::Create(SizeTimeWindow(86400, 1000, 0.01, 0.25, 3, 0), 0, &counted.memory);
  const std::vector<uint64_t> items = Items(20000);
  w.AddU64(items.data(), 1000, 0);
  counted.refuse_from = 4096;
  EXPECT_THROW(w.AddU64(items.data() + 1000, items.size() - 1000, 0), std::bad_alloc);
  std::vector<uint8_t> found(1000);
  w.ContainsU64(items.data(), 1000, 0, found.data());
  for (uint8_t f : found) ASSERT_EQ(f, 1);  // what was added before stays found
}

TEST(WindowMemory, WithoutOneTheHeapIsUsedAsBefore) {
  Window w = Window::Create(SizeTimeWindow(86400, 1000, 0.01, 0.25, 3, 0), 0);
  const std::vector<uint64_t> items = Items(50000);
  w.AddU64(items.data(), items.size(), 0);
  EXPECT_EQ(w.growth.get_allocator().memory(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(w.growth.data()) % 64, 0u);
}

}  // namespace
}  // namespace seen
