// seen simulate exposure: reproduces the published comparison of exposure-filtering designs
// and sets seen's windows beside it. Prints the table; writes CSV and a PNG plot of the
// false-positive rate against bytes per user.
#include <cstdio>

#include "cli/cli.h"
#include "cli/exposure_sim.h"
#include "cli/plot.h"

namespace seen::cli {

int Simulate(const Args& args) {
  if (args.positional().size() != 1 || args.positional()[0] != "exposure") {
    throw UsageError{"simulate needs a scenario: exposure"};
  }
  SimulationConfig config;
  config.users = args.get_u64("users", config.users);
  config.window = static_cast<uint32_t>(args.get_u64("window", config.window));
  if (config.users == 0 || config.window < 10) throw UsageError{"--users must be > 0 and --window >= 10"};
  const std::string csv = args.get("csv", "exposure.csv");
  const std::string png = args.get("png", "exposure.png");
  std::fprintf(stderr, "simulating %llu users, window N = %u ...\n",
               static_cast<unsigned long long>(config.users), config.window);
  const auto results = SimulateExposure(config, [](const std::string& name) {
    std::fprintf(stderr, "  done: %s\n", name.c_str());
  });
  PrintExposureTable(results, config.window);
  WriteExposureCsv(csv, results);
  std::vector<PlotPoint> points;
  // A rate of 0 (the exact queue) sits at the bottom of the log axis.
  for (const auto& r : results) points.push_back({r.bytes_per_user, std::max(r.fpr, 1e-5), r.label});
  WriteScatterPng(png, {"False positives vs memory, last " + std::to_string(config.window) + " items",
                        "bytes per user", "false-positive rate", true, true, 1100, 650},
                  points);
  std::printf("\nwrote %s and %s\n", csv.c_str(), png.c_str());
  return kExitOk;
}

}  // namespace seen::cli
