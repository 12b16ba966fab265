// The four published exposure-filtering designs (10M users, N = 500, 2%), each exactly as the
// published comparison describes it, behind one interface so the simulation measures them
// the same way as seen's own window:
//  - queue:        the last N ids, 8 bytes each (exact; 4,000 B per user).
//  - single:       one 500 B Bloom filter (k = 6) per user, never cleared: it saturates.
//  - master/slave: two 500 B filters (k = 6, capacity N). The slave starts taking items when
//                  the master is 60% full; when the master is full the slave replaces it.
//  - chain:        a ring of 5 filters of 100 B (k = 6, capacity 100 each). When the current
//                  one is full the oldest is cleared and reused; a query checks all five.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "bench/baselines/classic_bloom.h"

namespace seen::baselines {

class Design {
 public:
  virtual ~Design() = default;
  virtual void Reset() = 0;
  virtual void Add(uint64_t item) = 0;
  virtual bool Contains(uint64_t item) const = 0;
  virtual uint64_t bytes_per_user() const = 0;
  // The span the design promises to remember, in items.
  virtual uint32_t guaranteed_span() const = 0;
};

class QueueDesign : public Design {
 public:
  explicit QueueDesign(uint32_t n) : n_(n) {}
  void Reset() override { ids_.clear(); }
  void Add(uint64_t item) override {
    ids_.push_back(item);
    if (ids_.size() > n_) ids_.pop_front();
  }
  bool Contains(uint64_t item) const override {
    return std::find(ids_.begin(), ids_.end(), item) != ids_.end();
  }
  uint64_t bytes_per_user() const override { return 8ull * n_; }
  uint32_t guaranteed_span() const override { return n_; }

 private:
  uint32_t n_;
  std::deque<uint64_t> ids_;
};

class SingleDesign : public Design {
 public:
  SingleDesign(uint32_t bytes, uint32_t k, uint32_t n) : filter_(bytes * 8, k), n_(n) {}
  void Reset() override { filter_.Clear(); }
  void Add(uint64_t item) override { filter_.Add(item); }
  bool Contains(uint64_t item) const override { return filter_.Contains(item); }
  uint64_t bytes_per_user() const override { return filter_.bytes(); }
  uint32_t guaranteed_span() const override { return n_; }

 private:
  ClassicBloom filter_;
  uint32_t n_;
};

class MasterSlaveDesign : public Design {
 public:
  MasterSlaveDesign(uint32_t bytes, uint32_t k, uint32_t n)
      : master_(bytes * 8, k), slave_(bytes * 8, k), n_(n) {}
  void Reset() override {
    master_.Clear();
    slave_.Clear();
  }
  void Add(uint64_t item) override {
    if (master_.count() >= n_) {
      std::swap(master_, slave_);
      slave_.Clear();
    }
    master_.Add(item);
    if (master_.count() > n_ * 6 / 10) slave_.Add(item);
  }
  // The slave only holds items the master holds too.
  bool Contains(uint64_t item) const override { return master_.Contains(item); }
  uint64_t bytes_per_user() const override { return master_.bytes() + slave_.bytes(); }
  uint32_t guaranteed_span() const override { return n_ * 4 / 10; }

 private:
  ClassicBloom master_, slave_;
  uint32_t n_;
};

class ChainDesign : public Design {
 public:
  ChainDesign(uint32_t segments, uint32_t bytes, uint32_t k, uint32_t capacity)
      : capacity_(capacity) {
    for (uint32_t i = 0; i < segments; ++i) ring_.emplace_back(bytes * 8, k);
  }
  void Reset() override {
    for (auto& f : ring_) f.Clear();
    current_ = 0;
  }
  void Add(uint64_t item) override {
    if (ring_[current_].count() >= capacity_) {
      current_ = (current_ + 1) % ring_.size();
      ring_[current_].Clear();
    }
    ring_[current_].Add(item);
  }
  bool Contains(uint64_t item) const override {
    for (const auto& f : ring_) {
      if (f.Contains(item)) return true;
    }
    return false;
  }
  uint64_t bytes_per_user() const override { return ring_.size() * ring_[0].bytes(); }
  uint32_t guaranteed_span() const override { return capacity_ * static_cast<uint32_t>(ring_.size() - 1); }

 private:
  std::vector<ClassicBloom> ring_;
  size_t current_ = 0;
  uint32_t capacity_;
};

}  // namespace seen::baselines
