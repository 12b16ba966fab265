// The behaviour cases of tests/vectors/conformance.cases through the C API, the answers each
// binding must give too (the file's head says what each line means). C rounds nothing itself,
// so `len` pins the estimate the bindings round: within half of the count, half up.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "capi/seen.h"

namespace {

using Words = std::vector<std::string>;

struct Case {
  std::string name;
  std::vector<Words> lines;
};

std::vector<Case> ReadCases() {
  std::ifstream in(SEEN_SOURCE_DIR "/tests/vectors/conformance.cases");
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line.substr(0, line.find('#')));
    Words w;
    for (std::string word; words >> word;) w.push_back(word);
    if (w.empty()) continue;
    if (w[0] == "case") cases.push_back({w.at(1), {}});
    else cases.back().lines.push_back(w);
  }
  return cases;
}

// The estimate as every binding rounds it: half up, at most 2^63 - 1.
uint64_t Rounded(double estimate) {
  if (!(estimate < 9223372036854775807.0)) return 9223372036854775807ULL;
  const double whole = std::floor(estimate);
  return static_cast<uint64_t>(whole) + (estimate - whole >= 0.5);
}

// A Bloom or a counting filter, behind the calls the cases make.
class Filter {
 public:
  // The status of the create; the filter exists only on SEEN_OK.
  seen_status Create(const Words& w, seen_error* err) {
    counting_ = w.at(1) == "counting";
    const uint64_t capacity = std::stoull(w.at(2));
    const double fpr = w.at(3) == "default" ? SEEN_DEFAULT_FPR : std::strtod(w.at(3).c_str(), nullptr);
    const uint64_t seed = std::stoull(w.at(4));
    return counting_ ? seen_counting_create(capacity, fpr, seed, &counting_filter_, err)
                     : seen_bloom_create(capacity, fpr, seed, &bloom_, err);
  }
  ~Filter() {
    seen_bloom_free(bloom_);
    seen_counting_free(counting_filter_);
  }

  void Add(uint64_t id) {
    ASSERT_EQ(counting_ ? seen_counting_add_one_u64(counting_filter_, id) : seen_bloom_add_one_u64(bloom_, id, nullptr),
              SEEN_OK);
  }
  void Add(const std::string& key) {
    ASSERT_EQ(counting_ ? seen_counting_add_one_key(counting_filter_, key.data(), key.size())
                        : seen_bloom_add_one_key(bloom_, key.data(), key.size(), nullptr),
              SEEN_OK);
  }
  int Contains(uint64_t id) const {
    return counting_ ? seen_counting_contains_one_u64(counting_filter_, id) : seen_bloom_contains_one_u64(bloom_, id);
  }
  int Contains(const std::string& key) const {
    return counting_ ? seen_counting_contains_one_key(counting_filter_, key.data(), key.size())
                     : seen_bloom_contains_one_key(bloom_, key.data(), key.size());
  }
  double Estimate() const {
    if (counting_) {
      seen_counting_stats s{sizeof s};
      EXPECT_EQ(seen_counting_get_stats(counting_filter_, &s), SEEN_OK);
      return s.approx_items;
    }
    seen_bloom_stats s{sizeof s};
    EXPECT_EQ(seen_bloom_get_stats(bloom_, &s), SEEN_OK);
    return s.approx_items;
  }
  uint64_t Bytes() const {
    if (counting_) {
      seen_counting_info i{sizeof i};
      EXPECT_EQ(seen_counting_get_info(counting_filter_, &i), SEEN_OK);
      return i.bytes;
    }
    seen_bloom_info i{sizeof i};
    EXPECT_EQ(seen_bloom_get_info(bloom_, &i), SEEN_OK);
    return i.bytes;
  }
  seen_status Merge(const Filter& other) { return seen_bloom_merge(bloom_, other.bloom_); }
  seen_status Intersect(const Filter& other) { return seen_bloom_intersect(bloom_, other.bloom_); }
  seen_status Covers(const Filter& other, int* covers) const { return seen_bloom_covers(bloom_, other.bloom_, covers); }
  // Replaces the filter by one read back from its serialized bytes.
  void RoundTrip() {
    size_t size = 0;
    std::vector<uint8_t> bytes;
    if (counting_) {
      ASSERT_EQ(seen_counting_serialize(counting_filter_, nullptr, 0, &size), SEEN_OK);
      bytes.resize(size);
      ASSERT_EQ(seen_counting_serialize(counting_filter_, bytes.data(), size, &size), SEEN_OK);
      seen_counting_free(counting_filter_);
      ASSERT_EQ(seen_counting_deserialize(bytes.data(), size, &counting_filter_, nullptr), SEEN_OK);
      return;
    }
    ASSERT_EQ(seen_bloom_serialize(bloom_, nullptr, 0, &size), SEEN_OK);
    bytes.resize(size);
    ASSERT_EQ(seen_bloom_serialize(bloom_, bytes.data(), size, &size), SEEN_OK);
    seen_bloom_free(bloom_);
    ASSERT_EQ(seen_bloom_deserialize(bytes.data(), size, &bloom_, nullptr), SEEN_OK);
  }

 private:
  bool counting_ = false;
  seen_bloom* bloom_ = nullptr;
  seen_counting* counting_filter_ = nullptr;
};

// "OK", "INVALID_ARGUMENT", ...: the status name without its prefix, as the cases spell it.
std::string StatusName(seen_status status) {
  const std::string name = seen_status_string(status);
  return name.substr(name.rfind("SEEN_ERR_", 0) == 0 ? 9 : 5);
}

void RunCase(const Case& c) {
  Filter filter, other;
  seen_status created = SEEN_OK;  // of the last create or sizing
  seen_error err{};
  uint64_t sized_bytes = 0;
  uint32_t sized_k = 0;
  double sized_fpr = 0;
  for (const Words& w : c.lines) {
    const std::string& op = w[0];
    SCOPED_TRACE(op);
    if (op == "create") {
      created = filter.Create(w, &err);
    } else if (op == "error") {
      EXPECT_EQ(StatusName(created), w.at(1));
      if (w.size() > 2) EXPECT_NE(std::string(err.message).find(w[2]), std::string::npos) << err.message;
    } else if (op == "add_u64" || op == "other_add_u64") {
      for (size_t i = 1; i < w.size(); ++i) (op == "add_u64" ? filter : other).Add(std::stoull(w[i]));
    } else if (op == "add_u64_range") {
      for (uint64_t id = std::stoull(w.at(1)); id < std::stoull(w.at(2)); ++id) filter.Add(id);
    } else if (op == "add_str") {
      for (size_t i = 1; i < w.size(); ++i) filter.Add(w[i]);
    } else if (op == "len") {
      EXPECT_EQ(Rounded(filter.Estimate()), std::stoull(w.at(1))) << filter.Estimate();
    } else if (op == "has_u64" || op == "lacks_u64") {
      for (size_t i = 1; i < w.size(); ++i) EXPECT_EQ(filter.Contains(std::stoull(w[i])), op == "has_u64") << w[i];
    } else if (op == "has_str" || op == "lacks_str") {
      for (size_t i = 1; i < w.size(); ++i) EXPECT_EQ(filter.Contains(w[i]), op == "has_str") << w[i];
    } else if (op == "bytes") {
      EXPECT_EQ(filter.Bytes(), std::stoull(w.at(1)));
    } else if (op == "other") {
      ASSERT_EQ(other.Create(w, nullptr), SEEN_OK);
    } else if (op == "merge") {
      EXPECT_EQ(StatusName(filter.Merge(other)), w.size() > 1 ? w[1] : "OK");
    } else if (op == "intersect") {
      EXPECT_EQ(StatusName(filter.Intersect(other)), w.size() > 1 ? w[1] : "OK");
    } else if (op == "covers") {
      int covers = -1;
      const seen_status status = filter.Covers(other, &covers);
      EXPECT_EQ(status == SEEN_OK ? (covers ? "true" : "false") : StatusName(status), w.at(1));
    } else if (op == "round_trip") {
      filter.RoundTrip();
    } else if (op == "size_for") {
      sized_fpr = std::strtod(w.at(2).c_str(), nullptr);
      created = seen_bloom_size_for(std::stoull(w.at(1)), sized_fpr, &sized_bytes, &sized_k, &err);
    } else if (op == "predict_fpr") {
      sized_bytes = std::stoull(w.at(2));
      created = seen_bloom_predict_fpr(std::stoull(w.at(1)), sized_bytes, &sized_fpr, &sized_k, &err);
    } else if (op == "sized") {
      EXPECT_EQ(sized_bytes, std::stoull(w.at(1)));
      EXPECT_EQ(sized_k, std::stoul(w.at(2)));
      // To 1 part in 10^12: arm64 contracts the sizing's products into fused multiply-adds.
      if (w.size() > 3) {
        const double expected = std::strtod(w[3].c_str(), nullptr);
        EXPECT_NEAR(sized_fpr, expected, 1e-12 * expected);
      }
    } else {
      FAIL() << "unknown line " << op;
    }
  }
}

TEST(CapiConformance, EveryCase) {
  const std::vector<Case> cases = ReadCases();
  ASSERT_GT(cases.size(), 10u);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // C takes capacities as uint64_t: a negative one cannot be written here.
    const bool negative = std::any_of(c.lines.begin(), c.lines.end(),
                                      [](const Words& w) { return w[0] == "create" && w.at(2)[0] == '-'; });
    if (negative) continue;
    RunCase(c);
  }
}

}  // namespace
