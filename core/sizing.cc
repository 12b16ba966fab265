#include "core/real_text.h"
#include "core/sizing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/block.h"
#include "core/error.h"

namespace seen {
namespace {

// Rate at which one block holding `load` keys answers yes for a key that is not in it: each
// of the query's k words has its bit set unless all keys covering that word (each does with
// probability k/8) chose other bits.
double BlockFpr(double load, uint32_t k) {
  const double bit_clear = std::pow(1.0 - static_cast<double>(k) / kBlockBits, load);
  return std::pow(1.0 - bit_clear, k);
}

// The bits per key SizeFor searches between.
constexpr double kMinBitsPerKey = 0.01, kMaxBitsPerKey = 512.0;

// Saturates instead of overflowing: callers compare the result against kMaxFilterBytes.
uint64_t BlocksFor(uint64_t items, double bits_per_key) {
  const double blocks = std::ceil(static_cast<double>(items) * bits_per_key / kBlockBits);
  return blocks >= 0x1p63 ? (uint64_t{1} << 63) : static_cast<uint64_t>(blocks);
}

// The Poisson-weighted sum of PredictFpr, its per-load factors from log_factorial(load),
// lgamma(load + 1), and block_fpr(load), BlockFpr(load, k).
template <class LogFactorial, class BlockRate>
double PoissonSum(double items, uint64_t blocks, LogFactorial&& log_factorial, BlockRate&& block_fpr) {
  if (blocks == 0) return 1.0;
  if (items <= 0) return 0.0;  // and the Poisson sum below would take log(0)
  const double mean = items / static_cast<double>(blocks);
  const double spread = 12.0 * std::sqrt(mean) + 20.0;
  const double lo = std::max(0.0, std::floor(mean - spread));
  const double hi = std::ceil(mean + spread);
  const double log_mean = std::log(mean);
  double fpr = 0.0;
  for (double load = lo; load <= hi; load += 1.0) {
    const double poisson = std::exp(-mean + load * log_mean - log_factorial(load));
    fpr += poisson * block_fpr(load);
  }
  return std::min(fpr, 1.0);
}

// Predictions that share the per-load factors of their sums: a block's rate at load i depends
// on i and k only, and the Poisson weight's lgamma on i only, so the predictions of one sizing
// (a bisection over blocks for each k, about 140) compute them once. Each prediction computed
// two pow() per term: a filter's sizing took 0.2 to 1.7 ms. The sums are the same, term by
// term, as PredictFpr's.
class Predictor {
 public:
  double Fpr(double items, uint64_t blocks, uint32_t k) {
    if (k > kMaxK) return PredictFpr(items, blocks, k);  // no block has such a k
    return PoissonSum(
        items, blocks, [&](double load) { return Kept(log_factorial_, load, [&] { return std::lgamma(load + 1.0); }); },
        [&](double load) { return Kept(block_fpr_[k], load, [&] { return BlockFpr(load, k); }); });
  }

 private:
  // Loads past this are computed afresh: only an overfull filter's prediction reaches them.
  static constexpr double kKeptLoads = 1 << 17;

  template <class Compute>
  static double Kept(std::vector<double>& kept, double load, Compute&& compute) {
    if (load >= kKeptLoads) return compute();
    const auto i = static_cast<size_t>(load);
    if (i >= kept.size()) kept.resize(std::max<size_t>(i + 1, 2 * kept.size()), kUnknown);
    if (std::isnan(kept[i])) kept[i] = compute();
    return kept[i];
  }

  static constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> log_factorial_;
  std::vector<double> block_fpr_[kMaxK + 1];
};

}  // namespace

double PredictFpr(double items, uint64_t blocks, uint32_t k) {
  return PoissonSum(
      items, blocks, [](double load) { return std::lgamma(load + 1.0); },
      [k](double load) { return BlockFpr(load, k); });
}

Sizing SizeFor(uint64_t items, double fpr) {
  if (!(fpr > 0.0 && fpr < 1.0)) {
    throw Error(Code::kInvalidArgument,
                "fpr must be in (0, 1), got " + RealText(fpr));
  }
  if (items == 0) items = 1;
  const double n = static_cast<double>(items);
  Predictor predict;
  Sizing best{0, 0};
  for (uint32_t k = kMinK; k <= kMaxK; ++k) {
    // The fewest blocks that reach fpr with this k, by bisection over block counts (the rate
    // falls as blocks grow), between kMinBitsPerKey (taken to miss) and kMaxBitsPerKey.
    uint64_t fails = BlocksFor(items, kMinBitsPerKey) - 1;
    uint64_t reaches = BlocksFor(items, kMaxBitsPerKey);
    if (predict.Fpr(n, reaches, k) > fpr) continue;
    while (reaches - fails > 1) {
      const uint64_t mid = fails + (reaches - fails) / 2;
      if (predict.Fpr(n, mid, k) > fpr) fails = mid;
      else reaches = mid;
    }
    // The blocks needed fall with k, then rise: once they rise, no larger k does better.
    if (best.k != 0 && reaches > best.blocks) break;
    if (best.k == 0 || reaches < best.blocks) best = {reaches, k};
  }
  if (best.k == 0 || best.blocks > kMaxFilterBytes / kBlockBytes) {
    throw Error(Code::kTooLarge, std::to_string(items) + " items at fpr " + RealText(fpr) +
                                     " need more than the 16 TiB limit");
  }
  return best;
}

uint32_t BestK(uint64_t items, uint64_t blocks) {
  uint32_t best_k = kMinK;
  double best_fpr = 2.0;
  Predictor predict;
  for (uint32_t k = kMinK; k <= kMaxK; ++k) {
    const double fpr = predict.Fpr(static_cast<double>(items), blocks, k);
    if (fpr < best_fpr) best_fpr = fpr, best_k = k;
  }
  return best_k;
}

uint64_t BlocksForBytes(uint64_t bytes) {
  if (bytes == 0) throw Error(Code::kInvalidArgument, "a filter needs at least 1 byte");
  if (bytes > kMaxFilterBytes) {
    throw Error(Code::kTooLarge, std::to_string(bytes) + " bytes is over the 16 TiB limit");
  }
  return (bytes + kBlockBytes - 1) / kBlockBytes;
}

}  // namespace seen
