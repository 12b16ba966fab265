// Snapshots racing writers: how many saves a probe makes, and the race itself. Shared by the
// probes of tests/test_snapshot.cc and tests/test_snapshot_indexes.cc.
#pragma once

#include <atomic>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>

namespace seen::test {

// Saves per kind from SEEN_SNAPSHOT_SAVES (default 30, kept short for CI; the bench figure of
// bench/results/reliability.md runs 1,000).
inline int Saves() {
  const char* env = std::getenv("SEEN_SNAPSHOT_SAVES");
  return env != nullptr ? std::atoi(env) : 30;
}

// Runs `writers` threads calling write(thread, round) until the saves end; save(i) makes the
// i-th snapshot and checks it.
inline void Race(int writers, const std::function<void(int, uint64_t)>& write, const std::function<void(int)>& save) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < writers; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t round = 0; !stop.load(std::memory_order_relaxed); ++round) write(t, round);
    });
  }
  for (int i = 0; i < Saves(); ++i) save(i);
  stop = true;
  for (std::thread& thread : threads) thread.join();
}

}  // namespace seen::test
