// The single design: one 500 B Bloom filter (k = 6) per user, never cleared, so it saturates
// as the user reads on.
#pragma once

#include <cstdint>

#include "core/baselines/classic_bloom.h"
#include "core/baselines/design.h"

namespace seen::baselines {

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

}  // namespace seen::baselines
