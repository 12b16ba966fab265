// The published exposure-filtering designs (10M users, N = 500, 2%) are reproduced, each
// exactly as the published comparison describes it, behind this one interface, so that
// `seen simulate exposure` and the benchmarks measure them the same way as seen's own window:
//  - queue_design.h:        the last N ids, 8 bytes each (exact).
//  - single_design.h:       one Bloom filter per user, never cleared: it saturates.
//  - master_slave_design.h: two filters, the second taking over from the first.
//  - chain_design.h:        a ring of small filters, the oldest cleared and reused.
// They are baselines to compare against, not part of seen: nothing in capi/ uses them.
#pragma once

#include <cstdint>

namespace seen::baselines {

// One user's exposure state.
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

}  // namespace seen::baselines
