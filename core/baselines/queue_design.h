// The queue design: the last N ids, 8 bytes each; exact, 4,000 B per user at N = 500.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>

#include "core/baselines/design.h"

namespace seen::baselines {

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

}  // namespace seen::baselines
