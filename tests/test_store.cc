// The exposure store: users appear on first write, filter/mark/take keep the window's
// promises per user, take is atomic, idle users and the memory bound evict, files round-trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/store.h"
#include "tests/support.h"
#include "tests/vector_file.h"

namespace seen {
namespace {

StoreOptions Options(uint32_t n = 500, double fpr = 0.01) {
  StoreOptions o;
  o.window = SizeCountWindow(n, fpr, 0.25, 11);
  o.expected_users = 1000;
  return o;
}

uint64_t Unseen(const Store& s, uint64_t user, const std::vector<uint64_t>& items, uint32_t now) {
  std::vector<uint8_t> out(items.size());
  s.Filter(user, items.data(), items.size(), now, out.data());
  uint64_t c = 0;
  for (uint8_t x : out) c += x;
  return c;
}

TEST(Store, UnknownUsersHaveSeenNothing) {
  Store s(Options());
  const auto items = test::Keys(1000, 0);
  EXPECT_EQ(Unseen(s, 1, items, 0), items.size());
  EXPECT_EQ(s.Stats().users, 0u);
}

TEST(Store, EveryUserKeepsTheirLastItems) {
  Store s(Options(200));
  const auto items = test::Keys(300 * 200, 0);
  // 300 users, 200 items each, interleaved in small batches.
  for (uint64_t round = 0; round < 20; ++round) {
    for (uint64_t user = 0; user < 300; ++user) {
      s.Mark(user, items.data() + user * 200 + round * 10, 10, 1000);
    }
  }
  EXPECT_EQ(s.Stats().users, 300u);
  for (uint64_t user = 0; user < 300; ++user) {
    std::vector<uint64_t> mine(items.begin() + user * 200, items.begin() + (user + 1) * 200);
    ASSERT_EQ(Unseen(s, user, mine, 1000), 0u) << "user " << user;
  }
  const auto never = test::Keys(10000, 1);
  EXPECT_LE(Unseen(s, 5, never, 1000), 10000u);
  EXPECT_GE(Unseen(s, 5, never, 1000), 9850u);
}

TEST(Store, TakePicksUnseenInOrderAndMarksThem) {
  Store s(Options());
  std::vector<uint64_t> candidates = {10, 11, 12, 10, 13, 14, 15, 16};
  s.Mark(7, &candidates[1], 1, 0);  // 11 was shown already
  std::vector<uint64_t> taken(8);
  ASSERT_EQ(s.Take(7, candidates.data(), candidates.size(), 3, 0, taken.data()), 3u);
  EXPECT_EQ(std::vector<uint64_t>(taken.begin(), taken.begin() + 3), (std::vector<uint64_t>{10, 12, 13}));
  ASSERT_EQ(s.Take(7, candidates.data(), candidates.size(), 10, 0, taken.data()), 3u);
  EXPECT_EQ(std::vector<uint64_t>(taken.begin(), taken.begin() + 3), (std::vector<uint64_t>{14, 15, 16}));
  EXPECT_EQ(s.Take(7, candidates.data(), candidates.size(), 10, 0, taken.data()), 0u);
}

// Two threads paging one user's feed at once never get the same item.
TEST(Store, ConcurrentTakesNeverShareAnItem) {
  Store s(Options(5000, 0.001));
  const auto candidates = test::Keys(4000, 0);
  std::vector<uint64_t> a, b;
  auto page = [&](std::vector<uint64_t>& got) {
    std::vector<uint64_t> taken(20);
    for (int i = 0; i < 100; ++i) {
      const size_t n = s.Take(42, candidates.data(), candidates.size(), 20, 0, taken.data());
      got.insert(got.end(), taken.begin(), taken.begin() + n);
    }
  };
  std::thread first(page, std::ref(a)), second(page, std::ref(b));
  first.join();
  second.join();
  std::set<uint64_t> all(a.begin(), a.end());
  EXPECT_EQ(all.size(), a.size());
  for (uint64_t item : b) ASSERT_FALSE(all.count(item)) << item;
  EXPECT_GT(a.size() + b.size(), 3500u);
}

TEST(Store, IdleUsersExpire) {
  StoreOptions o = Options();
  o.idle_timeout = 24 * 3600;
  Store s(o);
  const uint64_t item = 99;
  s.Mark(1, &item, 1, 0);
  s.Mark(2, &item, 1, 0);
  s.Mark(2, &item, 1, 20 * 3600);
  EXPECT_EQ(s.Expire(26 * 3600), 1u);  // user 1 idle 26 h; user 2 only 6 h
  EXPECT_EQ(s.Stats().users, 1u);
  EXPECT_EQ(s.Stats().expirations, 1u);
  EXPECT_EQ(Unseen(s, 2, {item}, 26 * 3600), 0u);
  // Idle past the timeout reads as a new user even before a sweep.
  EXPECT_EQ(Unseen(s, 2, {item}, 50 * 3600), 1u);
}

// Resident anonymous memory of this process, from /proc (kB there).
uint64_t ResidentAnonBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("RssAnon:", 0) == 0) return std::stoull(line.substr(8)) * 1024;
  }
  return 0;
}

// After a sweep drops most users, resident memory follows the users still live: the bound is
// twice their stats.bytes, plus 8 MiB for the allocator and page granularity (64 shards).
void ExpiryGivesMemoryBack(StoreOptions o, uint64_t users, uint64_t live, size_t items_per_user) {
  o.idle_timeout = 3600;
  o.expected_users = 1000;
  const uint64_t before = ResidentAnonBytes();
  if (before == 0) GTEST_SKIP() << "no RssAnon in /proc/self/status";
  Store s(o);
  const auto items = test::Keys(items_per_user, 5);
  for (uint64_t u = live; u < users; ++u) s.Mark(u, items.data(), items.size(), 0);
  for (uint64_t u = 0; u < live; ++u) s.Mark(u, items.data(), items.size(), 7200);
  const uint64_t full = ResidentAnonBytes() - before;
  EXPECT_GT(full, users * o.window.state_bytes()) << "the windows were written";
  EXPECT_EQ(s.Expire(7200), users - live);
  const StoreStats stats = s.Stats();
  const uint64_t after = ResidentAnonBytes() - std::min(before, ResidentAnonBytes());
  EXPECT_LE(after, 2 * stats.bytes + (8u << 20))
      << "resident " << after << " B for " << stats.users << " users holding " << stats.bytes << " B";
  // The survivors and newcomers still work after the trim.
  EXPECT_EQ(Unseen(s, 1, items, 7200), 0u);
  s.Mark(users + 1, items.data(), items.size(), 7200);
  EXPECT_EQ(Unseen(s, users + 1, items, 7200), 0u);
}

TEST(Store, ExpiryGivesMemoryBackToTheSystem) { ExpiryGivesMemoryBack(Options(), 100000, 5000, 20); }

// Growing time windows: each user's 400 items take their window well past its start, so
// most of the memory is growth, which goes back to malloc and from there to the system.
TEST(Store, ExpiryGivesGrowthBackToTheSystem) {
#ifdef SEEN_ASAN
  GTEST_SKIP() << "AddressSanitizer's allocator quarantines freed memory: malloc_trim cannot return it";
#endif
  StoreOptions o;
  o.window = SizeTimeWindow(3600, 100, 0.01, 0.25, 11, 0);
  ExpiryGivesMemoryBack(o, 20000, 1000, 400);
}

TEST(Store, MemoryBoundEvictsTheIdleFirstAndCounts) {
  StoreOptions o = Options(100);
  const uint64_t per_user = o.window.state_bytes() + 10;
  o.max_bytes = 64 * (50 * per_user + 4096);  // about 50 users a shard, beside the index
  Store s(o);
  const auto items = test::Keys(100, 0);
  for (uint64_t user = 0; user < 20000; ++user) s.Mark(user, items.data(), 10, static_cast<uint32_t>(user) * 60);
  const StoreStats stats = s.Stats();
  EXPECT_GT(stats.evictions, 0u);
  EXPECT_LE(stats.bytes, o.max_bytes);
  EXPECT_EQ(stats.users + stats.evictions, 20000u);
  // The newest users are all there.
  for (uint64_t user = 19990; user < 20000; ++user) EXPECT_EQ(Unseen(s, user, {items[3]}, 20000 * 60), 0u);
}

TEST(Store, SaveAndOpen) {
  test::ScratchDir dir;
  const std::string path = dir.File("store.seen");
  Store s(Options(300));
  const auto items = test::Keys(3000, 0);
  for (uint64_t user = 0; user < 1000; ++user) s.Mark(user * 7919, items.data() + user % 2000, 300, 5000);
  s.Save(path);
  for (bool writable : {false, true}) {
    Store back = Store::Open(path, writable, true);
    EXPECT_EQ(back.Stats().users, 1000u);
    for (uint64_t user = 0; user < 1000; user += 37) {
      std::vector<uint64_t> mine(items.begin() + user % 2000, items.begin() + user % 2000 + 300);
      ASSERT_EQ(Unseen(back, user * 7919, mine, 5000), 0u);
    }
    const uint64_t fresh = 123456789;
    if (writable) {
      back.Mark(3, &fresh, 1, 5000);
      EXPECT_EQ(Unseen(back, 3, {fresh}, 5000), 0u);
    } else {
      EXPECT_THROW(back.Mark(3, &fresh, 1, 5000), Error);
    }
  }
  // A write to the reopened store did not reach the file: only Save writes.
  EXPECT_EQ(Unseen(Store::Open(path, false, true), 3, {123456789}, 5000), 1u);
}

TEST(Store, CorruptFilesAreRefused) {
  test::ScratchDir dir;
  const std::string path = dir.File("store.seen");
  Store s(Options(100));
  const auto items = test::Keys(100, 0);
  for (uint64_t user = 0; user < 200; ++user) s.Mark(user, items.data(), 100, 0);
  s.Save(path);
  auto bytes = test::ReadBytes(path);
  auto write = [&](const std::vector<uint8_t>& b) {
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), b.size());
  };
  auto code = [&] {
    try {
      Store::Open(path, false, true);
    } catch (const Error& e) {
      return e.code();
    }
    return Code::kOk;
  };
  auto flipped = bytes;
  flipped[bytes.size() / 2] ^= 4;
  write(flipped);
  EXPECT_EQ(code(), Code::kBadChecksum);
  write(std::vector<uint8_t>(bytes.begin(), bytes.end() - 100));
  EXPECT_EQ(code(), Code::kTruncated);
  write(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 10));
  EXPECT_EQ(code(), Code::kTruncated);
  bytes[0] = 'x';
  write(bytes);
  EXPECT_EQ(code(), Code::kBadMagic);
}

}  // namespace
}  // namespace seen
