// Model-checked exposure windows and stores: every layout (ring, packed, sliced, table, growing), at
// the default cap and at a tiny one, keyed and not, driven through the C API by long random
// sequences (marks of 1 to 10^4 items and replays, clocks that step, stall, go back and jump
// past the span, round trips through bytes and files) against the exact model of
// tests/exact_model.h. An item must be found while the model says so within the effective
// span the window reports; the items of the call just made always are; and the rate the
// window reports is the rate fresh items meet.
#include <gtest/gtest.h>

#include <seen/seen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <random>
#include <string>
#include <vector>

#include "tests/exact_model.h"

namespace seen::test {
namespace {

const uint8_t kKey[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};

struct Case {
  const char* name;
  uint32_t mode, span, expected_items;
  double fpr;
  uint64_t max_bytes;
  uint32_t layout;  // what sizing must pick
  bool keyed;
};

std::string Name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

seen_window_options Options(const Case& c) {
  seen_window_options o{};
  o.size = sizeof o;
  o.mode = c.mode;
  o.span = c.span;
  o.expected_items = c.expected_items;
  o.fpr = c.fpr;
  o.seed = 5;
  o.max_bytes = c.max_bytes;
  o.key = c.keyed ? kKey : nullptr;
  o.key_len = c.keyed ? sizeof kKey : 0;
  return o;
}

// The clock: mostly still or a few seconds on; sometimes back (never below 0), a tenth of the
// span on, or past the whole span.
uint32_t Step(std::mt19937_64& rng, uint32_t now, uint32_t span) {
  const uint64_t r = rng() % 1000;
  if (r < 600) return now;
  if (r < 900) return now + 1 + static_cast<uint32_t>(rng() % 5);
  if (r < 950) return now > 10 ? now - 1 - static_cast<uint32_t>(rng() % 10) : now;
  if (r < 995) return now + span / 10;
  return now + span + span / 2;
}

template <class Known>
std::vector<uint64_t> Marks(std::mt19937_64& rng, KeySource& keys, const Known& known) {
  std::vector<uint64_t> items(BatchSize(rng));
  for (uint64_t& i : items) i = keys.Pick(rng, known, 0.3);
  return items;
}

// What must be found of the items of one call: all of them, or of a count window, the last
// `span` (a call may mark more than the window holds).
std::vector<uint64_t> LastOf(const std::vector<uint64_t>& items, const Case& c) {
  const size_t kept = c.mode == SEEN_WINDOW_TIME ? items.size() : std::min<size_t>(items.size(), c.span);
  return {items.end() - static_cast<std::ptrdiff_t>(kept), items.end()};
}

// One window and its model. Count windows keep the last `span` marks; time windows each
// item's latest clock.
class CheckedWindow {
 public:
  explicit CheckedWindow(const Case& c) : c_(c), count_(c.span), rng_(c.span ^ c.max_bytes ^ c.keyed), keys_(7) {
    const seen_window_options o = Options(c);
    seen_error err{};
    EXPECT_EQ(seen_window_create(&o, now_, &w_, &err), SEEN_OK) << err.message;
    seen_window_info info{};
    info.size = sizeof info;
    EXPECT_EQ(seen_window_get_info(w_, &info), SEEN_OK);
    EXPECT_EQ(info.layout, c.layout);
  }
  ~CheckedWindow() { seen_window_free(w_); }

  void Mark() {
    const std::vector<uint64_t> items =
        c_.mode == SEEN_WINDOW_TIME ? Marks(rng_, keys_, time_.items()) : Marks(rng_, keys_, count_.must_find());
    ASSERT_EQ(seen_window_add_u64(w_, items.data(), items.size(), now_), SEEN_OK);
    for (uint64_t i : items) {
      if (c_.mode == SEEN_WINDOW_TIME) time_.Mark(i, now_);
      else count_.Mark(i);
    }
    // The items of the call just made, whatever the cap: the current segment is never given up
    // (of a count window, those among its last `span`).
    ExpectFound(LastOf(items, c_));
  }

  void Tick() {
    if (c_.mode == SEEN_WINDOW_TIME) now_ = Step(rng_, now_, c_.span);
  }

  void CheckAll() {
    std::vector<uint64_t> must;
    if (c_.mode == SEEN_WINDOW_COUNT) {
      must.assign(count_.must_find().begin(), count_.must_find().end());
    } else {
      // Items older than two spans are never needed again (the clock goes back by seconds).
      time_.Prune(int64_t{now_} - 2 * int64_t{c_.span});
      const uint32_t effective = Saturation().effective_span;
      for (uint64_t i : time_.items()) {
        if (time_.MustFind(i, now_, effective)) must.push_back(i);
      }
    }
    ExpectFound(must);
  }

  // What the window reports of itself matches what fresh items meet: within 4 standard
  // deviations and 3 in 10^3 (the report is a prediction from the fill), and a rate above the
  // target is flagged.
  void CheckRate() {
    const seen_window_saturation sat = Saturation();
    const std::vector<uint64_t> fresh = keys_.Absent(5000);
    std::vector<uint8_t> out(fresh.size());
    ASSERT_EQ(seen_window_contains_u64(w_, fresh.data(), fresh.size(), now_, out.data()), SEEN_OK);
    double hits = 0;
    for (uint8_t o : out) hits += o;
    const double measured = hits / fresh.size();
    const double p = sat.predicted_fpr;
    EXPECT_NEAR(measured, p, 4 * std::sqrt(std::max(p, 1e-4) / fresh.size()) + 0.003 + 0.1 * p)
        << "measured " << measured << ", reported " << p << " at fill " << sat.fill;
    EXPECT_EQ(sat.over_target, p > c_.fpr ? 1u : 0u);
  }

  void Reopen() {
    size_t need = 0;
    ASSERT_EQ(seen_window_serialize(w_, nullptr, 0, &need), SEEN_OK);
    std::vector<uint8_t> bytes(need);
    ASSERT_EQ(seen_window_serialize(w_, bytes.data(), bytes.size(), &need), SEEN_OK);
    seen_window* back = nullptr;
    seen_error err{};
    ASSERT_EQ(c_.keyed ? seen_window_deserialize_keyed(bytes.data(), need, kKey, sizeof kKey, &back, &err)
                       : seen_window_deserialize(bytes.data(), need, &back, &err),
              SEEN_OK) << err.message;
    seen_window_free(w_);
    w_ = back;
    CheckAll();
  }

  std::mt19937_64& rng() { return rng_; }
  uint32_t now() const { return now_; }

 private:
  seen_window_saturation Saturation() {
    seen_window_saturation sat{};
    sat.size = sizeof sat;
    EXPECT_EQ(seen_window_get_saturation(w_, now_, &sat), SEEN_OK);
    return sat;
  }

  void ExpectFound(const std::vector<uint64_t>& items) {
    std::vector<uint8_t> out(items.size());
    ASSERT_EQ(seen_window_contains_u64(w_, items.data(), items.size(), now_, out.data()), SEEN_OK);
    for (size_t i = 0; i < items.size(); ++i) ASSERT_EQ(out[i], 1) << "item " << items[i] << " lost at " << now_;
  }

  Case c_;
  seen_window* w_ = nullptr;
  uint32_t now_ = 100000;
  CountModel count_;
  TimeModel time_;
  std::mt19937_64 rng_;
  KeySource keys_;
};

class ModelWindows : public ::testing::TestWithParam<Case> {};

TEST_P(ModelWindows, NeverLoseAnItemTheModelHolds) {
  CheckedWindow w(GetParam());
  const uint64_t ops = GetParam().keyed ? ModelOps() / 4 : ModelOps();
  for (uint64_t op = 0; op < ops && !HasFatalFailure(); ++op) {
    const uint64_t r = w.rng()() % 100000;
    if (r < 5) w.Reopen();
    else if (r < 15) w.CheckAll();
    else if (r < 25) w.CheckRate();
    else if (r < 50000) w.Mark();
    else w.Tick();
  }
  if (!HasFatalFailure()) w.CheckAll();
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, ModelWindows,
    ::testing::Values(Case{"ring", SEEN_WINDOW_COUNT, 100, 0, 0.01, 0, 1, false},
                      Case{"packed", SEEN_WINDOW_COUNT, 500, 0, 0.01, 0, 5, false},
                      Case{"packed_small_segments", SEEN_WINDOW_COUNT, 300, 0, 0.01, 0, 5, false},
                      Case{"sliced", SEEN_WINDOW_COUNT, 20000, 0, 0.01, 0, 2, false},
                      Case{"table", SEEN_WINDOW_TIME, 3600, 1000, 0.01, 0, 4, false},
                      Case{"table_tiny_cap", SEEN_WINDOW_TIME, 3600, 1000, 0.01, 4096, 4, false},
                      Case{"growing", SEEN_WINDOW_TIME, 3600, 1000, 0.0001, 0, 3, false},
                      Case{"growing_tiny_cap", SEEN_WINDOW_TIME, 3600, 1000, 0.0001, 20000, 3, false},
                      Case{"ring_keyed", SEEN_WINDOW_COUNT, 100, 0, 0.01, 0, 1, true},
                      Case{"packed_keyed", SEEN_WINDOW_COUNT, 500, 0, 0.01, 0, 5, true},
                      Case{"table_keyed", SEEN_WINDOW_TIME, 3600, 1000, 0.01, 0, 4, true}),
    Name);

// A store of many users, each with a window and a model: marks, filters and takes at a
// moving clock, saves and opens read-only (checked whole) and as a private copy.
class ModelStores : public ::testing::TestWithParam<Case> {};

TEST_P(ModelStores, NeverLoseAnItemTheModelHolds) {
  const Case c = GetParam();
  const seen_window_options wo = Options(c);
  seen_store_options so{};
  so.size = sizeof so;
  so.window = &wo;
  so.idle_timeout = UINT32_MAX;  // never: idleness is counted in hours, which a model cannot follow
  so.expected_users = 64;
  seen_store* s = nullptr;
  seen_error err{};
  ASSERT_EQ(seen_store_create(&so, &s, &err), SEEN_OK) << err.message;
  std::mt19937_64 rng(c.span + 17);
  KeySource keys(11);
  uint32_t now = 100000;
  std::map<uint64_t, TimeModel> time;
  std::map<uint64_t, CountModel> count;
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/seen_model_store_" + c.name;

  auto must_find = [&](uint64_t user) {
    std::vector<uint64_t> must;
    if (c.mode == SEEN_WINDOW_COUNT) {
      const auto& marks = count.emplace(user, CountModel(c.span)).first->second.must_find();
      must.assign(marks.begin(), marks.end());
      return must;
    }
    seen_window_saturation sat{};
    sat.size = sizeof sat;
    if (seen_store_get_user_saturation(s, user, now, &sat) != SEEN_OK) return must;
    time[user].Prune(int64_t{now} - 2 * int64_t{c.span});
    for (uint64_t i : time[user].items()) {
      if (time[user].MustFind(i, now, sat.effective_span)) must.push_back(i);
    }
    return must;
  };
  auto expect_seen = [&](uint64_t user, const std::vector<uint64_t>& items) {
    std::vector<uint8_t> unseen(items.size());
    ASSERT_EQ(seen_store_filter(s, user, items.data(), items.size(), now, unseen.data()), SEEN_OK);
    for (size_t i = 0; i < items.size(); ++i) ASSERT_EQ(unseen[i], 0) << "user " << user << " lost " << items[i];
  };
  auto record = [&](uint64_t user, const std::vector<uint64_t>& items) {
    for (uint64_t i : items) {
      if (c.mode == SEEN_WINDOW_TIME) time[user].Mark(i, now);
      else count.emplace(user, CountModel(c.span)).first->second.Mark(i);
    }
  };

  const uint64_t ops = ModelOps() / 2;
  for (uint64_t op = 0; op < ops && !HasFatalFailure(); ++op) {
    const uint64_t user = rng() % 2 == 0 ? rng() % 4 : rng() % 64;  // a few heavy users
    const uint64_t r = rng() % 100000;
    if (r < 5) {
      ASSERT_EQ(seen_store_save(s, path.c_str()), SEEN_OK);
      seen_store_free(s);
      const uint8_t* key = c.keyed ? kKey : nullptr;
      const size_t key_len = c.keyed ? sizeof kKey : 0;
      ASSERT_EQ(seen_store_open_keyed(path.c_str(), SEEN_OPEN_READ_ONLY, key, key_len, &s, &err), SEEN_OK) << err.message;
      for (uint64_t u = 0; u < 64; ++u) expect_seen(u, must_find(u));
      seen_store_free(s);
      ASSERT_EQ(seen_store_open_keyed(path.c_str(), SEEN_OPEN_PRIVATE_COPY, key, key_len, &s, &err), SEEN_OK) << err.message;
    } else if (r < 50) {
      expect_seen(user, must_find(user));
    } else if (r < 30000) {
      const std::vector<uint64_t> items = c.mode == SEEN_WINDOW_TIME ? Marks(rng, keys, time[user].items())
                                                                     : Marks(rng, keys, count.emplace(user, CountModel(c.span)).first->second.must_find());
      ASSERT_EQ(seen_store_mark(s, user, items.data(), items.size(), now), SEEN_OK);
      record(user, items);
      expect_seen(user, LastOf(items, c));
    } else if (r < 32000) {
      // A take: candidates old and new; what it takes is then seen, and it never takes an
      // item the model says the user was shown.
      const std::vector<uint64_t> known = must_find(user);
      const std::vector<uint64_t> candidates = Marks(rng, keys, known);
      const std::set<uint64_t> shown(known.begin(), known.end());
      std::vector<uint64_t> taken(candidates.size());
      size_t n = 0;
      ASSERT_EQ(seen_store_take(s, user, candidates.data(), candidates.size(), 1 + rng() % candidates.size(), now,
                                taken.data(), &n), SEEN_OK);
      taken.resize(n);
      for (uint64_t t : taken) ASSERT_EQ(shown.count(t), 0u) << "took a shown item";
      record(user, taken);
      expect_seen(user, LastOf(taken, c));
    } else if (c.mode == SEEN_WINDOW_TIME) {
      now = Step(rng, now, c.span);
    }
  }
  for (uint64_t u = 0; u < 64 && !HasFatalFailure(); ++u) expect_seen(u, must_find(u));
  seen_store_free(s);
  std::remove(path.c_str());
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, ModelStores,
    ::testing::Values(Case{"count", SEEN_WINDOW_COUNT, 500, 0, 0.01, 0, 5, false},
                      Case{"count_ring", SEEN_WINDOW_COUNT, 100, 0, 0.01, 0, 1, false},
                      Case{"table", SEEN_WINDOW_TIME, 3600, 200, 0.01, 0, 4, false},
                      Case{"table_tiny_cap_keyed", SEEN_WINDOW_TIME, 3600, 200, 0.01, 4096, 4, true}),
    Name);

}  // namespace
}  // namespace seen::test
