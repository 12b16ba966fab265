// bench_counting: the counting filter's batched add, remove and contains as ratios to the
// blocked Bloom filter's time measured in the same run, its memory multiple and fpr; and the
// scalable filter's fpr after 100x growth against its bound, with query ns per key against
// the number of sub-filters. Prints markdown for bench/results/counting.md.
//
//   bench_counting [--keys N] [--fpr P] [--reps R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/bloom.h"
#include "core/counting.h"
#include "core/kernels.h"
#include "core/splitmix.h"
#include "core/scalable.h"

namespace {

using namespace seen;

std::vector<uint64_t> Keys(uint64_t n, uint64_t stream) {
  std::vector<uint64_t> keys(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = SplitMix64(2 * i + stream);
  return keys;
}

// Median over reps of ns per key; setup runs before each rep, untimed.
template <class Body, class Setup>
double MedianNs(int reps, size_t keys, const Body& body, const Setup& setup) {
  std::vector<double> runs;
  for (int r = 0; r < reps; ++r) {
    setup();
    const auto start = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double, std::nano> took = std::chrono::steady_clock::now() - start;
    runs.push_back(took.count() / static_cast<double>(keys));
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

double Rate(const std::vector<uint8_t>& answers) {
  uint64_t yes = 0;
  for (uint8_t a : answers) yes += a;
  return static_cast<double>(yes) / static_cast<double>(answers.size());
}

void CountingVsBloom(uint64_t n, double fpr, int reps) {
  const auto keys = Keys(n, 0);
  const auto absent = Keys(n, 1);
  std::vector<uint8_t> out(n);
  Bloom bloom = Bloom::Create(n, fpr, 1);
  Counting counting = Counting::Create(n, fpr, 1);
  auto none = [] {};

  const double bloom_add = MedianNs(reps, n, [&] { bloom.AddU64(keys.data(), n); }, [&] { bloom.Clear(); });
  bloom.set_exclusive_adds(true);
  const double bloom_add_excl = MedianNs(reps, n, [&] { bloom.AddU64(keys.data(), n); }, [&] { bloom.Clear(); });
  const double bloom_hit = MedianNs(reps, n, [&] { bloom.ContainsU64(keys.data(), n, out.data()); }, none);
  const double bloom_miss = MedianNs(reps, n, [&] { bloom.ContainsU64(absent.data(), n, out.data()); }, none);
  const double bloom_fpr = Rate(out);

  const double add = MedianNs(reps, n, [&] { counting.AddU64(keys.data(), n); }, [&] { counting.Clear(); });
  const double hit = MedianNs(reps, n, [&] { counting.ContainsU64(keys.data(), n, out.data()); }, none);
  const double miss = MedianNs(reps, n, [&] { counting.ContainsU64(absent.data(), n, out.data()); }, none);
  const double counting_fpr = Rate(out);
  const double remove = MedianNs(reps, n, [&] { counting.RemoveU64(keys.data(), n, nullptr); },
                                 [&] { counting.Clear(), counting.AddU64(keys.data(), n); });

  std::printf("## Counting filter vs blocked filter: %llu u64 keys at fpr %g, target %s\n\n",
              static_cast<unsigned long long>(n), fpr, ChosenTargetName());
  std::printf("| | blocked ns/key | counting ns/key | ratio |\n|---|---:|---:|---:|\n");
  std::printf("| batched add (blocked: stripe locks, the default) | %.2f | %.2f | %.2f |\n", bloom_add, add, add / bloom_add);
  std::printf("| batched add (blocked: exclusive adds) | %.2f | %.2f | %.2f |\n", bloom_add_excl, add, add / bloom_add_excl);
  std::printf("| batched remove (vs the blocked filter's default add) | %.2f | %.2f | %.2f |\n", bloom_add, remove, remove / bloom_add);
  std::printf("| batched remove (vs the blocked filter's exclusive add) | %.2f | %.2f | %.2f |\n", bloom_add_excl, remove, remove / bloom_add_excl);
  std::printf("| batched contains, present keys | %.2f | %.2f | %.2f |\n", bloom_hit, hit, hit / bloom_hit);
  std::printf("| batched contains, absent keys | %.2f | %.2f | %.2f |\n\n", bloom_miss, miss, miss / bloom_miss);
  // The same comparison at equal memory: a blocked filter as big as the counting filter is
  // out of the last-level cache too, so this ratio is the cost of 4 lines per key alone.
  Bloom same_bytes = Bloom::CreateBytes(n, counting.params().bytes(), 1);
  same_bytes.set_exclusive_adds(true);
  const double big_add = MedianNs(reps, n, [&] { same_bytes.AddU64(keys.data(), n); }, [&] { same_bytes.Clear(); });
  const double big_miss = MedianNs(reps, n, [&] { same_bytes.ContainsU64(absent.data(), n, out.data()); }, none);
  std::printf("Against a blocked filter of the counting filter's %llu bytes (k = %u):\n\n",
              static_cast<unsigned long long>(same_bytes.params().bytes()), same_bytes.params().k);
  std::printf("| | blocked, same bytes | counting | ratio |\n|---|---:|---:|---:|\n");
  std::printf("| batched add (exclusive) | %.2f | %.2f | %.2f |\n", big_add, add, add / big_add);
  std::printf("| batched remove (vs add) | %.2f | %.2f | %.2f |\n", big_add, remove, remove / big_add);
  std::printf("| batched contains, absent keys | %.2f | %.2f | %.2f |\n\n", big_miss, miss, miss / big_miss);
  std::printf("| | blocked | counting |\n|---|---:|---:|\n");
  std::printf("| bytes | %llu | %llu (%.1fx) |\n", static_cast<unsigned long long>(bloom.params().bytes()),
              static_cast<unsigned long long>(counting.params().bytes()),
              static_cast<double>(counting.params().bytes()) / static_cast<double>(bloom.params().bytes()));
  std::printf("| k | %u | %u |\n", bloom.params().k, counting.params().k);
  std::printf("| measured fpr (%llu absent keys) | %.5f | %.5f |\n\n", static_cast<unsigned long long>(n), bloom_fpr,
              counting_fpr);
}

// Grows a scalable filter 100x past its initial capacity, reporting after every doubling of
// the keys added: sub-filters, batched query ns per key (absent keys, the case that must ask
// every sub-filter), measured fpr, and the bound.
void ScalableGrowth(uint64_t initial, double fpr, int reps) {
  const uint64_t total = 100 * initial;
  const auto keys = Keys(total, 0);
  const auto probe = Keys(1000000, 1);
  std::vector<uint8_t> out(probe.size());
  Scalable filter = Scalable::Create({initial, fpr, 2.0, 0.5, 3});
  std::printf("## Scalable filter: initial capacity %llu, bound %g, growth 2, tightening 0.5\n\n",
              static_cast<unsigned long long>(initial), fpr);
  std::printf("| keys added | x initial | sub-filters | bytes | query ns/key | measured fpr | predicted fpr | bound |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  uint64_t added = 0;
  for (uint64_t target = initial; added < total; target = std::min(total, target * 2)) {
    filter.AddU64(keys.data() + added, target - added);
    added = target;
    const double ns = MedianNs(reps, probe.size(), [&] { filter.ContainsU64(probe.data(), probe.size(), out.data()); }, [] {});
    std::printf("| %llu | %.0f | %zu | %llu | %.2f | %.5f | %.5f | %g |\n", static_cast<unsigned long long>(added),
                static_cast<double>(added) / initial, filter.subs().size(),
                static_cast<unsigned long long>(filter.bytes()), ns, Rate(out), filter.PredictedFpr(), fpr);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t keys = 10000000;
  double fpr = 0.01;
  int reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--keys") keys = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--fpr") fpr = std::strtod(argv[i + 1], nullptr);
    else if (flag == "--reps") reps = std::atoi(argv[i + 1]);
  }
  CountingVsBloom(keys, fpr, reps);
  ScalableGrowth(keys / 100, fpr, reps);
  return 0;
}
