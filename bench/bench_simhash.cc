// SimHash benchmarks, one JSON object per line (bench/simhash_report.py turns them into
// bench/results/simhash.md): index queries at 10^6 and 10^7 side by side with brute-force
// scans in the same run, the cost of k up to 7, memory per fingerprint, all-pairs clustering,
// fingerprinting speed on Chinese text (and on real files given with --corpus), and the
// near-duplicate quality experiment.
//   bench_simhash [--big N] [--quality-docs N] [--corpus FILE]...
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernels.h"
#include "core/simhash.h"
#include "core/simhash_index.h"
#include "core/simhash_scan.h"
#include "core/simhash_unicode.h"

namespace seen {
namespace {

double Seconds(const std::chrono::steady_clock::time_point& start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Stored fingerprints: random, with one in eight a near copy (1-3 bits) of an earlier one,
// as a feed with duplicates would have.
std::vector<uint64_t> Fingerprints(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> fps(n);
  for (size_t i = 0; i < n; ++i) {
    fps[i] = rng();
    if (i > 0 && i % 8 == 0) {
      fps[i] = fps[rng() % i];
      for (uint64_t b = 0, flips = 1 + rng() % 3; b < flips; ++b) fps[i] ^= uint64_t{1} << (rng() % 64);
    }
  }
  return fps;
}

// Queries: half near a stored fingerprint (0-4 bits away), half random.
std::vector<uint64_t> Queries(const std::vector<uint64_t>& fps, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> qs(n);
  for (size_t i = 0; i < n; ++i) {
    if (i % 2) {
      qs[i] = rng();
    } else {
      qs[i] = fps[rng() % fps.size()];
      for (uint64_t b = 0, flips = rng() % 5; b < flips; ++b) qs[i] ^= uint64_t{1} << (rng() % 64);
    }
  }
  return qs;
}

void IndexRun(size_t n, uint32_t max_k, size_t queries, bool scans) {
  const auto fps = Fingerprints(n, n);
  std::vector<uint64_t> ids(n);
  for (size_t i = 0; i < n; ++i) ids[i] = i;
  SimhashIndex index(max_k);
  index.Add(fps.data(), ids.data(), n);
  auto start = std::chrono::steady_clock::now();
  index.Build();
  const double build_s = Seconds(start);
  const auto qs = Queries(fps, queries, 7);
  std::vector<SimhashMatch> out;
  size_t matches = 0;
  start = std::chrono::steady_clock::now();
  for (uint64_t q : qs) {
    out.clear();
    index.Query(q, max_k, out);
    matches += out.size();
  }
  const double query_us = Seconds(start) * 1e6 / queries;
  size_t any = 0;
  start = std::chrono::steady_clock::now();
  for (uint64_t q : qs) any += index.Any(q, max_k);
  const double any_us = Seconds(start) * 1e6 / queries;
  std::printf("{\"bench\": \"index\", \"n\": %zu, \"k\": %u, \"query_us\": %.3f, \"any_us\": %.3f, "
              "\"bytes_per_fp\": %.2f, \"build_s\": %.3f, \"matches_per_query\": %.3f, \"any_rate\": %.3f",
              n, max_k, query_us, any_us, static_cast<double>(index.bytes()) / n, build_s,
              static_cast<double>(matches) / queries, static_cast<double>(any) / queries);
  if (scans) {
    // Brute force on the same data: a popcnt loop and a whole-vector scan.
    const size_t scan_queries = std::max<size_t>(20, 20000000 / n);
    size_t checked = 0;
    uint32_t hits[kScanChunk];
    start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < scan_queries; ++i) {
      for (size_t at = 0; at < n; at += kScanChunk) {
        checked += ScanFingerprints(fps.data() + at, std::min(kScanChunk, n - at), 1, qs[i], max_k, hits);
      }
    }
    const double popcnt_us = Seconds(start) * 1e6 / scan_queries;
    start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < scan_queries; ++i) checked += CountWithin(fps.data(), n, qs[i], max_k);
    const double vector_us = Seconds(start) * 1e6 / scan_queries;
    std::printf(", \"popcnt_scan_us\": %.1f, \"vector_scan_us\": %.1f, \"scan_checksum\": %zu", popcnt_us,
                vector_us, checked);
  }
  std::printf("}\n");
  std::fflush(stdout);
}

void AllPairs(size_t n) {
  const auto fps = Fingerprints(n, 99);
  std::vector<uint64_t> ids(n);
  for (size_t i = 0; i < n; ++i) ids[i] = i;
  SimhashIndex index(3);
  index.Add(fps.data(), ids.data(), n);
  index.Build();
  const auto start = std::chrono::steady_clock::now();
  const auto groups = index.Clusters(3);
  const double seconds = Seconds(start);
  const uint32_t count = groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end()) + 1;
  std::printf("{\"bench\": \"all_pairs\", \"n\": %zu, \"k\": 3, \"seconds\": %.3f, \"groups\": %u}\n", n,
              seconds, count);
  std::fflush(stdout);
}

// Chinese-like text: characters drawn from 3000 common CJK code points with a Zipf law (so
// frequent characters and shingles repeat as in real text), a punctuation mark every 8-24
// characters and now and then a number.
class TextMaker {
 public:
  explicit TextMaker(uint64_t seed) : rng_(seed) {
    double total = 0;
    for (int r = 1; r <= 3000; ++r) cumulative_.push_back(total += 1.0 / r);
    for (auto& c : cumulative_) c /= total;
  }
  uint32_t Char() {
    const double u = std::uniform_real_distribution<double>(0, 1)(rng_);
    const size_t rank = std::lower_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin();
    return 0x4E00 + static_cast<uint32_t>((rank * 7919) % 20000);
  }
  std::vector<uint32_t> Doc(size_t chars) {
    std::vector<uint32_t> doc;
    size_t next_punct = 8 + rng_() % 16;
    while (doc.size() < chars) {
      if (--next_punct == 0) {
        doc.push_back(rng_() % 2 ? 0xFF0C : 0x3002);  // ， 。
        next_punct = 8 + rng_() % 16;
      } else if (rng_() % 50 == 0) {
        doc.push_back('0' + rng_() % 10);
      } else {
        doc.push_back(Char());
      }
    }
    return doc;
  }
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
  std::vector<double> cumulative_;
};

std::string Utf8(const std::vector<uint32_t>& doc) {
  std::string s;
  uint8_t b[4];
  for (uint32_t cp : doc) s.append(reinterpret_cast<char*>(b), text::Encode(cp, b));
  return s;
}

uint64_t Fp(const std::string& s, uint32_t ngram = 3) {
  TextOptions options;
  options.ngram = ngram;
  return FingerprintText(s.data(), s.size(), options).simhash;
}

void Throughput() {
  TextMaker maker(5);
  std::vector<std::string> docs;
  size_t bytes = 0;
  while (bytes < (size_t{64} << 20)) {
    docs.push_back(Utf8(maker.Doc(500)));
    bytes += docs.back().size();
  }
  uint64_t sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& d : docs) sink ^= Fp(d);
  const double seconds = Seconds(start);
  std::printf("{\"bench\": \"fingerprint\", \"text\": \"chinese\", \"chars_per_doc\": 500, \"mb_per_s\": %.1f, "
              "\"docs_per_s\": %.0f, \"target\": \"%s\", \"sink\": %llu}\n",
              bytes / seconds / 1e6, docs.size() / seconds, ChosenTargetName(),
              static_cast<unsigned long long>(sink & 1));
  std::fflush(stdout);
}

// Fingerprinting a real text (e.g. an English licence) in 1 KB pieces, as documents come: the
// median of 9 passes of about 16 MB each (the text over and over), beside the synthetic
// Chinese above. One pass over a 35 KB licence took a third of a millisecond, too short to
// time on a shared machine.
void ThroughputOf(const std::string& path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  const std::string text = all.str();
  const size_t pieces = text.size() / 1024;
  if (pieces == 0) return;
  const size_t rounds = (size_t{16} << 20) / (pieces * 1024) + 1;
  std::vector<double> seconds;
  uint64_t sink = 0;
  for (int pass = 0; pass < 9; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    for (size_t round = 0; round < rounds; ++round) {
      for (size_t at = 0; at + 1024 <= text.size(); at += 1024) sink ^= FingerprintText(text.data() + at, 1024, TextOptions{}).simhash;
    }
    seconds.push_back(Seconds(start));
  }
  std::nth_element(seconds.begin(), seconds.begin() + 4, seconds.end());
  std::printf("{\"bench\": \"fingerprint\", \"text\": \"%s\", \"mb_per_s\": %.1f, \"sink\": %llu}\n", path.c_str(),
              static_cast<double>(rounds * pieces * 1024) / seconds[4] / 1e6, static_cast<unsigned long long>(sink & 1));
  std::fflush(stdout);
}

// One variant of doc with e random edits of the given kind.
std::vector<uint32_t> Edit(std::vector<uint32_t> doc, const std::string& kind, int e, TextMaker& maker) {
  auto& rng = maker.rng();
  for (int i = 0; i < e; ++i) {
    const size_t at = rng() % doc.size();
    if (kind == "insert") doc.insert(doc.begin() + at, maker.Char());
    if (kind == "delete" && doc.size() > 1) doc.erase(doc.begin() + at);
    if (kind == "replace") doc[at] = maker.Char();
    if (kind == "mixed") {
      const int what = rng() % 3;
      if (what == 0) doc.insert(doc.begin() + at, maker.Char());
      if (what == 1 && doc.size() > 1) doc.erase(doc.begin() + at);
      if (what == 2) doc[at] = maker.Char();
    }
  }
  if (kind == "boilerplate") {
    // e sentences of a source line appended, as aggregators add them.
    const std::vector<uint32_t> line = {0x672C, 0x6587, 0x6765, 0x6E90, 0xFF1A, 0x67D0, 0x67D0, 0x7F51, 0x3002};
    for (int i = 0; i < e; ++i) doc.insert(doc.end(), line.begin(), line.end());
  }
  if (kind == "punct_width") {
    // Punctuation swapped or dropped, digits made full-width: the tokenizer folds all of it.
    for (auto& cp : doc) {
      if (cp == 0xFF0C) cp = ',';
      else if (cp == 0x3002) cp = '.';
      else if (cp >= '0' && cp <= '9') cp += 0xFEE0;
    }
  }
  return doc;
}

// With ngram 3 (the default) every kind of edit; with other n-grams the mixed edits only.
void Quality(size_t docs_per_length, uint32_t ngram) {
  const uint32_t k = 3;
  for (size_t length : {150, 500, 3000}) {
    TextMaker maker(length);
    const size_t docs = length == 3000 ? docs_per_length / 4 : docs_per_length;
    std::vector<std::vector<uint32_t>> base;
    for (size_t i = 0; i < docs; ++i) base.push_back(maker.Doc(length));
    std::vector<uint64_t> fps;
    for (const auto& d : base) fps.push_back(Fp(Utf8(d), ngram));
    for (const std::string kind : {"mixed", "insert", "delete", "replace", "boilerplate", "punct_width"}) {
      if (ngram != 3 && kind != "mixed") continue;
      for (int e : {1, 2, 3, 5, 8, 12}) {
        if (kind == "punct_width" && e > 1) continue;
        size_t within[8] = {};
        double distance = 0;
        for (size_t i = 0; i < docs; ++i) {
          const uint32_t d = Hamming(fps[i], Fp(Utf8(Edit(base[i], kind, e, maker)), ngram));
          for (uint32_t kk = d; kk < 8; ++kk) ++within[kk];
          distance += d;
        }
        std::printf("{\"bench\": \"recall\", \"ngram\": %u, \"length\": %zu, \"kind\": \"%s\", \"edits\": %d, \"k\": %u, "
                    "\"recall\": %.4f, \"mean_distance\": %.2f, \"docs\": %zu, \"recall_by_k\": [",
                    ngram, length, kind.c_str(), e, k, static_cast<double>(within[k]) / docs, distance / docs, docs);
        for (uint32_t kk = 0; kk < 8; ++kk) std::printf("%s%.4f", kk ? ", " : "", static_cast<double>(within[kk]) / docs);
        std::printf("]}\n");
      }
    }
    // Unrelated documents of the same length: every pair of base docs, through the index.
    std::vector<uint64_t> ids(fps.size());
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = i;
    SimhashIndex index(kSimhashMaxK);
    index.Add(fps.data(), ids.data(), fps.size());
    uint64_t within[8] = {};
    std::vector<SimhashMatch> out;
    for (size_t i = 0; i < fps.size(); ++i) {
      out.clear();
      index.Query(fps[i], kSimhashMaxK, out);
      for (const auto& m : out) {
        for (uint32_t kk = m.distance; kk < 8 && m.id > i; ++kk) ++within[kk];
      }
    }
    const double pairs = fps.size() * (fps.size() - 1) / 2.0;
    std::printf("{\"bench\": \"false_match\", \"ngram\": %u, \"length\": %zu, \"k\": %u, \"pairs\": %.0f, \"false_matches\": %llu, "
                "\"rate\": %.3g, \"rate_by_k\": [",
                ngram, length, k, pairs, static_cast<unsigned long long>(within[k]), within[k] / pairs);
    for (uint32_t kk = 0; kk < 8; ++kk) std::printf("%s%.3g", kk ? ", " : "", within[kk] / pairs);
    std::printf("]}\n");
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace seen

int main(int argc, char** argv) {
  size_t big = 10000000, quality_docs = 4000;
  std::vector<std::string> corpora;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--corpus") == 0) corpora.push_back(argv[i + 1]);
    if (std::strcmp(argv[i], "--big") == 0) big = static_cast<size_t>(std::atof(argv[i + 1]));
    if (std::strcmp(argv[i], "--quality-docs") == 0) quality_docs = static_cast<size_t>(std::atof(argv[i + 1]));
  }
  seen::Throughput();
  for (const std::string& path : corpora) seen::ThroughputOf(path);
  seen::IndexRun(1000000, 3, 200000, true);
  seen::IndexRun(big, 3, 200000, true);
  for (uint32_t k = 4; k <= 7; ++k) seen::IndexRun(1000000, k, 20000, false);
  seen::AllPairs(1000000);
  seen::Quality(quality_docs, 3);
  seen::Quality(quality_docs, 2);
  return 0;
}
