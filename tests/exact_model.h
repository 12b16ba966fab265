// The exact expected state that the model-checked tests (test_model_filters.cc,
// test_model_windows.cc) keep beside each structure, in the manner of RocksDB's db_stress:
// which keys a later query must find. A structure may find more (false positives), never
// fewer. Also the random shapes of their workloads: batch sizes of 1 to 10^4, keys old and new.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace seen::test {

// How many operations each kind runs: 10^6 by default, fewer where SEEN_MODEL_OPS says so
// (the sanitizer build, whose every call is many times slower).
inline uint64_t ModelOps(uint64_t fallback = 1000000) {
  const char* text = std::getenv("SEEN_MODEL_OPS");
  return text != nullptr ? std::strtoull(text, nullptr, 10) : fallback;
}

// Mostly single keys, as most callers send them; then small, large and rare huge batches:
// about 7 keys a call on average.
inline size_t BatchSize(std::mt19937_64& rng) {
  const uint64_t r = rng() % 100000;
  if (r < 80000) return 1;
  if (r < 99490) return 2 + rng() % 30;
  if (r < 99990) return 32 + rng() % 1000;
  return 1000 + rng() % 9001;
}

// Keys the workload adds: fresh ones from a counter (so none is added by accident), or one it
// added before (replays, repeated shows).
class KeySource {
 public:
  explicit KeySource(uint64_t stream) : next_(stream << 40) {}
  uint64_t Fresh() { return next_++; }
  // A key from `known` (any indexable container) with probability `again`, else a fresh one.
  template <class Known>
  uint64_t Pick(std::mt19937_64& rng, const Known& known, double again) {
    if (!known.empty() && std::uniform_real_distribution<double>(0, 1)(rng) < again) return known[rng() % known.size()];
    return Fresh();
  }
  // Keys never added, for measuring the false-positive rate.
  std::vector<uint64_t> Absent(size_t n) {
    std::vector<uint64_t> keys(n);
    for (uint64_t& k : keys) k = (uint64_t{1} << 63) | absent_++;
    return keys;
  }

 private:
  uint64_t next_;
  uint64_t absent_ = 0;
};

// Filters: a key added (and, for a counting filter, removed fewer times than added) must be
// found. `keys` lists each key once, for sampling.
class SetModel {
 public:
  void Add(uint64_t key) {
    if (count_[key]++ == 0) keys_.push_back(key);
  }
  // Counting filters: a remove of a key the model holds.
  void Remove(uint64_t key) {
    auto it = count_.find(key);
    if (it != count_.end() && it->second > 0) --it->second;
  }
  bool MustFind(uint64_t key) const {
    auto it = count_.find(key);
    return it != count_.end() && it->second > 0;
  }
  const std::vector<uint64_t>& keys() const { return keys_; }

 private:
  std::unordered_map<uint64_t, uint32_t> count_;
  std::vector<uint64_t> keys_;
};

// Count windows: the distinct items among the last `span` marks must be found.
class CountModel {
 public:
  explicit CountModel(uint32_t span) : span_(span) {}
  void Mark(uint64_t item) {
    marks_.push_back(item);
    if (marks_.size() > span_) marks_.pop_front();
  }
  const std::deque<uint64_t>& must_find() const { return marks_; }

 private:
  uint32_t span_;
  std::deque<uint64_t> marks_;
};

// Time windows: an item must be found at `now` while now - t <= effective span, where t is
// the latest clock it was marked at. (A mark at a clock behind an earlier one goes into the
// current segment, which is at least as new, so the latest clock is the one that counts.)
class TimeModel {
 public:
  void Mark(uint64_t item, uint32_t now) {
    auto [it, added] = last_.emplace(item, now);
    if (added) items_.push_back(item);
    else it->second = std::max(it->second, now);
  }
  bool MustFind(uint64_t item, uint32_t now, uint32_t effective_span) const {
    auto it = last_.find(item);
    return it != last_.end() && int64_t{now} - it->second <= int64_t{effective_span};
  }
  const std::vector<uint64_t>& items() const { return items_; }
  // Drops items last marked before `oldest`: no later query may need them.
  void Prune(int64_t oldest) {
    std::vector<uint64_t> kept;
    for (uint64_t i : items_) {
      if (last_[i] >= oldest) kept.push_back(i);
      else last_.erase(i);
    }
    items_.swap(kept);
  }

 private:
  std::unordered_map<uint64_t, uint32_t> last_;
  std::vector<uint64_t> items_;
};

}  // namespace seen::test
