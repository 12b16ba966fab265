#include "cli/exposure_sim.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#include "core/baselines/chain_design.h"
#include "core/baselines/design.h"
#include "core/baselines/master_slave_design.h"
#include "core/baselines/queue_design.h"
#include "core/baselines/single_design.h"
#include "core/error.h"
#include "core/splitmix.h"
#include "core/store.h"

namespace seen::cli {
namespace {

uint32_t StreamLength(uint64_t user) {
  const uint64_t r = SplitMix64(user ^ 0x5717e4a7ULL);
  const double u = static_cast<double>(r >> 11) / 9007199254740992.0;
  if (u < 0.80) return 50 + static_cast<uint32_t>(r % 351);
  if (u < 0.98) return 400 + static_cast<uint32_t>(r % 1601);
  return 2000 + static_cast<uint32_t>(r % 8001);
}

// Distinct ids: item i of user u, and never-shown item j of user u.
uint64_t Shown(uint64_t user, uint32_t i) { return SplitMix64((user << 24) | i); }
uint64_t NeverShown(uint64_t user, uint32_t j) { return SplitMix64((uint64_t{1} << 63) | (user << 24) | j); }

// The questions every design answers for a steady-state user (one who read at least 2N).
struct Tally {
  uint64_t false_positives = 0, probes = 0, recalled = 0, recent = 0, lingering = 0, old = 0;
  double request_ns = 0;
  uint64_t requests = 0;
};

constexpr uint32_t kRequest = 1000;

template <class Contains>
void Measure(uint64_t user, uint32_t length, const SimulationConfig& config, Tally& tally,
             Contains&& contains) {
  const uint32_t n = config.window;
  for (uint32_t age = 1; age <= n; ++age) tally.recalled += contains(Shown(user, length - age));
  tally.recent += n;
  // Items aged N+1 .. 3N: how many are still found tells the slack.
  for (uint32_t age = n + 1; age <= std::min(3 * n, length); ++age) tally.lingering += contains(Shown(user, length - age));
  tally.old += std::min(3 * n, length) - n;
  for (uint32_t j = 0; j < config.probes_per_user; ++j) tally.false_positives += contains(NeverShown(user, j));
  tally.probes += config.probes_per_user;
}

DesignResult Result(const std::string& name, double bytes, uint32_t span, const Tally& t) {
  DesignResult r;
  r.name = name;
  r.label = name.substr(0, name.find_first_of(",("));
  r.bytes_per_user = bytes;
  r.span = span;
  r.false_positives = t.false_positives;
  r.probes = t.probes;
  r.fpr = t.probes ? static_cast<double>(t.false_positives) / t.probes : 0;
  // Wilson score interval at 95%.
  const double z = 1.96, p = r.fpr, total = static_cast<double>(std::max<uint64_t>(t.probes, 1));
  const double center = (p + z * z / (2 * total)) / (1 + z * z / total);
  const double half = z * std::sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total);
  r.fpr_low = std::max(0.0, center - half);
  r.fpr_high = std::min(1.0, center + half);
  r.recall = t.recent ? static_cast<double>(t.recalled) / t.recent : 0;
  const double lingering_rate = t.old ? static_cast<double>(t.lingering) / t.old : 0;
  r.slack = std::max(0.0, lingering_rate - r.fpr) / (1 - r.fpr) * 2;  // ages N..3N span 2N
  r.ns_per_candidate = t.requests ? t.request_ns / (t.requests * static_cast<double>(kRequest)) : 0;
  return r;
}

template <class Body>
double TimeNs(Body&& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

DesignResult RunBaseline(const std::string& name, baselines::Design& design,
                         const SimulationConfig& config) {
  Tally tally;
  std::vector<uint64_t> request(kRequest);
  volatile uint64_t sink = 0;
  for (uint64_t user = 0; user < config.users; ++user) {
    const uint32_t length = StreamLength(user);
    design.Reset();
    for (uint32_t i = 0; i < length; ++i) design.Add(Shown(user, i));
    if (length < 2 * config.window) continue;
    Measure(user, length, config, tally, [&](uint64_t item) { return design.Contains(item); });
    for (uint32_t j = 0; j < kRequest; ++j) request[j] = NeverShown(user, 1000 + j);
    tally.request_ns += TimeNs([&] {
      uint64_t found = 0;
      for (uint64_t item : request) found += design.Contains(item);
      sink = found;
    });
    ++tally.requests;
  }
  return Result(name, static_cast<double>(design.bytes_per_user()), design.guaranteed_span(), tally);
}

DesignResult RunStore(const std::string& name, const WindowParams& window,
                      const SimulationConfig& config) {
  StoreOptions options;
  options.window = window;
  options.expected_users = config.users;
  Store store(options);
  constexpr uint32_t kPage = 20;  // items marked per request, as a feed shows them
  std::vector<uint64_t> page;
  for (uint64_t user = 0; user < config.users; ++user) {
    const uint32_t length = StreamLength(user);
    for (uint32_t i = 0; i < length; i += kPage) {
      page.clear();
      for (uint32_t j = i; j < std::min(length, i + kPage); ++j) page.push_back(Shown(user, j));
      store.Mark(user, page.data(), page.size(), 1000);
    }
  }
  Tally tally;
  std::vector<uint64_t> request(kRequest);
  std::vector<uint8_t> unseen(kRequest);
  for (uint64_t user = 0; user < config.users; ++user) {
    const uint32_t length = StreamLength(user);
    if (length < 2 * config.window) continue;
    Measure(user, length, config, tally, [&](uint64_t item) {
      uint8_t fresh;
      store.Filter(user, &item, 1, 1000, &fresh);
      return fresh == 0;
    });
    for (uint32_t j = 0; j < kRequest; ++j) request[j] = NeverShown(user, 1000 + j);
    tally.request_ns += TimeNs([&] { store.Filter(user, request.data(), kRequest, 1000, unseen.data()); });
    ++tally.requests;
  }
  const StoreStats stats = store.Stats();
  return Result(name, static_cast<double>(stats.bytes) / static_cast<double>(stats.users),
                window.span, tally);
}

double BloomFpr(double items, double bits, double k) {
  return std::pow(1.0 - std::exp(-k * items / bits), k);
}

}  // namespace

double ChainBytesFor(double fpr, bool best_k) {
  // Per-user bytes of 5 segments: bisect the segment size until the rate, averaged over the
  // current segment's fill (1..100 items), reaches fpr.
  auto total_rate = [&](double segment_bits) {
    double best = 1.0;
    for (double k = best_k ? 1 : 6; k <= (best_k ? 16 : 6); ++k) {
      double sum = 0;
      for (int fill = 1; fill <= 100; ++fill) {
        sum += 1.0 - std::pow(1.0 - BloomFpr(100, segment_bits, k), 4) * (1.0 - BloomFpr(fill, segment_bits, k));
      }
      best = std::min(best, sum / 100);
    }
    return best;
  };
  double lo = 8, hi = 1 << 20;
  for (int step = 0; step < 60; ++step) {
    const double mid = 0.5 * (lo + hi);
    (total_rate(mid) > fpr ? lo : hi) = mid;
  }
  return 5 * hi / 8;
}

std::vector<DesignResult> SimulateExposure(const SimulationConfig& config,
                                           const std::function<void(const std::string&)>& progress) {
  const uint32_t n = config.window;
  // Each job builds its own design, so jobs run on all cores at once.
  const std::vector<std::function<DesignResult()>> jobs = {
      [&] {
        baselines::QueueDesign queue(n);
        return RunBaseline("queue, 8 B ids (published)", queue, config);
      },
      [&] {
        baselines::SingleDesign single(n, 6, n);
        return RunBaseline("single, 500 B (published)", single, config);
      },
      [&] {
        baselines::MasterSlaveDesign pair(n, 6, n);
        return RunBaseline("master/slave, 2 x 500 B (published)", pair, config);
      },
      [&] {
        baselines::ChainDesign chain(5, n / 5, 6, n / 5);
        return RunBaseline("chain, 5 x 100 B, k=6 (published)", chain, config);
      },
      [&] { return RunStore("seen 2%, window", SizeCountWindow(n, 0.02, 0.25, 1), config); },
      [&] { return RunStore("seen 1%, window", SizeCountWindow(n, 0.01, 0.25, 1), config); },
      // The chain's own terms: its memory (500 B of filter bits; both designs also keep a few
      // bytes of position, 12 here) and its guaranteed span (4/5 of N).
      [&] {
        return RunStore("seen at chain memory, 500 B + 12 B, span 400",
                        SizeCountWindowForBytes(n * 4 / 5, n + 12, 0.25, 1), config);
      },
  };
  std::vector<DesignResult> results(jobs.size());
  std::atomic<size_t> next{0};
  std::mutex report;
  auto worker = [&] {
    for (size_t job = next++; job < jobs.size(); job = next++) {
      results[job] = jobs[job]();
      std::lock_guard<std::mutex> lock(report);
      progress(results[job].name);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < std::max(1u, std::thread::hardware_concurrency()); ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  return results;
}

void PrintExposureTable(const std::vector<DesignResult>& results, uint32_t window) {
  std::printf("%-44s %10s %6s %22s %12s %7s %10s\n", "design", "B/user", "span", "fpr (95% interval)",
              "recall last", "slack", "ns/cand.");
  std::printf("%-44s %10s %6s %22s %12u %7s %10s\n", "", "", "", "", window, "", "");
  for (const auto& r : results) {
    char fpr[64];
    std::snprintf(fpr, sizeof fpr, "%.3f%% [%.3f, %.3f]", 100 * r.fpr, 100 * r.fpr_low, 100 * r.fpr_high);
    std::printf("%-44s %10.1f %6u %22s %11.3f%% %6.1f%% %10.2f\n", r.name.c_str(), r.bytes_per_user,
                r.span, fpr, 100 * r.recall, 100 * r.slack, r.ns_per_candidate);
  }
  std::printf("\nThe chain claims 1.56%%. For a real 2%% it needs %.0f B/user (k = 6; %.0f B with the best k),\n"
              "for 1%% %.0f B (%.0f B).\n",
              ChainBytesFor(0.02, false), ChainBytesFor(0.02, true), ChainBytesFor(0.01, false),
              ChainBytesFor(0.01, true));
}

void WriteExposureCsv(const std::string& path, const std::vector<DesignResult>& results) {
  std::ofstream out(path);
  if (!out) throw Error(Code::kIo, path + ": cannot write");
  out << "design,bytes_per_user,span,false_positives,probes,fpr,fpr_low,fpr_high,recall,slack,ns_per_candidate\n";
  for (const auto& r : results) {
    out << '"' << r.name << "\"," << r.bytes_per_user << ',' << r.span << ',' << r.false_positives << ','
        << r.probes << ',' << r.fpr << ',' << r.fpr_low << ',' << r.fpr_high << ',' << r.recall << ','
        << r.slack << ',' << r.ns_per_candidate << '\n';
  }
  if (!out) throw Error(Code::kIo, path + ": write failed");
}

}  // namespace seen::cli
