// A scalable filter that grows (Almeida, Baquero, Preguiça and Hutchison, "Scalable Bloom
// Filters", 2007): a list of blocked Bloom filters. Keys go into the newest; when it holds
// its capacity, a new one is added with `growth` times the capacity and `tightening` times
// the false-positive rate. Sub-filter i has capacity n0 * growth^i and rate
// P * (1 - tightening) * tightening^i, so the rates sum to less than the bound P at any
// size: a key absent from all is a false positive of some sub-filter with at most that sum.
//
// Counting follows the paper: an add whose key already looks present (in any sub-filter)
// adds nothing and does not count, so items() estimates distinct keys (slightly low, by the
// false positives, which is what keeps every sub-filter within its rate).
//
// Concurrency: adds need exclusive access (a growth replaces the list of sub-filters).
// Queries may run concurrently with each other, not with adds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/defaults.h"

#include "core/bloom.h"
#include "core/region.h"

namespace seen {

struct ScalableOptions {
  uint64_t initial_capacity = 0;
  double fpr = 0.0;          // the bound on the total false-positive rate, in (0, 1)
  double growth = defaults::kScalableGrowth;          // capacity ratio of consecutive sub-filters, in [1, 64]
  double tightening = defaults::kScalableTightening;  // fpr ratio of consecutive sub-filters, in (0, 1)
  uint64_t seed = 0;
  std::optional<SecretKey> key = std::nullopt;  // keyed mode: every sub-filter hashes under it
};

// o with a zero (unset) growth or tightening replaced by its default.
ScalableOptions WithDefaultsForZeros(ScalableOptions o);

// One sub-filter: the blocked Bloom filter and how full it may get.
struct SubFilter {
  Bloom bloom;
  uint64_t capacity;
  uint64_t items;
};

// The most sub-filters a filter may have (the format's params hold at most this many).
constexpr uint32_t kMaxSubFilters = 64;

class Scalable {
 public:
  // Throws Error(kInvalidArgument) naming the option that is out of range.
  static Scalable Create(const ScalableOptions& options);

  // Sub-filter i's capacity, rate and seed, as Create and each growth choose them.
  static uint64_t CapacityOf(const ScalableOptions& options, uint32_t i);
  static double FprOf(const ScalableOptions& options, uint32_t i);
  static uint64_t SeedOf(const ScalableOptions& options, uint32_t i);
  static void Validate(const ScalableOptions& options);

  // From decoded parts (core/scalable_codec.cc). `backing` owns the memory the sub-filters
  // borrow (a mapped file), or is empty when each owns its own.
  Scalable(const ScalableOptions& options, std::vector<SubFilter> subs, Region backing,
           bool read_only);

  // Adds keys not already present to the newest sub-filter, growing as it fills. Throws
  // Error(kTooLarge) when a growth would pass kMaxSubFilters or the 16 TiB limit.
  void AddU64(const uint64_t* ids, size_t n);
  void AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n);
  // out[i] = 1 if key i is in any sub-filter.
  void ContainsU64(const uint64_t* ids, size_t n, uint8_t* out) const;
  void ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n, uint8_t* out) const;

  // Single keys. Put returns whether the key already looked present (then nothing changes).
  bool PutU64(uint64_t id);
  bool PutKey(const void* key, size_t len);
  bool TestU64(uint64_t id) const;
  bool TestKey(const void* key, size_t len) const;

  uint64_t items() const;
  // The sum of the sub-filters' rates predicted at their current loads (<= the bound).
  double PredictedFpr() const;
  uint64_t bytes() const;

  const ScalableOptions& options() const { return options_; }
  const std::vector<SubFilter>& subs() const { return subs_; }
  bool read_only() const { return read_only_; }

 private:
  template <class Present, class Put>
  void AddEach(size_t n, const Present& present, const Put& put);
  void RequireWritable() const;
  void Grow();

  ScalableOptions options_;
  Region backing_;  // declared before subs_, so it outlives the sub-filters that borrow it
  std::vector<SubFilter> subs_;
  bool read_only_;
};

}  // namespace seen
