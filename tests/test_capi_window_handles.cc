// A C window is one block, its handle and state together, with parameters shared by the
// windows made alike (capi/window_handle.h): what each takes from its allocator, and that
// windows made, used and freed on several threads at once, alike and not, keep their answers
// apart and give every byte back.
#define SEEN_EXPERIMENTAL  // seen_allocator, seen_window_get_bytes
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "seen.h"

namespace {

struct Counted {
  std::mutex lock;
  int64_t blocks = 0;
  int64_t bytes = 0;
};

void* CountedAlloc(void* opaque, size_t bytes) {
  auto* c = static_cast<Counted*>(opaque);
  auto* block = static_cast<size_t*>(std::malloc(bytes + 16));
  if (block == nullptr) return nullptr;
  block[0] = bytes;
  const std::lock_guard<std::mutex> hold(c->lock);
  c->blocks += 1;
  c->bytes += static_cast<int64_t>(bytes);
  return reinterpret_cast<char*>(block) + 16;
}

void CountedFree(void* opaque, void* p) {
  auto* c = static_cast<Counted*>(opaque);
  auto* block = reinterpret_cast<size_t*>(static_cast<char*>(p) - 16);
  {
    const std::lock_guard<std::mutex> hold(c->lock);
    c->blocks -= 1;
    c->bytes -= static_cast<int64_t>(block[0]);
  }
  std::free(block);
}

seen_window_options Count(uint32_t span, uint64_t seed) {
  seen_window_options o{};
  o.size = sizeof o;
  o.mode = SEEN_WINDOW_COUNT;
  o.span = span;
  o.fpr = 0.01;
  o.seed = seed;
  return o;
}

seen_window_options Time(uint32_t seconds) {
  seen_window_options o{};
  o.size = sizeof o;
  o.mode = SEEN_WINDOW_TIME;
  o.span = seconds;
  o.expected_items = 1000;
  o.fpr = 0.01;
  return o;
}

// Windows of every layout, 50 alike: each is one block of its state and 16 bytes
// (a growing one, and its growth vector), whatever the others hold.
TEST(WindowHandles, EachWindowIsOneBlockOfItsStateAndSixteenBytes) {
  Counted counted;
  const seen_allocator allocator{CountedAlloc, CountedFree, &counted};
  for (const seen_window_options& o : {Count(500, 1), Count(20000, 2), Time(3600)}) {
    std::vector<seen_window*> windows(50);
    for (seen_window*& w : windows) ASSERT_EQ(seen_window_create_with_allocator(&o, 0, &allocator, &w, nullptr), SEEN_OK);
    uint64_t state = 0;
    ASSERT_EQ(seen_window_get_bytes(windows[0], &state), SEEN_OK);
    EXPECT_EQ(counted.blocks, 50);
    const int64_t each = counted.bytes / 50;
    EXPECT_GE(each, static_cast<int64_t>(state) + 16);
    // A state of 4 KiB or more starts on a cache line; a window that grows has its vector.
    EXPECT_LE(each, static_cast<int64_t>(state) + 16 + 64 + 32) << "span " << o.span;
    for (seen_window* w : windows) seen_window_free(w);
    EXPECT_EQ(counted.blocks, 0);
    EXPECT_EQ(counted.bytes, 0);
  }
}

// Four threads make, fill, ask and free windows of three kinds, two of them alike: each
// window finds the last 200 of its own ids and (bar its false positives) none of another's.
TEST(WindowHandles, ThreadsMakingAndFreeingWindowsKeepThemApart) {
  Counted counted;
  const seen_allocator allocator{CountedAlloc, CountedFree, &counted};
  const seen_window_options kinds[3] = {Count(200, 7), Count(200, 7), Count(200, 8)};
  std::atomic<int> lost{0}, crossed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 10; ++round) {
        seen_window* w[3] = {};
        std::vector<uint64_t> ids[3];
        for (int k = 0; k < 3; ++k) {
          if (seen_window_create_with_allocator(&kinds[k], 0, (round + k) % 2 ? &allocator : nullptr, &w[k],
                                                nullptr) != SEEN_OK)
            return lost.fetch_add(1000000), void();
          for (uint64_t i = 0; i < 200; ++i) ids[k].push_back((uint64_t(t) << 40) | (uint64_t(round) << 20) | (k << 16) | i);
          seen_window_add_u64(w[k], ids[k].data(), ids[k].size(), 0);
        }
        for (int k = 0; k < 3; ++k) {
          std::vector<uint8_t> out(200);
          seen_window_contains_u64(w[k], ids[k].data(), 200, 0, out.data());
          for (uint8_t o : out) lost += o == 0;
          seen_window_contains_u64(w[k], ids[(k + 1) % 3].data(), 200, 0, out.data());
          for (uint8_t o : out) crossed += o;
        }
        for (seen_window* x : w) seen_window_free(x);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(lost.load(), 0);
  // 4 x 10 x 3 x 200 = 24,000 foreign ids asked; each ring of 200 16-bit fingerprints
  // answers one falsely with probability 0.3%: about 73, and far under 500.
  EXPECT_LT(crossed.load(), 500);
  EXPECT_EQ(counted.blocks, 0);
  EXPECT_EQ(counted.bytes, 0);
}

}  // namespace
