// The master/slave design: two 500 B filters (k = 6, capacity N). The slave starts taking
// items when the master is 60% full; when the master is full the slave replaces it.
#pragma once

#include <cstdint>
#include <utility>

#include "core/baselines/classic_bloom.h"
#include "core/baselines/design.h"

namespace seen::baselines {

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

}  // namespace seen::baselines
