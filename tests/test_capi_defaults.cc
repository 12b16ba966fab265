// An options struct left zero (only its size set) gets the core's defaults (core/defaults.h):
// each case compares what the C API makes from zeros with what it makes from the core's
// values spelled out, so a default repeated (and changed) anywhere above the core fails.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "capi/seen.h"
#include "core/defaults.h"

namespace {

namespace d = seen::defaults;

seen_window_options CountWindow(double max_slack) {
  seen_window_options o{};
  o.size = sizeof o;
  o.mode = SEEN_WINDOW_COUNT;
  o.span = 1000;
  o.fpr = 0.01;
  o.max_slack = max_slack;
  return o;
}

seen_window_info InfoOf(const seen_window_options& opts) {
  seen_window* w = nullptr;
  EXPECT_EQ(seen_window_create(&opts, 0, &w, nullptr), SEEN_OK);
  seen_window_info info{};
  info.size = sizeof info;
  EXPECT_EQ(seen_window_get_info(w, &info), SEEN_OK);
  seen_window_free(w);
  return info;
}

TEST(CapiDefaults, WindowSlack) {
  const seen_window_info zero = InfoOf(CountWindow(0));
  const seen_window_info core = InfoOf(CountWindow(d::kWindowMaxSlack));
  EXPECT_EQ(std::memcmp(&zero, &core, sizeof zero), 0);
  EXPECT_LE(zero.slack, d::kWindowMaxSlack);
}

TEST(CapiDefaults, ScalableGrowthAndTightening) {
  seen_scalable_options o{};
  o.size = sizeof o;
  o.initial_capacity = 1000;
  o.fpr = 0.01;
  seen_scalable* f = nullptr;
  ASSERT_EQ(seen_scalable_create(&o, &f, nullptr), SEEN_OK);
  seen_scalable_info info{};
  info.size = sizeof info;
  ASSERT_EQ(seen_scalable_get_info(f, &info), SEEN_OK);
  EXPECT_EQ(info.growth, d::kScalableGrowth);
  EXPECT_EQ(info.tightening, d::kScalableTightening);
  seen_scalable_free(f);
}

// A user marked at 0 is kept until the idle timeout has passed (the store counts in hours).
TEST(CapiDefaults, StoreIdleTimeoutAndExpectedUsers) {
  const seen_window_options window = CountWindow(0);
  auto make = [&](uint32_t idle_timeout, uint64_t expected_users) {
    seen_store_options o{};
    o.size = sizeof o;
    o.window = &window;
    o.idle_timeout = idle_timeout;
    o.expected_users = expected_users;
    seen_store* s = nullptr;
    EXPECT_EQ(seen_store_create(&o, &s, nullptr), SEEN_OK);
    return s;
  };
  auto bytes = [](const seen_store* s) {
    seen_store_stats stats{};
    stats.size = sizeof stats;
    EXPECT_EQ(seen_store_get_stats(s, &stats), SEEN_OK);
    return stats.bytes;
  };
  seen_store* zero = make(0, 0);
  seen_store* core = make(d::kStoreIdleTimeout, d::kStoreExpectedUsers);
  EXPECT_EQ(bytes(zero), bytes(core));
  const uint64_t item = 7;
  ASSERT_EQ(seen_store_mark(zero, 1, &item, 1, 0), SEEN_OK);
  uint64_t dropped = 99;
  ASSERT_EQ(seen_store_expire(zero, d::kStoreIdleTimeout - 3600, &dropped), SEEN_OK);
  EXPECT_EQ(dropped, 0u) << "dropped before the default idle timeout";
  ASSERT_EQ(seen_store_expire(zero, d::kStoreIdleTimeout + 2 * 3600, &dropped), SEEN_OK);
  EXPECT_EQ(dropped, 1u) << "kept past the default idle timeout";
  seen_store_free(zero);
  seen_store_free(core);
}

// ngram only shapes CJK text: 2 and 3 give different fingerprints for this one.
TEST(CapiDefaults, SimhashNgram) {
  const std::string text = "今天天气很好，我们一起去公园散步，然后去图书馆看书。";
  auto fingerprint = [&](uint32_t ngram) {
    seen_simhash_options o{};
    o.size = sizeof o;
    o.ngram = ngram;
    seen_simhash_fingerprint fp{};
    fp.size = sizeof fp;
    EXPECT_EQ(seen_simhash_text(text.data(), text.size(), &o, &fp, nullptr), SEEN_OK);
    return fp.simhash;
  };
  EXPECT_EQ(fingerprint(0), fingerprint(d::kSimhashNgram));
  EXPECT_NE(fingerprint(0), fingerprint(d::kSimhashNgram + 1)) << "the text cannot tell ngrams apart";
}

// An index's bytes hold its bins, shingle and threshold.
TEST(CapiDefaults, MinhashBinsShingleAndThreshold) {
  auto serialized = [](const seen_minhash_options& o) {
    seen_minhash_index* index = nullptr;
    EXPECT_EQ(seen_minhash_index_create(&o, &index, nullptr), SEEN_OK);
    const char text[] = "the committee met on tuesday to review the annual budget";
    EXPECT_EQ(seen_minhash_index_add_text(index, 1, text, sizeof text - 1), SEEN_OK);
    size_t n = 0;
    EXPECT_EQ(seen_minhash_index_serialize(index, nullptr, 0, &n), SEEN_OK);
    std::vector<uint8_t> bytes(n);
    EXPECT_EQ(seen_minhash_index_serialize(index, bytes.data(), n, &n), SEEN_OK);
    seen_minhash_index_free(index);
    return bytes;
  };
  seen_minhash_options zero{};
  zero.size = sizeof zero;
  seen_minhash_options core = zero;
  core.bins = d::kMinhashBins;
  core.shingle = d::kMinhashShingle;
  core.threshold = d::kMinhashThreshold;
  EXPECT_EQ(serialized(zero), serialized(core));
  seen_minhash_options other = core;
  other.threshold = 0.5;
  EXPECT_NE(serialized(zero), serialized(other)) << "the bytes do not hold the threshold";
}

}  // namespace
