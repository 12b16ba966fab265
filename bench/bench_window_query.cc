// bench_window_query: one window's batch query, in ns per candidate, by layout and by how
// far a growing window grew. Candidates are fresh (never added), as most of a recall
// request's are, so every segment and level must reject them; each batch has new ones, so the
// branch predictor cannot learn a batch's answers. Hashing is outside the timing: this is the
// probe alone (issue 15's "window sliced layout" figure).
// One JSON object per line.
//
//   bench_window_query [--candidates C] [--reps R]
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "core/splitmix.h"
#include "core/window.h"

namespace {

using seen::SplitMix64;

struct Case {
  std::string name;
  seen::WindowParams params;
  uint64_t items;  // added over the span before the query
};

void Run(const Case& c, size_t candidates, int reps) {
  const seen::WindowParams& p = c.params;
  std::vector<uint8_t> state(p.state_bytes());
  seen::WindowGrowth growth;
  seen::WindowReset(p, state.data(), 0);
  // Items arrive evenly over the span (time mode), so every segment holds its share.
  const uint32_t span = p.mode == seen::WindowMode::kTime ? p.span : 0;
  for (uint64_t i = 0; i < c.items; ++i) {
    const uint64_t hash = SplitMix64(i);
    const auto now = static_cast<uint32_t>(span == 0 ? 0 : i * span / c.items);
    seen::WindowAdd(p, state.data(), &growth, &hash, 1, now);
  }
  // Batches of new candidates, hashed beforehand; many more than the predictor could learn.
  constexpr size_t kBatches = 256;
  std::vector<uint64_t> hashes(candidates * kBatches);
  for (size_t i = 0; i < hashes.size(); ++i) hashes[i] = SplitMix64((uint64_t{1} << 60) + i);
  std::vector<uint8_t> out(candidates);
  const uint32_t now = span;
  uint64_t found = 0, batch = 0;
  const double ns = seen::bench::MedianNs(reps, candidates, [&] {
    const uint64_t* fresh = hashes.data() + (batch++ % kBatches) * candidates;
    seen::WindowContains(p, state.data(), &growth, fresh, candidates, now, out.data());
    for (uint8_t o : out) found += o;
  });
  std::printf("{\"bench\": \"window_query\", \"case\": \"%s\", \"items\": %llu, \"bytes\": %llu, "
              "\"ns_per_candidate\": %.2f, \"false_positive_share\": %.5f}\n",
              c.name.c_str(), static_cast<unsigned long long>(c.items),
              static_cast<unsigned long long>(state.size() + growth.size()), ns,
              static_cast<double>(found) / static_cast<double>(candidates) / reps);
}

}  // namespace

int main(int argc, char** argv) {
  size_t candidates = 1000;
  int reps = 2001;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--candidates") candidates = std::stoul(argv[i + 1]);
    else if (arg == "--reps") reps = std::stoi(argv[i + 1]);
  }
  const uint32_t month = 30 * 86400;
  // Sizing packs the last 500 at 1% and at 2%: the ring and the sliced window of those rows'
  // history are made as they were (the sliced one is what fits its 904 bytes).
  seen::WindowParams ring;
  ring.layout = seen::WindowLayout::kRing;
  ring.span = 500;
  ring.seed = 1;
  ring.target_fpr = 0.01;
  const std::vector<Case> cases = {
      {"packed, last 500 at 1%", seen::SizeCountWindow(500, 0.01, 0.25, 1), 500},
      {"ring, last 500 at 1%", ring, 500},
      {"sliced, last 500 at 2%", seen::SizeCountWindowForBytes(500, 904, 0.25, 1), 500},
      {"sliced, last 5000 at 1%", seen::SizeCountWindow(5000, 0.01, 0.25, 1), 5000},
      {"time, 30 days at 1%, 1,000 items", seen::SizeTimeWindow(month, 1000, 0.01, 0.25, 1, 0), 1000},
      {"time, 30 days at 1%, 10,000 items", seen::SizeTimeWindow(month, 1000, 0.01, 0.25, 1, 0), 10000},
      {"time, 30 days at 1%, 100,000 items", seen::SizeTimeWindow(month, 1000, 0.01, 0.25, 1, 0), 100000},
  };
  for (const Case& c : cases) Run(c, candidates, reps);
}
