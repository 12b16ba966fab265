// bench_split_block: seen's single-key probe, exported (seen_bloom_contains_one_u64) and inline
// (seen_inline.h), against a split-block reference loop (split_block.h, Parquet's scheme, one
// key at a time with its hash inline) and the read floor, with seen's batches beside them
// (issue 29). Every step runs once per round, in turn, in one process, and each figure is the
// median thread CPU time per key.
//
// For each --keys N: seen's filter is sized for N keys at 1%; the split-block filter gets the
// same bytes. Both hold N keys for the finds; inserts go into twins of them, emptied before
// each round. Finds and inserts take Q = min(N, --queries) keys: half of the finds present,
// half absent, in random order. The read floor reads one word of each find's own 64-byte block
// of seen's filter, from offsets computed beforehand: one random read per key, none depending
// on another, no hash, no prefetch. The read-modify-write floor does the same for each
// insert's block, ORing a bit into one of its words, in a buffer as big as the filter. The
// reference also probes with its hashes computed beforehand (its probe loop alone), and seen's
// batches also take the keys as 16-byte keys (the id, then a second word; data + offsets), all
// absent from the find filter. Prints one JSON object per line.
//
//   bench_split_block [--keys N]... [--queries Q] [--rounds R] [--only NAME]...
//
// --only runs just the steps whose names contain one of the NAMEs (e.g. --only batched), for
// a quicker comparison of a few rows; bench/split_block_run runs them all.
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "bench/split_block.h"
#include "core/kernels.h"
#include "core/region.h"
#include "core/splitmix.h"
#include "seen.h"
#include "seen_inline.h"

namespace {

using seen::SplitMix64;
using seen::bench::SplitBlockFilter;
using seen::bench::Step;

constexpr double kFpr = 0.01;
constexpr uint64_t kFillChunk = uint64_t{1} << 20;

seen_bloom* Filter(uint64_t n) {
  seen_bloom* f = nullptr;
  if (seen_bloom_create(n, kFpr, 1, &f, nullptr) != SEEN_OK) {
    std::fprintf(stderr, "create: %s\n", seen_last_error());
    std::exit(1);
  }
  return f;
}

// Key i of the N added: SplitMix64(2 i); absent keys are SplitMix64(2 i + 1).
void Fill(seen_bloom* f, SplitBlockFilter& split, uint64_t n) {
  std::vector<uint64_t> chunk;
  for (uint64_t first = 0; first < n; first += kFillChunk) {
    chunk.clear();
    for (uint64_t i = first; i < std::min(n, first + kFillChunk); ++i) chunk.push_back(SplitMix64(2 * i));
    seen_bloom_add_u64(f, chunk.data(), chunk.size());
    for (const uint64_t id : chunk) split.Insert(id);
  }
}

void Report(const char* bench, uint64_t n, uint64_t q, uint64_t bytes, const char* field, double value) {
  std::printf("{\"bench\": \"%s\", \"keys\": %llu, \"queries\": %llu, \"bytes\": %llu, \"target\": \"%s\", "
              "\"%s\": %.6g}\n",
              bench, static_cast<unsigned long long>(n), static_cast<unsigned long long>(q),
              static_cast<unsigned long long>(bytes), seen::ChosenTargetName(), field, value);
  std::fflush(stdout);
}

void RunAt(uint64_t n, uint64_t q, int rounds, const std::vector<std::string>& only) {
  seen_bloom *find = Filter(n), *insert = Filter(n);
  seen_bloom_info info{};
  info.size = sizeof info;
  seen_bloom_get_info(find, &info);
  SplitBlockFilter split_find(info.bytes), split_insert(info.bytes);
  Fill(find, split_find, n);

  std::vector<uint64_t> queries(q), fresh(q), blocks(q), fresh_blocks(q), split_hashes(q);
  for (uint64_t i = 0; i < q; ++i) {
    const bool present = SplitMix64(~i) & 1;
    queries[i] = present ? SplitMix64(2 * (SplitMix64(i) % n)) : SplitMix64(2 * (n + i) + 1);
    fresh[i] = SplitMix64(2 * i);
    split_hashes[i] = SplitBlockFilter::Xxh64OfId(queries[i]);
  }
  seen_bloom_blocks_of_u64(find, queries.data(), q, blocks.data());
  seen_bloom_blocks_of_u64(insert, fresh.data(), q, fresh_blocks.data());
  const uint8_t* bytes = nullptr;
  seen_bloom_get_blocks(find, &bytes);
  const auto* words = reinterpret_cast<const uint64_t*>(bytes);
  seen::Region rmw = seen::Region::Allocate(info.bytes);
  std::memset(rmw.data(), 0, info.bytes);  // commit every page, as a cleared filter has
  auto* rmw_words = reinterpret_cast<uint64_t*>(rmw.data());
  // The same keys as 16-byte keys: the id, then a second word.
  std::vector<uint64_t> query_words(2 * q), fresh_words(2 * q), offsets(q + 1);
  for (uint64_t i = 0; i < q; ++i) {
    query_words[2 * i] = queries[i], query_words[2 * i + 1] = SplitMix64(~i);
    fresh_words[2 * i] = fresh[i], fresh_words[2 * i + 1] = SplitMix64(~i);
  }
  for (uint64_t i = 0; i <= q; ++i) offsets[i] = 16 * i;
  const auto* query_bytes = reinterpret_cast<const uint8_t*>(query_words.data());
  const auto* fresh_bytes = reinterpret_cast<const uint8_t*>(fresh_words.data());
  seen_bloom_probe probe{};
  seen_bloom_probe_init(find, &probe);
  std::vector<uint8_t> out(q);
  volatile uint64_t sink = 0;

  std::vector<Step> steps = {
      {"floor_read", q, [&] {
         uint64_t acc = 0;
         for (uint64_t i = 0; i < q; ++i) acc ^= words[blocks[i] * 8];
         sink = acc;
       }},
      {"floor_rmw", q, [&] {
         for (uint64_t i = 0; i < q; ++i) rmw_words[fresh_blocks[i] * 8] |= uint64_t{1} << (i & 63);
       }},
      {"seen_find_batched", q, [&] { seen_bloom_contains_u64(find, queries.data(), q, out.data()); }},
      {"seen_insert_batched", q, [&] { seen_bloom_add_u64(insert, fresh.data(), q); },
       [&] { seen_bloom_clear(insert); }},
      {"seen_find_batched_16_byte", q, [&] {
         seen_bloom_contains_keys(find, query_bytes, offsets.data(), q, out.data());
       }},
      {"seen_insert_batched_16_byte", q, [&] { seen_bloom_add_keys(insert, fresh_bytes, offsets.data(), q); },
       [&] { seen_bloom_clear(insert); }},
      {"seen_find_single_exported", q, [&] {
         uint64_t hits = 0;
         for (const uint64_t id : queries) hits += seen_bloom_contains_one_u64(find, id);
         sink = hits;
       }},
      {"seen_find_single_inline", q, [&] {
         uint64_t hits = 0;
         for (const uint64_t id : queries) hits += seen_bloom_probe_contains_u64(&probe, id);
         sink = hits;
       }},
      {"seen_insert_single_exported", q, [&] {
         for (const uint64_t id : fresh) seen_bloom_add_one_u64(insert, id, nullptr);
       }, [&] { seen_bloom_clear(insert); }},
      {"split_block_find", q, [&] {
         uint64_t hits = 0;
         for (const uint64_t id : queries) hits += split_find.Find(id);
         sink = hits;
       }},
      {"split_block_find_prehashed", q, [&] {
         uint64_t hits = 0;
         for (const uint64_t h : split_hashes) hits += split_find.FindHash(h);
         sink = hits;
       }},
      {"split_block_insert", q, [&] {
         for (const uint64_t id : fresh) split_insert.Insert(id);
       }, [&] { split_insert.Clear(); }},
  };
  if (!only.empty()) {
    steps.erase(std::remove_if(steps.begin(), steps.end(), [&](const Step& step) {
                  return std::none_of(only.begin(), only.end(), [&](const std::string& name) {
                    return step.name.find(name) != std::string::npos;
                  });
                }), steps.end());
  }
  const std::vector<double> ns = seen::bench::Interleave(steps, rounds);
  for (size_t i = 0; i < steps.size(); ++i) Report(steps[i].name.c_str(), n, q, info.bytes, "cpu_ns_per_key", ns[i]);

  // The false-positive rates of the two filters at the same bytes, on Q keys never added.
  uint64_t seen_fp = 0, split_fp = 0;
  for (uint64_t i = 0; i < q; ++i) {
    const uint64_t id = SplitMix64(2 * (n + i) + 1);
    seen_fp += seen_bloom_probe_contains_u64(&probe, id);
    split_fp += split_find.Find(id);
  }
  Report("seen_fpr", n, q, info.bytes, "fpr", static_cast<double>(seen_fp) / q);
  Report("split_block_fpr", n, q, info.bytes, "fpr", static_cast<double>(split_fp) / q);
  seen_bloom_free(find);
  seen_bloom_free(insert);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<uint64_t> sizes;
  uint64_t queries = 4000000;
  int rounds = 5;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--keys" && i + 1 < argc) sizes.push_back(static_cast<uint64_t>(std::stod(argv[++i])));
    else if (arg == "--queries" && i + 1 < argc) queries = static_cast<uint64_t>(std::stod(argv[++i]));
    else if (arg == "--rounds" && i + 1 < argc) rounds = std::stoi(argv[++i]);
    else if (arg == "--only" && i + 1 < argc) only.emplace_back(argv[++i]);
    else {
      std::fprintf(stderr, "usage: bench_split_block [--keys N]... [--queries Q] [--rounds R] [--only NAME]...\n");
      return 2;
    }
  }
  if (sizes.empty()) sizes = {1000000, 100000000};
  // The reference's hash is XXH64 itself: checked against libxxhash before anything is timed.
  for (uint64_t i = 0; i < 1000; ++i) {
    const uint64_t id = SplitMix64(i);
    if (SplitBlockFilter::Xxh64OfId(id) != XXH64(&id, sizeof id, 0)) {
      std::fprintf(stderr, "the reference's XXH64 differs from libxxhash's\n");
      return 1;
    }
  }
  for (const uint64_t n : sizes) RunAt(n, std::min(n, queries), rounds, only);
  return 0;
}
