// The exposure section of `seen demo`: the published designs beside seen's windows, on
// --users synthetic users (default 100,000).
#include <cstdio>

#include "cli/cli.h"
#include "cli/exposure_sim.h"

namespace seen::cli {

bool DemoExposure(const Args& args) {
  SimulationConfig config;
  config.users = args.get_u64("users", config.users);
  if (config.users == 0) throw UsageError{"--users must be positive"};
  std::printf("\nseen demo: exposure filtering, %llu users, the last %u items each\n",
              static_cast<unsigned long long>(config.users), config.window);
  const auto results = SimulateExposure(config, [](const std::string&) {});
  PrintExposureTable(results, config.window);
  std::printf("(seen simulate exposure writes the same as CSV and an SVG plot)\n");
  // seen's full-span windows must recall every one of the last N items.
  for (const auto& r : results) {
    if (r.name.rfind("seen", 0) == 0 && r.span >= config.window && r.recall < 1.0) return false;
  }
  return true;
}

}  // namespace seen::cli
