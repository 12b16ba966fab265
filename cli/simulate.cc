// seen simulate exposure: reproduces the published comparison of exposure-filtering designs
// and sets seen's windows beside it. Prints the table; writes CSV and an SVG plot of the
// false-positive rate and the recall against bytes per user.
#include <cstdio>

#include "cli/cli.h"
#include "cli/exposure_sim.h"
#include "cli/svg_plot.h"
#include "cli/writable.h"

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
  const std::string svg = args.get("svg", "exposure.svg");
  CheckWritable(csv);
  CheckWritable(svg);
  std::fprintf(stderr, "simulating %llu users, window N = %u ...\n",
               static_cast<unsigned long long>(config.users), config.window);
  const auto results = SimulateExposure(config, [](const std::string& name) {
    std::fprintf(stderr, "  done: %s\n", name.c_str());
  });
  PrintExposureTable(results, config.window);
  WriteExposureCsv(csv, results);
  SvgPlot plot{"Exposure filtering: the last " + std::to_string(config.window) + " items per user",
               "bytes per user", true, {}, {}, {{"false-positive rate", true, {}}, {"recall of the last N", false, {}}}};
  for (const auto& r : results) {
    plot.x.push_back(r.bytes_per_user);
    plot.labels.push_back(r.label);
    plot.panels[0].y.push_back(r.fpr);
    plot.panels[1].y.push_back(r.recall);
  }
  WriteSvg(svg, plot);
  std::printf("\nwrote %s and %s\n", csv.c_str(), svg.c_str());
  return kExitOk;
}

}  // namespace seen::cli
