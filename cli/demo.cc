// seen demo: the main job on built-in defaults. Builds a filter from generated ids, probes it
// with ids it never saw, and reports memory, measured against predicted fpr, and speed.
#include <chrono>
#include <cstdio>
#include <vector>

#include "cli/cli.h"
#include "core/bloom.h"
#include "core/kernels.h"
#include "core/splitmix.h"

namespace seen::cli {
namespace {

template <class Body>
double NanosPerKey(size_t keys, Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
  return took.count() / static_cast<double>(keys);
}

}  // namespace

int Demo(const Args& args) {
  const uint64_t n = args.get_u64("keys", 1000000);
  const double fpr = args.get_rate("fpr", 0.01);
  if (n == 0) throw UsageError{"--keys must be positive"};
  std::vector<uint64_t> present(n), absent(n);
  for (uint64_t i = 0; i < n; ++i) {
    present[i] = SplitMix64(2 * i);
    absent[i] = SplitMix64(2 * i + 1);
  }
  Bloom filter = Bloom::Create(n, fpr, /*seed=*/2026);
  std::vector<uint8_t> out(n);
  const double add_ns = NanosPerKey(n, [&] { filter.AddU64(present.data(), n); });
  const double hit_ns = NanosPerKey(n, [&] { filter.ContainsU64(present.data(), n, out.data()); });
  uint64_t found = 0;
  for (uint8_t o : out) found += o;
  const double miss_ns = NanosPerKey(n, [&] { filter.ContainsU64(absent.data(), n, out.data()); });
  uint64_t false_positives = 0;
  for (uint8_t o : out) false_positives += o;
  uint64_t single_hits = 0;
  const double single_ns = NanosPerKey(n, [&] {
    for (uint64_t id : absent) single_hits += filter.TestU64(id);
  });

  const BloomParams& p = filter.params();
  const BloomStats s = filter.Stats();
  const double measured = static_cast<double>(false_positives) / n;
  std::printf("seen demo: blocked Bloom filter (SIMD target %s)\n", ChosenTargetName());
  std::printf("  keys                 %llu added, %llu of them found (no false negatives: %s)\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(found),
              found == n ? "yes" : "NO");
  std::printf("  memory               %.2f MiB, %.2f bits/key, k=%u\n", p.bytes() / 1048576.0,
              8.0 * p.bytes() / n, p.k);
  std::printf("  false-positive rate  target %.4g, predicted %.4g, measured %.4g (%llu of %llu absent ids)\n",
              fpr, s.predicted_fpr, measured, static_cast<unsigned long long>(false_positives),
              static_cast<unsigned long long>(n));
  std::printf("  ns per key           add %.2f batched; contains %.2f batched present, %.2f batched absent, %.2f single\n",
              add_ns, hit_ns, miss_ns, single_ns);
  const bool bloom_ok = found == n && single_hits == false_positives;
  const bool exposure_ok = DemoExposure(args);
  const bool simhash_ok = DemoSimhash(args);
  return bloom_ok && exposure_ok && simhash_ok ? kExitOk : kExitError;
}

}  // namespace seen::cli
