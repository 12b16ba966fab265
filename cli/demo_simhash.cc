// seen demo, SimHash section: a Chinese and an English article with edited copies, their
// fingerprints and distances, then the index over a million fingerprints against a scan.
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "core/simhash.h"
#include "core/simhash_index.h"
#include "core/simhash_scan.h"

namespace seen::cli {
namespace {

uint64_t Fingerprint(const std::string& text) {
  return FingerprintText(text.data(), text.size(), TextOptions{}).simhash;
}

}  // namespace

bool DemoSimhash(const Args&) {
  const std::string zh =
      "国家统计局今天发布数据，今年前三季度国内生产总值同比增长百分之五点二，其中第三季度增长百分之四点九。"
      "分产业看，第一产业增加值增长百分之四点一，第二产业增长百分之四点四，第三产业增长百分之六。"
      "消费对经济增长的贡献率明显提高，居民收入继续增加，就业形势总体稳定，物价水平保持温和。";
  const std::string zh_edit =
      "国家统计局今日发布数据：今年前三季度国内生产总值同比增长百分之五点二，其中第三季度增长百分之四点九。"
      "分产业看，第一产业增加值增长百分之四点一，第二产业增长百分之四点四，第三产业增长百分之六。"
      "消费对经济增长的贡献率明显提高，居民收入继续增加，就业形势总体稳定，物价水平保持温和。（来源：新华社）";
  const std::string en =
      "The city council voted on Tuesday to expand the bus network, adding three routes to the "
      "northern districts and extending evening service until midnight. The plan, which takes effect "
      "in March, is paid for by a regional transport grant and a small increase in parking fees.";
  const std::string en_edit =
      "The City Council voted Tuesday to expand the bus network, adding three new routes to the "
      "northern districts and extending evening service until midnight. The plan, which takes effect "
      "in March, is paid for by a regional transport grant and a small rise in parking fees.";
  std::printf("\nseen demo: SimHash near-duplicates\n");
  std::printf("  Chinese article, edited copy   distance %u bits\n", Hamming(Fingerprint(zh), Fingerprint(zh_edit)));
  std::printf("  English article, edited copy   distance %u bits\n", Hamming(Fingerprint(en), Fingerprint(en_edit)));
  std::printf("  Chinese vs English article    distance %u bits\n", Hamming(Fingerprint(zh), Fingerprint(en)));

  const size_t n = 1000000, queries = 100000;
  std::mt19937_64 rng(2026);
  std::vector<uint64_t> fps(n), ids(n), qs(queries);
  for (size_t i = 0; i < n; ++i) {
    fps[i] = rng();
    ids[i] = i;
  }
  for (auto& q : qs) q = fps[rng() % n] ^ (uint64_t{1} << (rng() % 64)) ^ (uint64_t{1} << (rng() % 64));
  SimhashIndex index(3);
  index.Add(fps.data(), ids.data(), n);
  index.Build();
  size_t found = 0;
  auto start = std::chrono::steady_clock::now();
  for (uint64_t q : qs) found += index.Any(q, 3);
  const double index_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / queries;
  const size_t scanned = 20;
  size_t scan_found = 0;
  start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < scanned; ++i) scan_found += CountWithin(fps.data(), n, qs[i], 3) > 0;
  const double scan_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / scanned;
  std::printf("  index of %zu fingerprints     %.2f bytes each; %.2f us per query (k=3), a SIMD scan takes %.0f us\n",
              n, static_cast<double>(index.bytes()) / n, index_us, scan_us);
  std::printf("  queries near a stored one     %zu of %zu found (every one must be)\n", found, queries);
  return found == queries;
}

}  // namespace seen::cli
