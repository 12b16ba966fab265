// The chain design: a ring of 5 filters of 100 B (k = 6, capacity 100 each). When the
// current one is full the oldest is cleared and reused; a query checks all five.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/baselines/classic_bloom.h"
#include "core/baselines/design.h"

namespace seen::baselines {

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
