// Writes the shared test vectors into a directory (tests/vectors/ in the source tree):
//   make_vectors DIR
// Run it only when the format changes on purpose; every language's tests pin these bytes.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "core/bloom.h"
#include "core/bloom_codec.h"
#include "core/counting_codec.h"
#include "core/minhash_codec.h"
#include "core/scalable_codec.h"
#include "tests/support.h"
#include "tests/vector_file.h"
#include "core/window_codec.h"

namespace {

using namespace seen;

void Write(const std::string& dir, const std::string& name, const std::string& about,
           uint64_t items, double fpr, uint64_t seed, const std::vector<uint64_t>& ids,
           const std::vector<std::string>& keys, const std::vector<uint64_t>& probe_ids,
           const std::vector<std::string>& probe_keys) {
  Bloom filter = Bloom::Create(items, fpr, seed);
  filter.AddU64(ids.data(), ids.size());
  for (const auto& key : keys) filter.PutKey(key.data(), key.size());
  std::ofstream vec(dir + "/" + name + ".vec");
  vec << "# " << about << "\n# The filter after these adds is " << name << ".seen, byte for byte.\n";
  vec << "kind bloom\nexpected_items " << items << "\nfpr " << fpr << "\nseed " << seed << "\n";
  for (uint64_t id : ids) vec << "add_u64 " << id << "\n";
  for (const auto& key : keys) vec << "add_key " << test::ToHex(key) << "\n";
  for (uint64_t id : probe_ids) vec << "query_u64 " << id << " " << filter.TestU64(id) << "\n";
  for (const auto& key : probe_keys) {
    vec << "query_key " << test::ToHex(key) << " " << filter.TestKey(key.data(), key.size()) << "\n";
  }
  std::vector<uint8_t> bytes(SerializedSize(filter));
  Serialize(filter, bytes.data());
  std::ofstream(dir + "/" + name + ".seen", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::string> TextKeys(uint64_t n, uint64_t stream) {
  std::vector<std::string> keys;
  const char* words[] = {"user", "item", "新闻", "推荐", "mail", "ÉTÉ"};
  for (uint64_t i = 0; i < n; ++i) {
    keys.push_back(std::string(words[i % 6]) + ":" + std::to_string(test::Mix(2 * i + stream) % 100000));
  }
  return keys;
}

// A window vector: options, then a script of clock changes, adds and queries.
void WriteWindow(const std::string& dir, const std::string& name, const std::string& about,
                 WindowMode mode, uint32_t span, uint32_t expected_items, double fpr, uint64_t seed,
                 uint32_t step_seconds) {
  const WindowParams params = mode == WindowMode::kCount
                                  ? SizeCountWindow(span, fpr, 0.25, seed)
                                  : SizeTimeWindow(span, expected_items, fpr, 0.25, seed, 0);
  uint32_t now = 1000;
  Window window = Window::Create(params, now);
  std::ofstream vec(dir + "/" + name + ".vec");
  vec << "# " << about << "\n# The window after this script is " << name << ".seen, byte for byte.\n";
  vec << "kind window\nmode " << (mode == WindowMode::kCount ? "count" : "time") << "\nspan " << span
      << "\nexpected_items " << expected_items << "\nfpr " << fpr << "\nmax_slack 0.25\nseed " << seed
      << "\nnow " << now << "\n";
  const uint32_t items = mode == WindowMode::kCount ? span : expected_items;
  const auto ids = test::Keys(3 * items, 0);
  const auto keys = TextKeys(items, 0);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (step_seconds != 0 && i % 50 == 0) {
      now += step_seconds;
      vec << "now " << now << "\n";
    }
    window.AddU64(&ids[i], 1, now);
    vec << "add_u64 " << ids[i] << "\n";
    if (i % 3 == 0) {
      const std::string& key = keys[i / 3];
      const uint64_t offsets[2] = {0, key.size()};
      window.AddKeys(reinterpret_cast<const uint8_t*>(key.data()), offsets, 1, now);
      vec << "add_key " << test::ToHex(key) << "\n";
    }
  }
  auto answer = [&](uint64_t id) {
    uint8_t out;
    window.ContainsU64(&id, 1, now, &out);
    return static_cast<int>(out);
  };
  for (uint64_t id : test::Keys(200, 1)) vec << "query_u64 " << id << " " << answer(id) << "\n";
  for (size_t i = 0; i < ids.size(); i += 7) vec << "query_u64 " << ids[i] << " " << answer(ids[i]) << "\n";
  for (size_t i = 0; i < keys.size(); i += 5) {
    const uint64_t offsets[2] = {0, keys[i].size()};
    uint8_t out;
    window.ContainsKeys(reinterpret_cast<const uint8_t*>(keys[i].data()), offsets, 1, now, &out);
    vec << "query_key " << test::ToHex(keys[i]) << " " << static_cast<int>(out) << "\n";
  }
  const std::vector<uint8_t> bytes = SerializeWindow(window);
  std::ofstream(dir + "/" + name + ".seen", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A counting vector: adds, repeated adds, removes of added and of certainly absent keys
// (never of a false positive: that is the documented hazard), then queries.
void WriteCounting(const std::string& dir, const std::string& name, const std::string& about,
                   uint64_t items, double fpr, uint64_t seed, const std::vector<uint64_t>& ids,
                   const std::vector<std::string>& keys, int saturating_adds) {
  Counting filter = Counting::Create(items, fpr, seed);
  std::ofstream vec(dir + "/" + name + ".vec");
  vec << "# " << about << "\n# The filter after this script is " << name << ".seen, byte for byte.\n";
  vec << "kind counting\nexpected_items " << items << "\nfpr " << fpr << "\nseed " << seed << "\n";
  auto add_id = [&](uint64_t id) { filter.PutU64(id), vec << "add_u64 " << id << "\n"; };
  auto add_key = [&](const std::string& key) {
    filter.PutKey(key.data(), key.size()), vec << "add_key " << test::ToHex(key) << "\n";
  };
  auto remove_id = [&](uint64_t id) { vec << "remove_u64 " << id << " " << filter.DeleteU64(id) << "\n"; };
  auto remove_key = [&](const std::string& key) {
    vec << "remove_key " << test::ToHex(key) << " " << filter.DeleteKey(key.data(), key.size()) << "\n";
  };
  for (uint64_t id : ids) add_id(id);
  for (const auto& key : keys) add_key(key);
  for (size_t i = 0; i < ids.size(); i += 10) add_id(ids[i]);  // some keys twice
  for (int i = 0; i < saturating_adds; ++i) add_id(ids[0]);   // past 15: saturates
  for (size_t i = 0; i < ids.size(); i += 2) remove_id(ids[i]);
  for (size_t i = 0; i < keys.size(); i += 3) remove_key(keys[i]);
  for (int i = 0; i < saturating_adds; ++i) remove_id(ids[0]);
  for (uint64_t id : test::Keys(200, 1)) {
    if (!filter.TestU64(id)) remove_id(id);  // certainly absent: 0, nothing changes
  }
  for (const auto& key : TextKeys(50, 1)) {
    if (!filter.TestKey(key.data(), key.size())) remove_key(key);
  }
  for (uint64_t id : ids) vec << "query_u64 " << id << " " << filter.TestU64(id) << "\n";
  for (uint64_t id : test::Keys(300, 1)) vec << "query_u64 " << id << " " << filter.TestU64(id) << "\n";
  for (const auto& key : keys) {
    vec << "query_key " << test::ToHex(key) << " " << filter.TestKey(key.data(), key.size()) << "\n";
  }
  std::vector<uint8_t> bytes(SerializedSize(filter));
  Serialize(filter, bytes.data());
  std::ofstream(dir + "/" + name + ".seen", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A scalable vector: enough adds to grow several sub-filters, then queries.
void WriteScalable(const std::string& dir, const std::string& name, const std::string& about,
                   const ScalableOptions& options, const std::vector<uint64_t>& ids,
                   const std::vector<std::string>& keys) {
  Scalable filter = Scalable::Create(options);
  std::ofstream vec(dir + "/" + name + ".vec");
  vec << "# " << about << "\n# The filter after these adds is " << name << ".seen, byte for byte.\n";
  vec << "kind scalable\ncapacity " << options.initial_capacity << "\nfpr " << options.fpr
      << "\ngrowth " << options.growth << "\ntightening " << options.tightening << "\nseed "
      << options.seed << "\n";
  for (uint64_t id : ids) filter.PutU64(id), vec << "add_u64 " << id << "\n";
  for (const auto& key : keys) filter.PutKey(key.data(), key.size()), vec << "add_key " << test::ToHex(key) << "\n";
  for (size_t i = 0; i < ids.size(); i += 3) vec << "query_u64 " << ids[i] << " " << filter.TestU64(ids[i]) << "\n";
  for (uint64_t id : test::Keys(500, 1)) vec << "query_u64 " << id << " " << filter.TestU64(id) << "\n";
  for (const auto& key : TextKeys(100, 1)) {
    vec << "query_key " << test::ToHex(key) << " " << filter.TestKey(key.data(), key.size()) << "\n";
  }
  std::vector<uint8_t> bytes(SerializedSize(filter));
  Serialize(filter, bytes.data());
  std::ofstream(dir + "/" + name + ".seen", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Texts of 40 words from a small vocabulary, so that some are near others: text i + 1 shares
// most of text i's words when i is even.
std::vector<std::string> MinhashTexts(uint64_t n) {
  const char* words[] = {"near", "duplicate", "text", "新闻", "推荐", "the", "filter", "window", "seen", "item"};
  std::vector<std::string> texts;
  for (uint64_t i = 0; i < n; ++i) {
    std::string text;
    for (uint64_t w = 0; w < 40; ++w) {
      const uint64_t pick = i % 2 == 1 && w % 8 != 0 ? test::Mix(100 * (i - 1) + w) : test::Mix(100 * i + w);
      text += std::string(words[pick % 10]) + std::to_string(pick % 97) + " ";
    }
    texts.push_back(text);
  }
  return texts;
}

// A MinHash index vector (no kind line: checked by tests/test_minhash_format.cc): options,
// then a script of adds and removes, and queries with the ids they find.
void WriteMinhash(const std::string& dir, const std::string& name, const std::string& about) {
  MinhashOptions options;
  options.seed = 9;
  MinhashIndex index(options, 0.7);
  const std::vector<std::string> texts = MinhashTexts(40);
  std::ofstream vec(dir + "/" + name + ".vec");
  vec << "# " << about << "\n# The index after this script is " << name << ".seen, byte for byte.\n";
  vec << "bins " << options.bins << "\nshingle " << options.shingle << "\nseed " << options.seed << "\nthreshold 0.7\n";
  for (uint64_t i = 0; i < texts.size(); ++i) {
    index.Add(1000 + i, SketchText(texts[i].data(), texts[i].size(), options));
    vec << "add " << 1000 + i << " " << test::ToHex(texts[i]) << "\n";
  }
  index.Remove(1003);
  vec << "remove 1003\n";
  index.Add(1004, SketchText(texts[0].data(), texts[0].size(), options));
  vec << "add 1004 " << test::ToHex(texts[0]) << "\n";
  for (uint64_t i = 0; i < 8; ++i) {
    vec << "query " << test::ToHex(texts[i]);
    for (const auto& m : index.Query(SketchText(texts[i].data(), texts[i].size(), options))) vec << " " << m.id;
    vec << "\n";
  }
  std::vector<uint8_t> bytes(SerializedSize(index));
  Serialize(index, bytes.data());
  std::ofstream(dir + "/" + name + ".seen", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_vectors DIR\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<uint64_t> ids = test::Keys(1000, 0);
  ids.push_back(0);
  ids.push_back(~uint64_t{0});
  std::vector<uint64_t> probe = test::Keys(300, 1);
  probe.insert(probe.end(), ids.begin(), ids.begin() + 50);
  Write(dir, "bloom_u64", "1,002 u64 ids at 1%, seed 42", 1000, 0.01, 42, ids, {}, probe, {});

  std::vector<std::string> keys = TextKeys(500, 0);
  keys.push_back("");
  keys.push_back(std::string("nul\0inside", 10));
  std::vector<std::string> probe_keys = TextKeys(300, 1);
  probe_keys.insert(probe_keys.end(), keys.begin(), keys.begin() + 50);
  probe_keys.push_back("");
  Write(dir, "bloom_keys", "502 UTF-8 and binary keys at 0.1%, seed 7", 500, 0.001, 7, {}, keys, {},
        probe_keys);

  Write(dir, "bloom_mixed_loose", "ids and keys together at 30%, seed 2^64-1: few bits per key",
        60, 0.3, ~uint64_t{0}, test::Keys(40, 0), TextKeys(20, 0), test::Keys(100, 1), TextKeys(100, 1));
  WriteWindow(dir, "window_count_ring", "count window, last 100 items at 1% (fingerprint ring)",
              WindowMode::kCount, 100, 0, 0.01, 31, 0);
  WriteWindow(dir, "window_count_packed", "count window, last 500 items at 1% (packed segments)",
              WindowMode::kCount, 500, 0, 0.01, 34, 0);
  WriteWindow(dir, "window_count_sliced", "count window, last 200 items at 0.1% (bit-sliced segments)",
              WindowMode::kCount, 200, 0, 0.001, 32, 0);
  WriteWindow(dir, "window_time", "time window (a table), last 3600 s expecting 300 items at 1%, clock +120 s every 50 adds",
              WindowMode::kTime, 3600, 300, 0.01, 33, 120);
  WriteCounting(dir, "counting_u64", "counting filter, 600 ids at 1%, seed 51: adds, repeats, removes",
                600, 0.01, 51, test::Keys(600, 0), {}, 0);
  std::vector<std::string> counting_keys = TextKeys(200, 0);
  counting_keys.push_back("");
  WriteCounting(dir, "counting_keys_saturated",
                "counting filter, 100 ids and 201 keys at 10%, seed 52: one id added 40 times saturates",
                300, 0.1, 52, test::Keys(100, 0), counting_keys, 40);
  WriteScalable(dir, "scalable_u64", "scalable filter from 100 ids at a 1% bound (growth 2, tightening 0.5), 1,500 ids: 4 sub-filters",
                {100, 0.01, 2.0, 0.5, 61}, test::Keys(1500, 0), {});
  WriteScalable(dir, "scalable_mixed", "scalable filter from 50 keys at a 5% bound (growth 3, tightening 0.8), ids and keys",
                {50, 0.05, 3.0, 0.8, 62}, test::Keys(300, 0), TextKeys(400, 0));
  WriteMinhash(dir, "minhash_index", "MinHash index of 40 texts at t = 0.7 (128 bins, word pairs, seed 9): one removed, one replaced");
  return 0;
}
