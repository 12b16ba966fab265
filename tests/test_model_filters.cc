// Model-checked filters: Bloom, counting and scalable filters, keyed and not, driven through
// the C API by long random sequences (batches of 1 to 10^4 keys and single-key calls, replays,
// removes, merges, serialize and save round trips in every open mode the kind takes) against
// the exact model of tests/exact_model.h. After every add its keys are found; every few
// thousand operations and after every reopen, every key the model holds is; and the measured
// false-positive rate stays within the rate the filter reports of itself.
#include <gtest/gtest.h>

#include <seen/seen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "tests/exact_model.h"

namespace seen::test {
namespace {

const uint8_t kKey[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
constexpr size_t kSample = 100000;

// One kind's calls, the same shape for all three (H is the handle type).
template <class H>
struct Api {
  seen_status (*add)(H*, const uint64_t*, size_t);
  seen_status (*add_one)(H*, uint64_t);
  seen_status (*contains)(const H*, const uint64_t*, size_t, uint8_t*);
  seen_status (*serialize)(const H*, uint8_t*, size_t, size_t*);
  seen_status (*deserialize)(const uint8_t*, size_t, H**, seen_error*);
  seen_status (*deserialize_keyed)(const uint8_t*, size_t, const uint8_t*, size_t, H**, seen_error*);
  seen_status (*save)(const H*, const char*);
  seen_status (*open_keyed)(const char*, uint32_t, const uint8_t*, size_t, H**, seen_error*);
  void (*free)(H*);
  uint32_t writable_open;  // the mode that keeps a reopened file writable
  double (*predicted_fpr)(const H*);
};

double BloomRate(const seen_bloom* f) {
  seen_bloom_stats s{sizeof s, 0, 0, 0};
  return seen_bloom_get_stats(f, &s) == SEEN_OK ? s.predicted_fpr : -1;
}
double CountingRate(const seen_counting* f) {
  seen_counting_stats s{sizeof s, 0, 0, 0, 0};
  return seen_counting_get_stats(f, &s) == SEEN_OK ? s.predicted_fpr : -1;
}
double ScalableRate(const seen_scalable* f) {
  seen_scalable_info i{};
  i.size = sizeof i;
  return seen_scalable_get_info(f, &i) == SEEN_OK ? i.predicted_fpr : -1;
}

const Api<seen_bloom> kBloom{seen_bloom_add_u64, [](seen_bloom* f, uint64_t k) { return seen_bloom_add_one_u64(f, k, nullptr); }, seen_bloom_contains_u64,
                             seen_bloom_serialize, seen_bloom_deserialize, seen_bloom_deserialize_keyed,
                             seen_bloom_save, seen_bloom_open_keyed, seen_bloom_free,
                             SEEN_OPEN_WRITE_IN_PLACE, BloomRate};
const Api<seen_counting> kCounting{seen_counting_add_u64, seen_counting_add_one_u64, seen_counting_contains_u64,
                                   seen_counting_serialize, seen_counting_deserialize, seen_counting_deserialize_keyed,
                                   seen_counting_save, seen_counting_open_keyed, seen_counting_free,
                                   SEEN_OPEN_WRITE_IN_PLACE, CountingRate};
const Api<seen_scalable> kScalable{seen_scalable_add_u64, [](seen_scalable* f, uint64_t k) { return seen_scalable_add_one_u64(f, k, nullptr); }, seen_scalable_contains_u64,
                                   seen_scalable_serialize, seen_scalable_deserialize, seen_scalable_deserialize_keyed,
                                   seen_scalable_save, seen_scalable_open_keyed, seen_scalable_free,
                                   SEEN_OPEN_PRIVATE_COPY, ScalableRate};

// A filter under test and its model, with the operations of the random sequence.
template <class H>
class Checked {
 public:
  Checked(const Api<H>& api, H* filter, bool keyed, uint64_t seed)
      : api_(api), f_(filter), keyed_(keyed), rng_(seed), keys_(seed), path_(ScratchPath(seed)) {}
  ~Checked() {
    api_.free(f_);
    std::remove(path_.c_str());
  }

  void Add() {
    std::vector<uint64_t> batch(BatchSize(rng_));
    for (uint64_t& k : batch) k = keys_.Pick(rng_, model_.keys(), 0.2);
    if (batch.size() == 1 && rng_() % 2 == 0) {
      ASSERT_EQ(api_.add_one(f_, batch[0]), SEEN_OK);
    } else {
      ASSERT_EQ(api_.add(f_, batch.data(), batch.size()), SEEN_OK);
    }
    for (uint64_t k : batch) model_.Add(k);
    ExpectFound(batch);
  }

  // Every key the model holds; or, to keep long runs linear, a random sample of them.
  void CheckAll(size_t sample = SIZE_MAX) {
    const std::vector<uint64_t>& keys = model_.keys();
    std::vector<uint64_t> must;
    for (size_t i = 0; i < std::min(sample, keys.size()); ++i) {
      const uint64_t k = sample >= keys.size() ? keys[i] : keys[rng_() % keys.size()];
      if (model_.MustFind(k)) must.push_back(k);
    }
    ExpectFound(must);
  }

  // The measured rate over fresh keys stays under what the filter reports, within 4 standard
  // deviations and one key in 10^4 (the report is a prediction from its fill).
  void CheckRate() {
    const double predicted = api_.predicted_fpr(f_);
    ASSERT_GE(predicted, 0);
    const std::vector<uint64_t> absent = keys_.Absent(20000);
    std::vector<uint8_t> out(absent.size());
    ASSERT_EQ(api_.contains(f_, absent.data(), absent.size(), out.data()), SEEN_OK);
    double hits = 0;
    for (uint8_t o : out) hits += o;
    const double measured = hits / absent.size();
    EXPECT_LE(measured, predicted + 4 * std::sqrt(predicted / absent.size()) + 1e-4) << "predicted " << predicted;
  }

  // Serialize and deserialize, or save and open in a mode the kind takes; a read-only open
  // is checked whole, then the file opened again writable.
  void Reopen() {
    const uint8_t* key = keyed_ ? kKey : nullptr;
    const size_t key_len = keyed_ ? sizeof kKey : 0;
    H* next = nullptr;
    seen_error err{};
    if (rng_() % 2 == 0) {
      size_t need = 0;
      ASSERT_EQ(api_.serialize(f_, nullptr, 0, &need), SEEN_OK);
      std::vector<uint8_t> bytes(need);
      ASSERT_EQ(api_.serialize(f_, bytes.data(), bytes.size(), &need), SEEN_OK);
      ASSERT_EQ(keyed_ ? api_.deserialize_keyed(bytes.data(), need, key, key_len, &next, &err)
                       : api_.deserialize(bytes.data(), need, &next, &err),
                SEEN_OK) << err.message;
    } else {
      ASSERT_EQ(api_.save(f_, path_.c_str()), SEEN_OK);
      const uint32_t verify = rng_() % 2 == 0 ? 0 : SEEN_OPEN_NO_VERIFY;
      H* reader = nullptr;
      ASSERT_EQ(api_.open_keyed(path_.c_str(), SEEN_OPEN_READ_ONLY | verify, key, key_len, &reader, &err), SEEN_OK)
          << err.message;
      std::swap(reader, f_);
      CheckAll(kSample);
      std::swap(reader, f_);
      api_.free(reader);
      ASSERT_EQ(api_.open_keyed(path_.c_str(), api_.writable_open | verify, key, key_len, &next, &err), SEEN_OK)
          << err.message;
    }
    api_.free(f_);
    f_ = next;
    CheckAll();
  }

  H* filter() { return f_; }
  SetModel& model() { return model_; }
  std::mt19937_64& rng() { return rng_; }
  KeySource& keys() { return keys_; }

  void ExpectFound(const std::vector<uint64_t>& keys) {
    std::vector<uint8_t> out(keys.size());
    ASSERT_EQ(api_.contains(f_, keys.data(), keys.size(), out.data()), SEEN_OK);
    for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(out[i], 1) << "key " << keys[i] << " was lost";
  }

 private:
  static std::string ScratchPath(uint64_t seed) {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir != nullptr ? dir : "/tmp") + "/seen_model_" + std::to_string(seed) + ".seen";
  }

  const Api<H>& api_;
  H* f_;
  bool keyed_;
  std::mt19937_64 rng_;
  KeySource keys_;
  SetModel model_;
  std::string path_;
};

// The sequence every filter runs: mostly adds; now and then a check of a sample, a rate
// check, a reopen (checked whole), and whatever `extra` does for the kind (removes, merges);
// at the end a check of every key.
template <class H, class Extra>
void Drive(Checked<H>& c, uint64_t ops, Extra extra) {
  for (uint64_t op = 0; op < ops && !::testing::Test::HasFatalFailure(); ++op) {
    const uint64_t r = c.rng()() % 100000;
    if (r < 2) c.Reopen();
    else if (r < 10) c.CheckAll(kSample);
    else if (r < 15) c.CheckRate();
    else if (r < 10000) extra(c);
    else c.Add();
  }
  if (!::testing::Test::HasFatalFailure()) c.CheckAll();
}

class ModelFilters : public ::testing::TestWithParam<bool> {};  // keyed or not

// Operations per run: the keyed runs take a quarter. Filters are sized for the keys a run adds.
uint64_t Ops(bool keyed) { return keyed ? ModelOps() / 4 : ModelOps(); }
uint64_t Capacity(bool keyed) { return 8 * Ops(keyed); }

TEST_P(ModelFilters, Bloom) {
  const bool keyed = GetParam();
  seen_bloom* f = nullptr;
  ASSERT_EQ(keyed ? seen_bloom_create_keyed(Capacity(keyed), 0.01, kKey, sizeof kKey, &f, nullptr)
                  : seen_bloom_create(Capacity(keyed), 0.01, 1, &f, nullptr),
            SEEN_OK);
  Checked<seen_bloom> c(kBloom, f, keyed, 101 + keyed);
  // Merges: a copy given keys of its own, ORed back in; the model takes the union.
  Drive(c, Ops(keyed), [&](Checked<seen_bloom>& c) {
    if (c.rng()() % 1000 != 0) return c.Add();
    seen_bloom* other = nullptr;
    ASSERT_EQ(seen_bloom_copy(c.filter(), &other), SEEN_OK);
    ASSERT_EQ(seen_bloom_clear(other), SEEN_OK);
    std::vector<uint64_t> keys(1 + c.rng()() % 100);
    for (uint64_t& k : keys) k = c.keys().Fresh();
    ASSERT_EQ(seen_bloom_add_u64(other, keys.data(), keys.size()), SEEN_OK);
    ASSERT_EQ(seen_bloom_merge(c.filter(), other), SEEN_OK);
    seen_bloom_free(other);
    for (uint64_t k : keys) c.model().Add(k);
    c.ExpectFound(keys);
  });
}

TEST_P(ModelFilters, Counting) {
  const bool keyed = GetParam();
  seen_counting* f = nullptr;
  ASSERT_EQ(keyed ? seen_counting_create_keyed(Capacity(keyed), 0.01, kKey, sizeof kKey, &f, nullptr)
                  : seen_counting_create(Capacity(keyed), 0.01, 2, &f, nullptr),
            SEEN_OK);
  Checked<seen_counting> c(kCounting, f, keyed, 201 + keyed);
  // Removes of keys the model holds, one at a time or in batches; a remove of a key added
  // more often than removed must succeed.
  Drive(c, Ops(keyed), [&](Checked<seen_counting>& c) {
    const std::vector<uint64_t>& known = c.model().keys();
    if (known.empty()) return c.Add();
    std::vector<uint64_t> batch;
    for (size_t i = 0, n = 1 + c.rng()() % 20; i < n; ++i) {
      const uint64_t k = known[c.rng()() % known.size()];
      if (c.model().MustFind(k) && std::find(batch.begin(), batch.end(), k) == batch.end()) batch.push_back(k);
    }
    if (batch.empty()) return;
    std::vector<uint8_t> removed(batch.size());
    if (batch.size() == 1) {
      ASSERT_EQ(seen_counting_remove_one_u64(c.filter(), batch[0]), SEEN_OK);
    } else {
      ASSERT_EQ(seen_counting_remove_u64(c.filter(), batch.data(), batch.size(), removed.data()), SEEN_OK);
      for (uint8_t r : removed) ASSERT_EQ(r, 1);
    }
    for (uint64_t k : batch) c.model().Remove(k);
  });
}

TEST_P(ModelFilters, Scalable) {
  const bool keyed = GetParam();
  seen_scalable_options o{};
  o.size = sizeof o;
  o.initial_capacity = 1000;
  o.fpr = 0.01;
  o.seed = 3;
  o.key = keyed ? kKey : nullptr;
  o.key_len = keyed ? sizeof kKey : 0;
  seen_scalable* f = nullptr;
  ASSERT_EQ(seen_scalable_create(&o, &f, nullptr), SEEN_OK);
  Checked<seen_scalable> c(kScalable, f, keyed, 301 + keyed);
  Drive(c, Ops(keyed), [](Checked<seen_scalable>& c) { c.Add(); });
}

INSTANTIATE_TEST_SUITE_P(Keyed, ModelFilters, ::testing::Values(false, true));

}  // namespace
}  // namespace seen::test
