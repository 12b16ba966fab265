// bench_time_windows: time windows under the workload. U users with Zipf(1.1)
// activity over D simulated days send R requests at an explicit clock; each filters C
// candidates against the user's 30-day window (1%, expected_items 1,000), then marks 20 of
// them shown. Candidates are fresh ids (never shown to anyone: any "seen" is a false
// positive) plus up to 20 items the user was shown within their effective span (an exact
// record of every user's history: any "unseen" is a false negative). At the end: the rate
// for the top 100 users and for all, per-user memory (median, p99, max), users grown and
// span-limited, the same by activity rank (users 1-10, 11-100, ... by their Zipf rank), and
// the RSS before and after idle users expire. One JSON object per line. The windows are the
// default time windows (tables), or with --layout growing the growing windows of before.
//
//   bench_time_windows [--users U] [--requests R] [--days D] [--candidates C] [--max-bytes B]
//                      [--layout table|growing]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/store.h"

namespace {

constexpr uint32_t kDay = 86400;
constexpr uint32_t kShown = 20;
constexpr uint32_t kRecallChecks = 20;
// Per user beside the window: 8 B id, 2 B hour, about 5 B of index (core/store.h).
constexpr uint64_t kPerUserOverhead = 15;

double RssMiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

struct Shown {
  uint32_t at;
  uint64_t item;
};

struct Tally {
  uint64_t probes = 0, false_positives = 0;
  double rate() const { return probes == 0 ? 0 : static_cast<double>(false_positives) / probes; }
};

// Users by activity rank: rank r (0 the heaviest) is in the first band whose end exceeds it.
constexpr uint64_t kRankBandEnds[] = {10, 100, 1000, 10000, 100000, UINT64_MAX};
constexpr size_t kRankBands = sizeof kRankBandEnds / sizeof kRankBandEnds[0];

size_t RankBand(uint64_t rank) {
  return static_cast<size_t>(std::upper_bound(kRankBandEnds, kRankBandEnds + kRankBands, rank) - kRankBandEnds);
}

struct Band {
  uint64_t requests = 0;
  Tally fresh;
  std::vector<double> request_us, filter_us;
  std::vector<uint64_t> bytes;
};

template <class T>
T Quantile(std::vector<T> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())))];
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t users = 1000000, requests = 2000000, days = 40, candidates = 1000, max_bytes = 0;
  std::string layout = "table";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--layout") {
      layout = argv[i + 1];
      continue;
    }
    const auto value = static_cast<uint64_t>(std::stod(argv[i + 1]));
    if (arg == "--users") users = value;
    else if (arg == "--requests") requests = value;
    else if (arg == "--days") days = value;
    else if (arg == "--candidates") candidates = value;
    else if (arg == "--max-bytes") max_bytes = value;
  }
  seen::StoreOptions options;
  options.window = layout == "growing" ? seen::SizeGrowingTimeWindow(30 * kDay, 1000, 0.01, 0.25, 1, max_bytes)
                                       : seen::SizeTimeWindow(30 * kDay, 1000, 0.01, 0.25, 1, max_bytes);
  // Users idle past the span plus a segment expire: nothing they were shown is still due.
  options.idle_timeout = options.window.span + options.window.segment_span;
  options.expected_users = users;
  const double rss_start = RssMiB();
  seen::Store store(options);

  // Zipf(1.1) over user ranks by inverse CDF; rank 0 is the heaviest user.
  std::vector<double> cdf(users);
  double sum = 0;
  for (uint64_t r = 0; r < users; ++r) cdf[r] = sum += 1.0 / std::pow(static_cast<double>(r + 1), 1.1);
  for (double& c : cdf) c /= sum;
  std::mt19937_64 rng(20261124);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<std::vector<Shown>> history(users);
  uint64_t next_item = uint64_t{1} << 62;
  Tally top100, all;
  Band bands[kRankBands];
  uint64_t missed = 0, recall_checks = 0;
  std::vector<uint64_t> batch;
  std::vector<uint8_t> unseen;
  std::vector<double> heavy_us, light_us, all_us;  // requests of the top 100 users, of the others, of all
  const uint32_t end = static_cast<uint32_t>(days * kDay);
  const auto started = std::chrono::steady_clock::now();
  for (uint64_t r = 0; r < requests; ++r) {
    const auto now = static_cast<uint32_t>(r * end / requests);
    const auto rank = static_cast<uint64_t>(std::lower_bound(cdf.begin(), cdf.end(), uniform(rng)) - cdf.begin());
    const uint64_t user = std::min(rank, users - 1);
    std::vector<Shown>& shown = history[user];
    batch.clear();
    for (uint64_t i = 0; i < candidates; ++i) batch.push_back(next_item++);
    const uint32_t effective = store.EffectiveSpanOf(user, now);
    uint64_t checks = 0;
    for (uint32_t i = 0; i < kRecallChecks && !shown.empty(); ++i) {
      const Shown& s = shown[std::uniform_int_distribution<size_t>(0, shown.size() - 1)(rng)];
      if (now - s.at <= effective) batch.push_back(s.item), ++checks;
    }
    unseen.assign(batch.size(), 0);
    const auto t0 = std::chrono::steady_clock::now();
    store.Filter(user, batch.data(), batch.size(), now, unseen.data());
    const auto t1 = std::chrono::steady_clock::now();
    store.Mark(user, batch.data(), kShown, now);
    if (r % 97 == 0) {
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      (user < 100 ? heavy_us : light_us).push_back(us);
      all_us.push_back(us);
      bands[RankBand(user)].request_us.push_back(us);
      bands[RankBand(user)].filter_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
    for (uint64_t i = 0; i < candidates; ++i) {
      ++all.probes;
      all.false_positives += !unseen[i];
      if (user < 100) ++top100.probes, top100.false_positives += !unseen[i];
    }
    Band& band = bands[RankBand(user)];
    ++band.requests;
    band.fresh.probes += candidates;
    for (uint64_t i = 0; i < candidates; ++i) band.fresh.false_positives += !unseen[i];
    for (uint64_t i = candidates; i < batch.size(); ++i) missed += unseen[i];
    recall_checks += checks;
    for (uint32_t i = 0; i < kShown; ++i) shown.push_back({now, batch[i]});
    // Keep the record to the window's reach: items older than the span cannot be checked.
    if (shown.size() > 64 && now - shown.front().at > options.window.span + options.window.segment_span) {
      shown.erase(shown.begin(), std::find_if(shown.begin(), shown.end(), [&](const Shown& s) {
                    return now - s.at <= options.window.span;
                  }));
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("{\"bench\": \"time_windows_zipf\", \"users\": %llu, \"requests\": %llu, \"days\": %llu, "
              "\"candidates\": %llu, \"seconds\": %.1f, \"fpr_top100\": %.5f, \"probes_top100\": %llu, "
              "\"fpr_all\": %.5f, \"probes_all\": %llu, \"false_negatives\": %llu, \"recall_checks\": %llu, "
              "\"top100_request_median_us\": %.1f, \"other_request_median_us\": %.1f, "
              "\"other_request_p99_us\": %.1f, \"request_median_us\": %.1f, \"request_p99_us\": %.1f}\n",
              static_cast<unsigned long long>(users), static_cast<unsigned long long>(requests),
              static_cast<unsigned long long>(days), static_cast<unsigned long long>(candidates), seconds,
              top100.rate(), static_cast<unsigned long long>(top100.probes), all.rate(),
              static_cast<unsigned long long>(all.probes), static_cast<unsigned long long>(missed),
              static_cast<unsigned long long>(recall_checks), Quantile(heavy_us, 0.5), Quantile(light_us, 0.5),
              Quantile(light_us, 0.99), Quantile(all_us, 0.5), Quantile(all_us, 0.99));
  std::fflush(stdout);

  // Memory per user who was active (a window plus the store's 15 B), at the last clock.
  std::vector<uint64_t> bytes;
  uint64_t over_target = 0;
  uint32_t shortest_span = options.window.span;  // what the users who gave up time kept
  double highest_rate = 0;
  for (uint64_t user = 0; user < users; ++user) {
    const auto sat = store.SaturationOf(user, end);
    if (!sat) continue;
    bytes.push_back(sat->bytes + kPerUserOverhead);
    bands[RankBand(user)].bytes.push_back(sat->bytes + kPerUserOverhead);
    over_target += sat->window.rate > options.window.target_fpr;
    shortest_span = std::min(shortest_span, sat->window.effective_span);
    highest_rate = std::max(highest_rate, sat->window.rate);
  }
  std::printf("{\"bench\": \"time_windows_by_rank\", \"bands\": [");
  for (size_t b = 0; b < kRankBands && (b == 0 || kRankBandEnds[b - 1] < users); ++b) {
    const Band& band = bands[b];
    const bool any_us = !band.request_us.empty(), any_bytes = !band.bytes.empty();
    std::printf("%s{\"first\": %llu, \"last\": %llu, \"requests\": %llu, \"fpr\": %.5f, \"probes\": %llu, "
                "\"request_p50_us\": %.1f, \"request_p99_us\": %.1f, \"filter_p50_us\": %.1f, \"users_active\": %zu, "
                "\"bytes_median\": %llu, \"bytes_max\": %llu}",
                b == 0 ? "" : ", ", static_cast<unsigned long long>(b == 0 ? 1 : kRankBandEnds[b - 1] + 1),
                static_cast<unsigned long long>(std::min(kRankBandEnds[b], users)),
                static_cast<unsigned long long>(band.requests), band.fresh.rate(),
                static_cast<unsigned long long>(band.fresh.probes), any_us ? Quantile(band.request_us, 0.5) : 0.0,
                any_us ? Quantile(band.request_us, 0.99) : 0.0, any_us ? Quantile(band.filter_us, 0.5) : 0.0,
                band.bytes.size(),
                static_cast<unsigned long long>(any_bytes ? Quantile(band.bytes, 0.5) : 0),
                static_cast<unsigned long long>(any_bytes ? Quantile(band.bytes, 1.0) : 0));
  }
  std::printf("]}\n");
  std::printf("{\"bench\": \"time_windows_bytes_quantiles\", \"q\": [");
  for (int q = 0; q <= 100; ++q) std::printf("%s%llu", q == 0 ? "" : ", ", static_cast<unsigned long long>(Quantile(bytes, q / 100.0)));
  std::printf("]}\n");
  const seen::StoreSaturation saturation = store.Saturation(end);
  const seen::StoreStats stats = store.Stats();
  const double rss_full = RssMiB();
  std::printf("{\"bench\": \"time_windows_memory\", \"users\": %zu, \"start_bytes\": %llu, \"median_bytes\": %llu, "
              "\"p99_bytes\": %llu, \"max_bytes\": %llu, \"users_grown\": %llu, \"users_span_limited\": %llu, "
              "\"span_drops\": %llu, \"users_above_target\": %llu, \"max_predicted_fpr\": %.5f, "
              "\"shortest_effective_span_days\": %.2f, \"store_mib\": %.1f, \"rss_mib\": %.1f}\n",
              bytes.size(), static_cast<unsigned long long>(options.window.state_bytes()),
              static_cast<unsigned long long>(Quantile(bytes, 0.5)), static_cast<unsigned long long>(Quantile(bytes, 0.99)),
              static_cast<unsigned long long>(Quantile(bytes, 1.0)), static_cast<unsigned long long>(stats.users_grown),
              static_cast<unsigned long long>(saturation.span_limited), static_cast<unsigned long long>(stats.span_drops),
              static_cast<unsigned long long>(over_target), highest_rate, static_cast<double>(shortest_span) / kDay,
              static_cast<double>(stats.bytes) / (1 << 20),
              rss_full - rss_start);
  std::fflush(stdout);

  // Users idle past the timeout go; then everyone. RSS should follow the users still live.
  history.clear();
  history.shrink_to_fit();
  const double rss_no_history = RssMiB();
  const seen::StoreStats before = store.Stats();
  store.Expire(end + 1);
  const seen::StoreStats live = store.Stats();
  const double rss_live = RssMiB();
  store.Expire(end + 40 * kDay);
  const seen::StoreStats none = store.Stats();
  const double rss_none = RssMiB();
  std::printf("{\"bench\": \"time_windows_expiry\", \"store_mib_before\": %.1f, \"rss_mib_before\": %.1f, "
              "\"users_live\": %llu, \"store_mib_live\": %.1f, \"rss_mib_live\": %.1f, \"store_mib_none\": %.1f, "
              "\"rss_mib_none\": %.1f}\n",
              static_cast<double>(before.bytes) / (1 << 20), rss_no_history - rss_start,
              static_cast<unsigned long long>(live.users), static_cast<double>(live.bytes) / (1 << 20),
              rss_live - rss_start, static_cast<double>(none.bytes) / (1 << 20), rss_none - rss_start);
  return 0;
}
