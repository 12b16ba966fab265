// A window made with a WindowMemory (core/window_memory.h) takes every byte of its state and
// growth from it, through creation, growth (a table's rehash, a growing window's levels),
// copies and deserialization, and gives every byte back; WindowBytes (core/window_bytes.h),
// the buffer that holds them, keeps std::vector's contents and capacities.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <new>
#include <random>
#include <stdexcept>
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

// WindowBytes against std::vector<uint8_t> (libstdc++'s, whose capacities a store and the
// Redis module counted), through random operations: the same bytes, zeros where a resize
// adds them, the same capacity after each, and every block from the memory and given back.
TEST(WindowBytes, KeepsTheContentsAndCapacitiesOfAVector) {
  CountingMemory counted;
  std::mt19937_64 rng(7);
  auto below = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(rng() % n); };
  std::vector<uint8_t> source(10000);
  for (uint8_t& b : source) b = static_cast<uint8_t>(rng() | 1);  // no zero: a missed fill shows
  {
    const CacheLineAllocator<uint8_t> from(&counted.memory);
    WindowBytes bytes(from);
    std::vector<uint8_t> model;
    for (int step = 0; step < 3000; ++step) {
      const size_t n = below(6000), at = below(model.size() + 1), length = below(source.size() / 4);
      const uint8_t* range = source.data() + below(source.size() - length);
      switch (rng() % 9) {
        case 0: bytes.resize(n), model.resize(n); break;
        case 1: bytes.reserve(n), model.reserve(n); break;
        case 2:
          bytes.insert(bytes.begin() + at, range, range + length);
          model.insert(model.begin() + static_cast<std::ptrdiff_t>(at), range, range + length);
          break;
        case 3: bytes.assign(range, range + length), model.assign(range, range + length); break;
        case 4: {  // a copy is exact, and assigning it back keeps the capacity that holds it
          const WindowBytes copy = bytes;
          const std::vector<uint8_t> model_copy = model;
          ASSERT_EQ(copy.capacity(), model_copy.capacity());
          bytes = copy, model = model_copy;
          break;
        }
        case 5: {
          WindowBytes moved = std::move(bytes);
          std::vector<uint8_t> model_moved = std::move(model);
          bytes.swap(moved), model.swap(model_moved);
          break;
        }
        case 6: bytes.clear(), model.clear(); break;
        case 7: {  // the caller writes the new bytes
          const size_t old = bytes.size();
          bytes.resize_for_overwrite(n);
          if (n > old) std::fill(bytes.begin() + old, bytes.end(), 0xAB);
          model.resize(n, 0xAB);
          break;
        }
        default:
          bytes.resize(bytes.size() / 2), model.resize(model.size() / 2);  // the next growth refills
          break;
      }
      ASSERT_EQ(bytes.size(), model.size()) << "step " << step;
      ASSERT_EQ(bytes.capacity(), model.capacity()) << "step " << step;
      ASSERT_TRUE(std::equal(bytes.begin(), bytes.end(), model.begin())) << "step " << step;
      ASSERT_EQ(bytes.get_allocator().memory(), &counted.memory);
      if (bytes.capacity() >= 4096) {
        ASSERT_EQ(reinterpret_cast<uintptr_t>(bytes.data()) % 64, 0u);
      }
    }
    EXPECT_EQ(counted.live.size(), bytes.capacity() > 0 ? 1u : 0u);  // one block, or none
  }
  EXPECT_EQ(counted.LiveBytes(), 0u);
}

TEST(WindowBytes, ItsMemoryTravelsWithItsBytes) {
  CountingMemory one, other;
  const uint8_t some[3] = {1, 2, 3};
  WindowBytes a(some, some + 3, CacheLineAllocator<uint8_t>(&one.memory));
  WindowBytes b(5000, 0, CacheLineAllocator<uint8_t>(&other.memory));
  EXPECT_EQ(WindowBytes(a).get_allocator().memory(), &one.memory);  // a copy stays in its original's
  b = a;  // assignment takes the other's memory, and gives back the old block to its own
  EXPECT_EQ(b.get_allocator().memory(), &one.memory);
  EXPECT_EQ(other.LiveBytes(), 0u);
  EXPECT_EQ(b, a);
  WindowBytes c(CacheLineAllocator<uint8_t>(&other.memory));
  c = std::move(b);
  EXPECT_EQ(c.get_allocator().memory(), &one.memory);
  EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): moved from, as a vector, empty
  {
    const WindowMemoryScope scope(&other.memory);
    WindowBytes scoped(100);  // no allocator: the scope's, as a vector's would be
    EXPECT_EQ(scoped.get_allocator().memory(), &other.memory);
    EXPECT_EQ(other.LiveBytes(), 100u);
    for (uint8_t byte : scoped) ASSERT_EQ(byte, 0);
  }
  EXPECT_EQ(other.LiveBytes(), 0u);
  // An empty buffer holds no block.
  EXPECT_EQ(WindowBytes(CacheLineAllocator<uint8_t>(&other.memory)).data(), nullptr);
  WindowBytes none(size_t{0}, 0, CacheLineAllocator<uint8_t>(&other.memory));
  EXPECT_TRUE(other.live.empty());
}

// Every way to a size past PTRDIFF_MAX is refused as std::vector refuses it, before the
// memory is asked, and the bytes stay as they were (assign and the sized constructor used to
// ask the memory for the size, and got bad_alloc from it, or would have got a block).
TEST(WindowBytes, SizesPastPtrdiffMaxAreRefusedBeforeTheMemoryIsAsked) {
  CountingMemory counted;
  const CacheLineAllocator<uint8_t> alloc(&counted.memory);
  const size_t absurd = size_t{PTRDIFF_MAX} + 1;
  WindowBytes bytes(3, 7, alloc);
  const WindowBytes before = bytes;
  const size_t live = counted.LiveBytes();
  EXPECT_THROW(bytes.assign(absurd, 0), std::length_error);
  EXPECT_THROW(bytes.resize(absurd), std::length_error);
  EXPECT_THROW(bytes.resize_for_overwrite(SIZE_MAX), std::length_error);
  EXPECT_THROW(bytes.reserve(absurd), std::length_error);
  EXPECT_THROW(WindowBytes(absurd, 0, alloc), std::length_error);
  EXPECT_EQ(bytes, before);
  EXPECT_EQ(bytes.capacity(), 3u);
  EXPECT_EQ(counted.LiveBytes(), live);
}

}  // namespace
}  // namespace seen
