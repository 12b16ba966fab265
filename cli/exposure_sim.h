// The exposure-filtering simulation behind `seen simulate exposure` and the demo: synthetic
// users read streams of items; each design (the published baselines of core/baselines and
// seen's own windows in a real store) sees the same streams and is measured the same way.
//
// Reading volume per user (stated, deterministic from the user id): 80% light readers with
// 50 to 400 items, 18% medium with 400 to 2,000, 2% heavy with 2,000 to 10,000.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace seen::cli {

struct SimulationConfig {
  uint64_t users = 100000;
  uint32_t window = 500;           // N: the last N items must be remembered
  uint32_t probes_per_user = 100;  // never-shown items asked per steady-state user
};

struct DesignResult {
  std::string name;
  std::string label;      // short, for plots
  double bytes_per_user;  // measured: the structure's bytes (ours: the whole store's)
  uint32_t span;          // items the design promises to remember
  uint64_t false_positives, probes;
  double fpr, fpr_low, fpr_high;  // measured on never-shown items, with a 95% Wilson interval
  double recall;                  // of the last N items, over steady-state users
  double slack;                   // items remembered past N, as a fraction of N (minus chance)
  double ns_per_candidate;        // for a 1,000-candidate request
};

// Runs every design; `progress` gets a line per finished design.
std::vector<DesignResult> SimulateExposure(const SimulationConfig& config,
                                           const std::function<void(const std::string&)>& progress);

// What the chain needs, per user, for a real total rate of `fpr` (5 segments of 100 items,
// k = 6 as published, and with the best k); from the Bloom formula averaged over the fill of
// the current segment.
double ChainBytesFor(double fpr, bool best_k);

void PrintExposureTable(const std::vector<DesignResult>& results, uint32_t window);
void WriteExposureCsv(const std::string& path, const std::vector<DesignResult>& results);

}  // namespace seen::cli
