// bench_single_key: what one key costs through the C API (issue 15), beside the batch paths
// and the random-read floor of the same run: single contains (seen_bloom_contains_one_u64, and
// seen_bloom_contains_u64 with 1 and 8 keys per call, and batches of 16-byte keys), single
// puts, and adds in calls of 1,
// 8, 64 and all keys, thread-safe and exclusive, and from two threads at once. Calls of few
// keys run over the first --calls keys (all of them at most), on the full-size filter.
// Prints one JSON object per line: elapsed and CPU ns per key, and the CPU ratio to the
// floor (CPU time leaves out waits for a core on a shared machine).
//
//   bench_single_key --keys N [--calls M] [--reps R]
#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#define SEEN_EXPERIMENTAL  // seen_bloom_set_exclusive_adds
#include "seen.h"
#include "bench/bench_support.h"
#include "core/splitmix.h"

namespace {

using seen::bench::Measure;
using seen::bench::Timing;

constexpr double kFpr = 0.01;

struct Run {
  uint64_t keys;
  uint64_t bytes;
  Timing floor;

  void Report(const std::string& name, Timing t) const {
    std::printf("{\"bench\": \"%s\", \"keys\": %llu, \"bytes\": %llu, \"ns_per_key\": %.4f, "
                "\"cpu_ns_per_key\": %.4f, \"cpu_floor_ratio\": %.3f}\n",
                name.c_str(), static_cast<unsigned long long>(keys),
                static_cast<unsigned long long>(bytes), t.wall_ns, t.cpu_ns, t.cpu_ns / floor.cpu_ns);
    std::fflush(stdout);
  }
};

// Thread-safe batched adds of the keys, split between two threads adding at once.
void AddFromTwoThreads(seen_bloom* f, const std::vector<uint64_t>& ids) {
  const size_t half = ids.size() / 2;
  std::thread other([&] { seen_bloom_add_u64(f, ids.data() + half, ids.size() - half); });
  seen_bloom_add_u64(f, ids.data(), half);
  other.join();
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t n = 1000000, calls = 4000000;
  int reps = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--keys" && i + 1 < argc) n = static_cast<uint64_t>(std::stod(argv[++i]));
    else if (arg == "--calls" && i + 1 < argc) calls = static_cast<uint64_t>(std::stod(argv[++i]));
    else if (arg == "--reps" && i + 1 < argc) reps = std::stoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: bench_single_key --keys N [--calls M] [--reps R]\n");
      return 2;
    }
  }
  calls = std::min(calls, n);
  std::vector<uint64_t> present(n), absent(n);
  for (uint64_t i = 0; i < n; ++i) {
    present[i] = seen::SplitMix64(2 * i);
    absent[i] = seen::SplitMix64(2 * i + 1);
  }
  std::vector<uint8_t> out(n);
  seen_bloom* f = nullptr;
  if (seen_bloom_create(n, kFpr, 1, &f, nullptr) != SEEN_OK) {
    std::fprintf(stderr, "create: %s\n", seen_last_error());
    return 1;
  }
  seen_bloom_info params{};
  params.size = sizeof params;
  seen_bloom_get_info(f, &params);
  const Run run{n, params.bytes, seen::bench::Floor(params.bytes, present, reps)};
  run.Report("floor_random_read", run.floor);

  // Adds: every rep starts from an emptied filter, so each add really sets bits.
  const auto clear = [&] { seen_bloom_clear(f); };
  for (const bool exclusive : {false, true}) {
    seen_bloom_set_exclusive_adds(f, exclusive ? 1 : 0);
    const std::string mode = exclusive ? "_exclusive" : "_thread_safe";
    for (const uint64_t per_call : {uint64_t{1}, uint64_t{8}, uint64_t{64}, n}) {
      const uint64_t keys = per_call == n ? n : calls;
      run.Report("add_" + (per_call == n ? std::string("batched") : std::to_string(per_call) + "_per_call") + mode,
                 Measure(reps, keys, [&] {
                   for (uint64_t i = 0; i < keys; i += per_call) {
                     seen_bloom_add_u64(f, present.data() + i, std::min(per_call, keys - i));
                   }
                 }, clear));
    }
    run.Report("put_single" + mode, Measure(reps, calls, [&] {
                 for (uint64_t i = 0; i < calls; ++i) seen_bloom_add_one_u64(f, present[i], nullptr);
               }, clear));
  }
  seen_bloom_set_exclusive_adds(f, 0);
  run.Report("add_batched_thread_safe_2_threads", Measure(reps, n, [&] { AddFromTwoThreads(f, present); }, clear));

  // Queries of absent keys (about 1% say yes) in a filled filter.
  seen_bloom_add_u64(f, present.data(), n);
  for (const uint64_t per_call : {uint64_t{1}, uint64_t{8}, n}) {
    const uint64_t keys = per_call == n ? n : calls;
    run.Report("contains_" + (per_call == n ? std::string("batched") : std::to_string(per_call) + "_per_call"),
               Measure(reps, keys, [&] {
                 for (uint64_t i = 0; i < keys; i += per_call) {
                   seen_bloom_contains_u64(f, absent.data() + i, std::min(per_call, keys - i), out.data() + i);
                 }
               }));
  }
  // The same absent keys' queries as 16-byte keys (the id, then a second word), in one batch:
  // the byte-key hash path beside the u64 one.
  std::vector<uint64_t> words(2 * n), offsets(n + 1);
  for (uint64_t i = 0; i < n; ++i) words[2 * i] = absent[i], words[2 * i + 1] = seen::SplitMix64(~i);
  for (uint64_t i = 0; i <= n; ++i) offsets[i] = 16 * i;
  run.Report("contains_batched_16_byte_keys", Measure(reps, n, [&] {
               seen_bloom_contains_keys(f, reinterpret_cast<const uint8_t*>(words.data()), offsets.data(), n, out.data());
             }));
  volatile int sink = 0;
  run.Report("test_single", Measure(reps, calls, [&] {
               int hits = 0;
               for (uint64_t i = 0; i < calls; ++i) hits += seen_bloom_contains_one_u64(f, absent[i]);
               sink = hits;
             }));
  seen_bloom_free(f);
  return 0;
}
