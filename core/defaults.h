// The default of every option a caller may leave unset, in one place. The core's option
// structs start from these; the C API, where a zero field means "unset", fills such fields
// through the *OrDefault functions below and WithDefaultsForZeros beside each option struct,
// so no layer above the core repeats a value.
#pragma once

#include <cstdint>

namespace seen::defaults {

// Filters: the rate a caller gets without asking (capi/seen.h's SEEN_DEFAULT_FPR).
constexpr double kFpr = 0.01;
// Windows: how far past its span an item may still be found, as a fraction of the span.
constexpr double kWindowMaxSlack = 0.25;
// Store: a user idle for a day is dropped; the index is sized for 2^20 users up front.
constexpr uint32_t kStoreIdleTimeout = 86400;
constexpr uint64_t kStoreExpectedUsers = uint64_t{1} << 20;
// Scalable filters: each sub-filter twice the capacity of the one before, at half its rate.
constexpr double kScalableGrowth = 2.0;
constexpr double kScalableTightening = 0.5;
// SimHash text: CJK characters shingled in pairs (docs/simhash.md: why 2).
constexpr uint32_t kSimhashNgram = 2;
// MinHash: 128 bins of word pairs, and matches at estimated Jaccard 0.8 or more.
constexpr uint32_t kMinhashBins = 128;
constexpr uint32_t kMinhashShingle = 2;
constexpr double kMinhashThreshold = 0.8;

}  // namespace seen::defaults

namespace seen {

// value, or fallback when value is zero: the C API's "unset".
template <class T>
constexpr T OrDefault(T value, T fallback) {
  return value == T{} ? fallback : value;
}

// A window's max_slack, the default when 0.
constexpr double WindowMaxSlackOrDefault(double max_slack) {
  return OrDefault(max_slack, defaults::kWindowMaxSlack);
}

// A store's idle timeout in seconds, the default when 0.
constexpr uint32_t IdleTimeoutOrDefault(uint32_t seconds) {
  return OrDefault(seconds, defaults::kStoreIdleTimeout);
}

// A MinHash index's Jaccard threshold, the default when 0.
constexpr double MinhashThresholdOrDefault(double threshold) {
  return OrDefault(threshold, defaults::kMinhashThreshold);
}

}  // namespace seen
