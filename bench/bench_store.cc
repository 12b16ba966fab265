// bench_store: the exposure store at scale. Fills a store with U users (N = 500, 1%), each
// shown `marks` items, then measures the process RSS, a recall request (filter 10,000
// candidates, then mark the 20 the feed shows), save, and reopen with and without the
// payload checksum. Prints one JSON object per line.
//
//   bench_store [--users U] [--marks M] [--file PATH]
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/splitmix.h"
#include "core/store.h"

namespace {

double RssGiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / (1024.0 * 1024.0);
  }
  return 0;
}

template <class Body>
double Seconds(Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t users = 10000000, marks = 100;
  std::string path = "/tmp/seen-bench-store.seen";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--users") users = static_cast<uint64_t>(std::stod(argv[i + 1]));
    else if (arg == "--marks") marks = static_cast<uint64_t>(std::stod(argv[i + 1]));
    else if (arg == "--file") path = argv[i + 1];
  }
  seen::StoreOptions options;
  options.window = seen::SizeCountWindow(500, 0.01, 0.25, 1);
  options.expected_users = users;
  const double rss_before = RssGiB();
  seen::Store store(options);
  std::vector<uint64_t> items(marks);
  const double fill_s = Seconds([&] {
    for (uint64_t user = 0; user < users; ++user) {
      for (uint64_t j = 0; j < marks; ++j) items[j] = seen::SplitMix64(user * marks + j);
      store.Mark(user, items.data(), marks, 1000);
    }
  });
  const seen::StoreStats stats = store.Stats();
  std::printf("{\"bench\": \"store_fill\", \"users\": %llu, \"marks_per_user\": %llu, \"seconds\": %.2f, "
              "\"rss_gib\": %.3f, \"store_bytes\": %llu, \"bytes_per_user\": %.1f, \"window_bytes\": %llu}\n",
              static_cast<unsigned long long>(users), static_cast<unsigned long long>(marks), fill_s,
              RssGiB() - rss_before, static_cast<unsigned long long>(stats.bytes),
              static_cast<double>(stats.bytes) / users,
              static_cast<unsigned long long>(options.window.state_bytes()));
  std::fflush(stdout);

  // Recall requests on random users: filter 10,000 candidates, then mark the 20 shown.
  constexpr size_t kCandidates = 10000, kShown = 20;
  std::vector<uint64_t> candidates(kCandidates);
  std::vector<uint8_t> unseen(kCandidates);
  std::vector<double> micros;
  for (int r = 0; r < 2000; ++r) {
    const uint64_t user = seen::SplitMix64(r) % users;
    for (size_t j = 0; j < kCandidates; ++j) candidates[j] = seen::SplitMix64((uint64_t{1} << 62) + r * kCandidates + j);
    micros.push_back(1e6 * Seconds([&] {
      store.Filter(user, candidates.data(), kCandidates, 1000, unseen.data());
      store.Mark(user, candidates.data(), kShown, 1000);
    }));
  }
  std::sort(micros.begin(), micros.end());
  std::printf("{\"bench\": \"store_request\", \"candidates\": %zu, \"median_us\": %.2f, \"p99_us\": %.2f}\n",
              kCandidates, micros[micros.size() / 2], micros[micros.size() * 99 / 100]);
  std::fflush(stdout);

  const double save_s = Seconds([&] { store.Save(path); });
  std::printf("{\"bench\": \"store_save\", \"seconds\": %.2f}\n", save_s);
  std::fflush(stdout);
  for (bool verify : {false, true}) {
    const double open_s = Seconds([&] {
      seen::Store reopened = seen::Store::Open(path, false, verify);
      if (reopened.Stats().users != stats.users) std::fprintf(stderr, "reopen lost users\n");
    });
    std::printf("{\"bench\": \"store_reopen\", \"verify\": %s, \"seconds\": %.2f}\n", verify ? "true" : "false",
                open_s);
    std::fflush(stdout);
  }
  unlink(path.c_str());
  return 0;
}
