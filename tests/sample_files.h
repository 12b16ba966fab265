// One small, valid container of every kind and layout, made through the C API: the seed
// corpus of the fuzz targets (written by make_fuzz_corpus at build time) and the inputs of the
// address-space sweep. Small, so a fuzzer mutates them fast.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "seen.h"
#include "tests/every_kind.h"

namespace seen::test {

struct Sample {
  std::string name;
  Target kind;
  std::vector<uint8_t> bytes;
};

// The bytes a serialize call writes: size(NULL) first, then the call itself.
template <class Serialize>
std::vector<uint8_t> Serialized(const Serialize& serialize) {
  size_t size = 0;
  serialize(nullptr, 0, &size);
  std::vector<uint8_t> bytes(size);
  serialize(bytes.data(), size, &size);
  return bytes;
}

inline std::vector<uint64_t> SampleIds(uint64_t n) {
  std::vector<uint64_t> ids(n);
  for (uint64_t i = 0; i < n; ++i) ids[i] = i * 0x9E3779B97F4A7C15ULL + 1;
  return ids;
}

inline std::vector<uint8_t> ReadFile(const std::string& path) {
  std::vector<uint8_t> bytes;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    uint8_t chunk[4096];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, f)) > 0;) bytes.insert(bytes.end(), chunk, chunk + n);
    std::fclose(f);
  }
  return bytes;
}

// Every kind; the store goes through a file at scratch_path (it has no serialize).
inline std::vector<Sample> SampleFiles(const std::string& scratch_path) {
  const std::vector<uint64_t> ids = SampleIds(300);
  std::vector<Sample> samples;
  seen_bloom* bloom = nullptr;
  seen_bloom_create(200, 0.01, 1, &bloom, nullptr);
  seen_bloom_add_u64(bloom, ids.data(), 150);
  samples.push_back(
      {"bloom", Target::kBloom, Serialized([&](uint8_t* b, size_t c, size_t* w) { seen_bloom_serialize(bloom, b, c, w); })});
  seen_bloom_free(bloom);
  seen_counting* counting = nullptr;
  seen_counting_create(100, 0.01, 2, &counting, nullptr);
  seen_counting_add_u64(counting, ids.data(), 80);
  samples.push_back({"counting", Target::kCounting,
                     Serialized([&](uint8_t* b, size_t c, size_t* w) { seen_counting_serialize(counting, b, c, w); })});
  seen_counting_free(counting);
  seen_scalable_options scalable_options = {sizeof scalable_options, 30, 0.01, 2, 0.5, 3, nullptr, 0};
  seen_scalable* scalable = nullptr;
  seen_scalable_create(&scalable_options, &scalable, nullptr);
  seen_scalable_add_u64(scalable, ids.data(), 150);  // three sub-filters, the newest part full
  samples.push_back({"scalable", Target::kScalable,
                     Serialized([&](uint8_t* b, size_t c, size_t* w) { seen_scalable_serialize(scalable, b, c, w); })});
  seen_scalable_free(scalable);
  const char* window_names[] = {"window_ring", "window_sliced", "window_time", "window_growing"};
  const seen_window_options windows[] = {
      {sizeof(seen_window_options), SEEN_WINDOW_COUNT, 50, 0, 0, 0.01, 0, 4, 0, nullptr, 0},   // a ring
      {sizeof(seen_window_options), SEEN_WINDOW_COUNT, 200, 0, 0, 0.01, 0, 5, 600, nullptr, 0},  // sliced
      {sizeof(seen_window_options), SEEN_WINDOW_TIME, 3600, 100, 0, 0.01, 0, 6, 0, nullptr, 0},   // a table
      // A growing window: a table cannot keep 0.1% at 1 MiB.
      {sizeof(seen_window_options), SEEN_WINDOW_TIME, 3600, 10, 0, 0.001, 0, 7, 0, nullptr, 0}};
  for (int i = 0; i < 4; ++i) {
    seen_window* window = nullptr;
    seen_window_create(&windows[i], 1000, &window, nullptr);
    seen_window_add_u64(window, ids.data(), 60, 1100);
    samples.push_back({window_names[i], Target::kWindow,
                       Serialized([&](uint8_t* b, size_t c, size_t* w) { seen_window_serialize(window, b, c, w); })});
    seen_window_free(window);
  }
  seen_store_options store_options = {sizeof store_options, &windows[0], 0, 0, 0, 1000};
  seen_store* store = nullptr;
  seen_store_create(&store_options, &store, nullptr);
  for (uint64_t user = 0; user < 20; ++user) seen_store_mark(store, user, ids.data() + user, 3, 100);
  seen_store_save(store, scratch_path.c_str());
  seen_store_free(store);
  samples.push_back({"store", Target::kStore, ReadFile(scratch_path)});
  // A store of time windows (tables), some users grown past their first table.
  store_options.window = &windows[2];
  seen_store_create(&store_options, &store, nullptr);
  for (uint64_t user = 0; user < 8; ++user) seen_store_mark(store, user, ids.data(), 4 + 8 * user, 1100);
  seen_store_save(store, scratch_path.c_str());
  seen_store_free(store);
  samples.push_back({"store_time", Target::kStore, ReadFile(scratch_path)});
  std::remove(scratch_path.c_str());
  // max_k 6: 7 blocks of 10 and 9 bits, so each table's bucket offsets take 1 or 2 KiB and the
  // file about 19 KiB (at max_k 3, 4 blocks of 16 bits take 1 MiB), and the blocks are uneven.
  seen_simhash_index* index = nullptr;
  seen_simhash_index_create(6, &index, nullptr);
  seen_simhash_index_add(index, ids.data(), ids.data() + 100, 50);
  samples.push_back({"simhash_index", Target::kSimhashIndex, Serialized([&](uint8_t* b, size_t c, size_t* w) {
                       seen_simhash_index_serialize(index, b, c, w);
                     })});
  seen_simhash_index_free(index);
  seen_minhash_index* texts = nullptr;
  seen_minhash_index_create(nullptr, &texts, nullptr);
  for (uint64_t i = 0; i < 20; ++i) {
    const std::string text = "sample text number " + std::to_string(i) + " of a few more words";
    seen_minhash_index_add_text(texts, i, text.data(), text.size());
  }
  samples.push_back({"minhash_index", Target::kMinhashIndex, Serialized([&](uint8_t* b, size_t c, size_t* w) {
                       seen_minhash_index_serialize(texts, b, c, w);
                     })});
  seen_minhash_index_free(texts);
  return samples;
}

}  // namespace seen::test
