// bench_fpr: the false-positive rate and the memory of filters filled to capacity, at the
// targets 10%, 1% and 0.1%, next to the classic bound 1.44 * log2(1/p) bits per key.
// Prints one JSON object per line.
//
//   bench_fpr [--keys N]
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/splitmix.h"
#include "seen.h"

int main(int argc, char** argv) {
  uint64_t n = 10000000;
  if (argc == 3 && std::string(argv[1]) == "--keys") n = static_cast<uint64_t>(std::stod(argv[2]));
  std::vector<uint64_t> present(n), absent(n);
  for (uint64_t i = 0; i < n; ++i) {
    present[i] = seen::SplitMix64(2 * i);
    absent[i] = seen::SplitMix64(2 * i + 1);
  }
  std::vector<uint8_t> out(n);
  for (double target : {0.1, 0.01, 0.001}) {
    seen_bloom* f = nullptr;
    seen_bloom_create(n, target, 3, &f, nullptr);
    seen_bloom_add_u64(f, present.data(), n);
    seen_bloom_contains_u64(f, absent.data(), n, out.data());
    uint64_t hits = 0;
    for (uint8_t o : out) hits += o;
    seen_bloom_info params{};
  params.size = sizeof params;
    seen_bloom_get_info(f, &params);
    const double bits_per_key = 8.0 * params.bytes / n;
    const double classic = 1.44 * std::log2(1 / target);
    std::printf("{\"target\": %g, \"keys\": %llu, \"measured_fpr\": %.6g, \"bits_per_key\": %.4f, "
                "\"classic_bits\": %.4f, \"k\": %u}\n",
                target, static_cast<unsigned long long>(n), static_cast<double>(hits) / n,
                bits_per_key, classic, params.k);
    std::fflush(stdout);
    seen_bloom_free(f);
  }
  return 0;
}
