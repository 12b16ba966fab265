// bench_bloom: ns per key of seen's blocked Bloom filter, side by side with Debian's libbloom
// and with the random-read floor, all measured in one run over buffers of the same size.
// Prints one JSON object per line; bench/report.py turns them into bench/RESULTS.md.
//
//   bench_bloom --keys N [--fpr P] [--reps R] [--no-peer]
#include <bloom.h>

#include <cstdio>
#include <string>
#include <vector>

#define SEEN_EXPERIMENTAL  // seen_bloom_set_exclusive_adds
#include "seen.h"
#include "bench/bench_support.h"
#include "core/splitmix.h"

namespace {

using seen::bench::Floor;
using seen::bench::MedianNs;
using seen::SplitMix64;

void Report(const char* name, uint64_t keys, uint64_t bytes, double ns, double extra = -1) {
  std::printf("{\"bench\": \"%s\", \"keys\": %llu, \"bytes\": %llu, \"ns_per_key\": %.4f", name,
              static_cast<unsigned long long>(keys), static_cast<unsigned long long>(bytes), ns);
  if (extra >= 0) std::printf(", \"fpr\": %.6g", extra);
  std::printf("}\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t n = 1000000;
  double fpr = 0.01;
  int reps = 5;
  bool peer = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--keys" && i + 1 < argc) n = static_cast<uint64_t>(std::stod(argv[++i]));
    else if (arg == "--fpr" && i + 1 < argc) fpr = std::stod(argv[++i]);
    else if (arg == "--reps" && i + 1 < argc) reps = std::stoi(argv[++i]);
    else if (arg == "--no-peer") peer = false;
    else {
      std::fprintf(stderr, "usage: bench_bloom --keys N [--fpr P] [--reps R] [--no-peer]\n");
      return 2;
    }
  }
  std::vector<uint64_t> present(n), absent(n);
  for (uint64_t i = 0; i < n; ++i) {
    present[i] = SplitMix64(2 * i);
    absent[i] = SplitMix64(2 * i + 1);
  }
  std::vector<uint8_t> out(n);

  seen_bloom* f = nullptr;
  if (seen_bloom_create(n, fpr, 1, &f, nullptr) != SEEN_OK) {
    std::fprintf(stderr, "create: %s\n", seen_last_error());
    return 1;
  }
  seen_bloom_info params{};
  params.size = sizeof params;
  seen_bloom_get_info(f, &params);
  const uint64_t bytes = params.bytes;

  Report("floor_random_read", n, bytes, Floor(bytes, present, reps).wall_ns);

  // Every rep adds into an emptied filter, so each add really sets bits.
  const auto clear = [&] { seen_bloom_clear(f); };
  Report("seen_add_batched", n, bytes,
         MedianNs(reps, n, [&] { seen_bloom_add_u64(f, present.data(), n); }, clear));
  seen_bloom_set_exclusive_adds(f, 1);
  Report("seen_add_batched_exclusive", n, bytes,
         MedianNs(reps, n, [&] { seen_bloom_add_u64(f, present.data(), n); }, clear));
  seen_bloom_set_exclusive_adds(f, 0);
  Report("seen_contains_batched_present", n, bytes,
         MedianNs(reps, n, [&] { seen_bloom_contains_u64(f, present.data(), n, out.data()); }));
  Report("seen_contains_batched_absent", n, bytes,
         MedianNs(reps, n, [&] { seen_bloom_contains_u64(f, absent.data(), n, out.data()); }));
  uint64_t false_positives = 0;
  for (uint8_t o : out) false_positives += o;
  volatile int sink = 0;
  Report("seen_contains_single_present", n, bytes, MedianNs(reps, n, [&] {
           int hits = 0;
           for (uint64_t id : present) hits += seen_bloom_contains_one_u64(f, id);
           sink = hits;
         }));
  Report("seen_contains_single_absent", n, bytes, MedianNs(reps, n, [&] {
           int hits = 0;
           for (uint64_t id : absent) hits += seen_bloom_contains_one_u64(f, id);
           sink = hits;
         }));
  Report("seen_add_single", n, bytes, MedianNs(reps, n, [&] {
           for (uint64_t id : present) seen_bloom_add_one_u64(f, id, nullptr);
         }, clear));
  seen_bloom_add_u64(f, present.data(), n);
  Report("seen_fpr", n, bytes, 8.0 * bytes / n, static_cast<double>(false_positives) / n);
  seen_bloom_free(f);

  if (peer) {
    struct bloom b;
    bloom_init(&b, static_cast<int>(n), fpr);
    const uint64_t peer_bytes = b.bytes;
    Report("libbloom_add_single", n, peer_bytes, MedianNs(reps, n, [&] {
             for (uint64_t id : present) bloom_add(&b, &id, 8);
           }, [&] { bloom_reset(&b); }));
    Report("libbloom_contains_single_present", n, peer_bytes, MedianNs(reps, n, [&] {
             int hits = 0;
             for (uint64_t id : present) hits += bloom_check(&b, &id, 8);
             sink = hits;
           }));
    uint64_t peer_fp = 0;
    Report("libbloom_contains_single_absent", n, peer_bytes, MedianNs(reps, n, [&] {
             int hits = 0;
             for (uint64_t id : absent) hits += bloom_check(&b, &id, 8);
             peer_fp = static_cast<uint64_t>(hits);
           }));
    Report("libbloom_fpr", n, peer_bytes, 8.0 * peer_bytes / n, static_cast<double>(peer_fp) / n);
    bloom_free(&b);
  }
  return 0;
}
