// seen build: keys from files or stdin into a new filter file, on several threads.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "cli/cli.h"
#include "cli/input.h"
#include "cli/key_file.h"
#include "cli/lines.h"
#include "core/defaults.h"
#include "cli/progress.h"
#include "cli/writable.h"
#include "core/bloom.h"
#include "core/bloom_codec.h"

namespace seen::cli {
namespace {

// Splits a chunk at line boundaries into one piece per thread and adds each piece's keys.
// Adds are thread-safe (the filter's stripe locks, core/bloom.h), so the threads share it.
uint64_t AddChunk(Bloom& filter, const char* begin, const char* end, unsigned threads) {
  std::vector<const char*> cuts{begin};
  for (unsigned t = 1; t < threads; ++t) {
    const char* guess = begin + (end - begin) * t / threads;
    guess = std::max(guess, cuts.back());
    const auto* nl = static_cast<const char*>(std::memchr(guess, '\n', static_cast<size_t>(end - guess)));
    cuts.push_back(nl ? nl + 1 : end);
  }
  cuts.push_back(end);
  std::atomic<uint64_t> keys{0};
  auto work = [&](size_t piece) {
    ForEachBatch(cuts[piece], cuts[piece + 1], [&](const KeyBatch& batch) {
      filter.AddKeys(batch.data.data(), batch.offsets.data(), batch.size());
      keys += batch.size();
    });
  };
  std::vector<std::thread> pool;
  for (size_t piece = 1; piece < threads; ++piece) pool.emplace_back(work, piece);
  work(0);
  for (auto& thread : pool) thread.join();
  return keys;
}

}  // namespace

int Build(const Args& args) {
  const uint64_t capacity = args.get_u64("capacity", 0);
  if (capacity == 0) throw UsageError{"build needs --capacity N (N > 0)"};
  args.exclusive("fpr", "bytes");
  args.exclusive("seed", "key-file");
  StdinOnce(args.positional(), args);
  const std::optional<SecretKey> key = KeyFile(args);
  const double fpr = args.get_rate("fpr", defaults::kFpr);
  const uint64_t seed = args.get_u64("seed", 0);
  const unsigned threads = static_cast<unsigned>(
      std::clamp<uint64_t>(args.get_u64("threads", std::thread::hardware_concurrency()), 1, 256));
  const std::string output = args.require("output");
  if (args.positional().empty()) throw UsageError{"build needs at least one INPUT (- for stdin)"};
  CheckWritable(output);

  // With a memory budget (--bytes) the k that suits it is chosen.
  const uint64_t budget = args.get_bytes("bytes", 0);
  Bloom filter = budget > 0 ? Bloom::CreateBytes(capacity, budget, seed, key) : Bloom::Create(capacity, fpr, seed, key);
  // One thread needs no stripe locks: exclusive adds skip them (bench/results/spam.md).
  filter.set_exclusive_adds(threads == 1);
  std::vector<std::unique_ptr<LineSource>> sources;
  uint64_t total_bytes = 0;
  for (const auto& path : args.positional()) {
    sources.push_back(LineSource::Open(path));
    total_bytes += sources.back()->size();
  }
  Progress progress(total_bytes, "keys");
  uint64_t keys = 0, bytes_done = 0;
  for (auto& source : sources) {
    const char *begin, *end;
    while (source->Next(&begin, &end)) {
      keys += AddChunk(filter, begin, end, threads);
      bytes_done += static_cast<uint64_t>(end - begin);
      progress.Update(bytes_done, keys);
    }
  }
  Save(filter, output);
  progress.Finish();
  const double seconds = progress.seconds();
  const BloomParams& p = filter.params();
  const BloomStats stats = filter.Stats();
  // Lines are counted, duplicates too; the fill tells how many distinct keys went in, unless
  // every bit is set: then the estimate is infinite and only "too many" is true.
  char distinct[64] = "too many distinct keys to estimate (every bit is set)";
  if (std::isfinite(stats.approx_items)) std::snprintf(distinct, sizeof distinct, "about %.0f distinct keys", stats.approx_items);
  std::printf("built %s: %llu keys read, %s, %llu bytes (%.2f bits per "
              "capacity key, k=%u), predicted fpr %.2g; %.2f s (%.1fM keys/s)\n",
              output.c_str(), static_cast<unsigned long long>(keys), distinct,
              static_cast<unsigned long long>(p.bytes()), 8.0 * p.bytes() / capacity, p.k,
              stats.predicted_fpr, seconds, seconds > 0 ? keys / seconds / 1e6 : 0.0);
  if (stats.approx_items > 1.05 * capacity) {
    std::printf("warning: %s, over the capacity %llu: the rate is above the filter's target\n",
                distinct, static_cast<unsigned long long>(capacity));
  }
  return kExitOk;
}

}  // namespace seen::cli
