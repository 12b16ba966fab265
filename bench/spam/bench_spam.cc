// bench_spam: the 1-billion-address spam filter. For each budget (1 GiB and 2 GiB):
// build from generated addresses on T threads, save, open the file read-only (mapped) and as
// a copy in memory (both on 2 MiB huge pages where the kernel allows; it reports how much of
// the mapping was), measure the false-positive rate on addresses not in the set and batched
// query ns per key, next to the random-read floor over the same bytes. Prints one JSON object
// per line.
//
//   bench_spam [--keys N] [--absent N] [--threads T] [--exclusive] [--dir DIR]
// --exclusive builds on one thread with exclusive (plain-store) adds instead of T threads
// of atomic adds.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench/spam/addresses.h"
#include "core/block.h"
#include "core/region.h"
#define SEEN_EXPERIMENTAL  // seen_bloom_set_exclusive_adds
#include "seen.h"

namespace {

constexpr size_t kBatch = 4096;

template <class Body>
double Seconds(Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Addresses [first, first + n) packed as one data + offsets batch.
struct Batch {
  std::vector<char> data = std::vector<char>(kBatch * seen::spam::kMaxAddress + seen::spam::kWriteSlack);
  std::vector<uint64_t> offsets = std::vector<uint64_t>(kBatch + 1);

  void Fill(uint64_t first, size_t n) {
    char* at = data.data();
    for (size_t i = 0; i < n; ++i) {
      at = seen::spam::WriteAddress(first + i, at);
      offsets[i + 1] = static_cast<uint64_t>(at - data.data());
    }
    offsets.resize(n + 1);
  }
  const uint8_t* bytes() const { return reinterpret_cast<const uint8_t*>(data.data()); }
};

// Runs body(batch, begin, count) over [begin, end) in batches on `threads` threads.
template <class Body>
void Parallel(uint64_t begin, uint64_t end, unsigned threads, Body&& body) {
  std::atomic<uint64_t> next{begin};
  auto work = [&] {
    Batch batch;
    for (uint64_t at = next.fetch_add(kBatch); at < end; at = next.fetch_add(kBatch)) {
      const size_t n = static_cast<size_t>(std::min<uint64_t>(kBatch, end - at));
      batch.Fill(at, n);
      body(batch, n);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& thread : pool) thread.join();
}

uint64_t CountPositives(const seen_bloom* f, uint64_t begin, uint64_t end, unsigned threads) {
  std::atomic<uint64_t> positives{0};
  Parallel(begin, end, threads, [&](const Batch& batch, size_t n) {
    std::vector<uint8_t> out(n);
    seen_bloom_contains_keys(f, batch.bytes(), batch.offsets.data(), n, out.data());
    positives += static_cast<uint64_t>(std::count(out.begin(), out.end(), 1));
  });
  return positives;
}

// Batched query time per key on one thread, addresses prepared beforehand: one pass.
double QueryNs(const seen_bloom* f, const std::vector<Batch>& batches) {
  std::vector<uint8_t> out(kBatch);
  size_t keys = 0;
  const double s = Seconds([&] {
    for (const Batch& b : batches) {
      const size_t n = b.offsets.size() - 1;
      seen_bloom_contains_keys(f, b.bytes(), b.offsets.data(), n, out.data());
      keys += n;
    }
  });
  return 1e9 * s / static_cast<double>(keys);
}

double Median(std::vector<double> runs) {
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

// The floor: one random 64-byte read per key over `bytes`, prefetched 32 ahead, as the kernels
// do; the median of 5 passes.
double FloorNs(uint64_t bytes, uint64_t keys) {
  seen::Region buffer = seen::Region::Allocate(bytes);
  std::memset(buffer.data(), 1, bytes);
  const auto* words = reinterpret_cast<const uint64_t*>(buffer.data());
  std::vector<uint64_t> offsets(keys);
  uint64_t x = 42;
  for (auto& o : offsets) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    o = seen::BlockIndex(x, bytes / 64) * 8;
  }
  volatile uint64_t sink = 0;
  std::vector<double> runs;
  for (int pass = 0; pass < 5; ++pass) {
    const double s = Seconds([&] {
      uint64_t acc = 0;
      for (size_t i = 0; i < keys; ++i) {
        if (i + 32 < keys) __builtin_prefetch(words + offsets[i + 32]);
        acc ^= words[offsets[i]];
      }
      sink = acc;
    });
    runs.push_back(1e9 * s / static_cast<double>(keys));
  }
  return Median(runs);
}

// MiB of file mappings of this process the kernel maps with 2 MiB pages (0 where smaps_rollup
// has no such line).
uint64_t FileHugeMappedMib() {
  FILE* smaps = std::fopen("/proc/self/smaps_rollup", "r");
  if (smaps == nullptr) return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, smaps) != nullptr) {
    if (std::sscanf(line, "FilePmdMapped: %llu kB", &kib) == 1) break;
  }
  std::fclose(smaps);
  return kib / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t keys = 1000000000, absent = 100000000;
  unsigned threads = 2;
  bool exclusive = false;
  std::string dir = "/tmp";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--exclusive") {
      exclusive = true;
      continue;
    }
    if (i + 1 == argc) break;
    if (arg == "--keys") keys = static_cast<uint64_t>(std::stod(argv[i + 1]));
    else if (arg == "--absent") absent = static_cast<uint64_t>(std::stod(argv[i + 1]));
    else if (arg == "--threads") threads = static_cast<unsigned>(std::stoul(argv[i + 1]));
    else if (arg == "--dir") dir = argv[i + 1];
    ++i;
  }
  const uint64_t query_keys = std::min<uint64_t>(absent, 10000000);
  std::vector<Batch> queries(query_keys / kBatch);
  for (size_t b = 0; b < queries.size(); ++b) queries[b].Fill(keys + b * kBatch, kBatch);

  for (uint64_t gib : {1, 2}) {
    const uint64_t bytes = gib << 30;
    const std::string path = dir + "/seen-spam-" + std::to_string(gib) + "g.seen";
    seen_bloom* f = nullptr;
    if (seen_bloom_create_bytes(keys, bytes, 7, &f, nullptr) != SEEN_OK) {
      std::fprintf(stderr, "%s\n", seen_last_error());
      return 1;
    }
    seen_bloom_info params{};
    params.size = sizeof params;
    seen_bloom_get_info(f, &params);
    if (exclusive) seen_bloom_set_exclusive_adds(f, 1);
    const double build_s = Seconds([&] {
      Parallel(0, keys, exclusive ? 1 : threads, [&](const Batch& batch, size_t n) {
        seen_bloom_add_keys(f, batch.bytes(), batch.offsets.data(), n);
      });
    });
    const double save_s = Seconds([&] { seen_bloom_save(f, path.c_str()); });
    seen_bloom_free(f);

    seen_bloom* mapped = nullptr;
    const double open_s = Seconds([&] { seen_bloom_open(path.c_str(), SEEN_OPEN_READ_ONLY, &mapped, nullptr); });
    const uint64_t id = 1;
    const int refused = seen_bloom_add_u64(mapped, &id, 1) == SEEN_ERR_READ_ONLY;
    const uint64_t positives = CountPositives(mapped, keys, keys + absent, threads);
    seen_bloom* loaded = nullptr;
    seen_bloom_copy(mapped, &loaded);  // anonymous memory, 2 MiB aligned, MADV_HUGEPAGE
    // The two alternate, 5 passes each, so that a slow spell of this shared machine falls on both.
    std::vector<double> mapped_runs, loaded_runs;
    for (int round = 0; round < 5; ++round) {
      mapped_runs.push_back(QueryNs(mapped, queries));
      loaded_runs.push_back(QueryNs(loaded, queries));
    }
    const double mapped_ns = Median(mapped_runs), loaded_ns = Median(loaded_runs);
    const uint64_t mapped_huge_mib = FileHugeMappedMib();
    const double floor_ns = FloorNs(bytes, query_keys);
    std::printf("{\"budget_gib\": %llu, \"keys\": %llu, \"k\": %u, \"build_threads\": %u, \"build\": \"%s\", \"build_s\": %.2f, "
                "\"save_s\": %.2f, \"open_s\": %.2f, \"read_only_refuses_adds\": %s, \"absent\": %llu, "
                "\"fpr\": %.6f, \"query_mapped_ns\": %.2f, \"mapped_huge_mib\": %llu, \"query_hugepages_ns\": %.2f, "
                "\"floor_ns\": %.2f}\n",
                static_cast<unsigned long long>(gib), static_cast<unsigned long long>(keys), params.k,
                exclusive ? 1 : threads, exclusive ? "exclusive" : "atomic", build_s, save_s, open_s, refused ? "true" : "false", static_cast<unsigned long long>(absent),
                static_cast<double>(positives) / static_cast<double>(absent), mapped_ns,
                static_cast<unsigned long long>(mapped_huge_mib), loaded_ns, floor_ns);
    std::fflush(stdout);
    seen_bloom_free(loaded);
    seen_bloom_free(mapped);
    unlink(path.c_str());
  }
  return 0;
}
