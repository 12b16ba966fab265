// seen dedupe: exact and near-duplicate groups among documents (one per line, one per file,
// or one JSONL field per line). Exact groups share the XXH3-128 of the normalized text. Near
// groups are clusters of exact groups, by --method: simhash (fingerprints within --k bits of
// each other), minhash (shingle sets at Jaccard >= --threshold with each other, computed
// exactly: cli/minhash_groups.h), or auto, the
// default (minhash when the median document is under 3,000 bytes, where SimHash misses
// edits). Each group's first document is its representative, and the output gives each
// member's closeness to it. MinHash also reports, on `nearest` lines, each text whose most
// similar near text complete linkage kept in another group.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/input.h"
#include "cli/lines.h"
#include "cli/minhash_groups.h"
#include "cli/progress.h"
#include "core/error.h"
#include "core/minhash.h"
#include "core/simhash.h"
#include "core/simhash_index.h"

namespace seen::cli {
namespace {

struct Doc {
  uint32_t file;
  uint64_t line;  // 0 for a whole file
  uint64_t bytes;
  TextFingerprint fp;
  ShingledText shingled;  // when the method may be minhash, for the first of its exact group
};

// The string member `name` of the JSON object on one JSONL line, if it has one. Throws
// Error(kIo) naming `where` for a line that is not a JSON object.
std::optional<std::string> JsonStringField(std::string_view line, const std::string& name, const std::string& where) {
  nlohmann::json object;
  try {
    object = nlohmann::json::parse(line);
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(Code::kIo, where + ": not a JSON line (" + e.what() + ")");
  }
  if (!object.is_object()) throw Error(Code::kIo, where + ": not a JSON object line");
  const auto it = object.find(name);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// Below this median length SimHash loses edited copies (bench/results/minhash.md).
constexpr uint64_t kAutoMinhashBelow = 3000;
// What a user runs, so what the figures in bench/results/dedupe_recall.md are measured at.
// Not the index's usual 0.8: dedupe's shingles are token pairs, so 5 words edited in an
// 80-word passage leave J near 0.78, and an edited "word" such as a URL or a dotted name is
// several tokens (Python documentation's 5-edit copies: 6% under 0.6). Below 0.6 the groups
// take in license paragraphs that share their wording but not their terms (word-triple
// Jaccard under 0.5: bench/results/dedupe.md).
constexpr const char* kDefaultMethod = "auto";
constexpr double kDefaultThreshold = 0.6;

class Collector {
 public:
  Collector(const Args& args, const std::vector<std::string>& paths) : paths_(paths) {
    options_.ngram = static_cast<uint32_t>(args.get_u64("ngram", TextOptions{}.ngram));
    if (options_.ngram < 1 || options_.ngram > kMaxNgram) throw UsageError{"--ngram must be 1..8"};
    args.exclusive("per-file", "field");
    field_ = args.get("field", "");
    per_file_ = args.flag("per-file");
    const std::string method = args.get("method", kDefaultMethod);
    if (method != "simhash" && method != "minhash" && method != "auto") {
      throw UsageError{"--method must be simhash, minhash or auto, not " + method};
    }
    sketch_ = method != "simhash";
  }

  void Run() {
    std::vector<std::unique_ptr<LineSource>> sources;
    uint64_t total = 0;
    for (const auto& path : paths_) {
      sources.push_back(LineSource::Open(path));
      total += sources.back()->size();
    }
    Progress progress(total, "documents");
    uint64_t done = 0;
    for (uint32_t f = 0; f < sources.size(); ++f) {
      std::string whole;
      uint64_t line = 0;
      const char *begin, *end;
      while (sources[f]->Next(&begin, &end)) {
        done += static_cast<uint64_t>(end - begin);
        if (per_file_) {
          if (std::memchr(begin, '\0', static_cast<size_t>(end - begin)) != nullptr) WarnBinary(f, "");
          whole.append(begin, end);
        } else {
          Lines(f, begin, end, line);
        }
        progress.Update(done, docs_.size());
      }
      if (per_file_) Add(f, 0, whole);
    }
    progress.Finish();
    if (!field_.empty() && docs_.empty() && lines_without_field_ > 0) {
      throw Error(Code::kInvalidArgument, "no line of the input has a string field \"" + field_ +
                                              "\" (" + std::to_string(lines_without_field_) + " lines read)");
    }
  }

  const std::vector<Doc>& docs() const { return docs_; }
  // Exact groups (documents with the same normalized text), in the order of their first.
  const std::vector<std::vector<uint32_t>>& exact() const { return exact_; }
  std::string Label(const Doc& d) const {
    return d.line == 0 ? paths_[d.file] : paths_[d.file] + ":" + std::to_string(d.line);
  }

 private:
  void Lines(uint32_t f, const char* begin, const char* end, uint64_t& line) {
    while (begin < end) {
      const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', static_cast<size_t>(end - begin)));
      const char* stop = nl ? nl : end;
      size_t len = static_cast<size_t>(stop - begin);
      if (len > 0 && begin[len - 1] == '\r') --len;
      ++line;
      if (len > 0) {
        const std::string_view text(begin, len);
        if (text.find('\0') != std::string_view::npos) WarnBinary(f, ":" + std::to_string(line));
        if (field_.empty()) {
          Add(f, line, text);
        } else if (auto value = JsonStringField(text, field_, paths_[f] + ":" + std::to_string(line))) {
          Add(f, line, *value);
        } else {
          ++lines_without_field_;
        }
      }
      begin = nl ? nl + 1 : end;
    }
  }

  // Once per file: binary data is fingerprinted like any text, but it is rarely meant.
  void WarnBinary(uint32_t f, const std::string& where) {
    if (warned_binary_.size() <= f) warned_binary_.resize(f + 1, false);
    if (warned_binary_[f]) return;
    warned_binary_[f] = true;
    std::fprintf(stderr, "seen dedupe: warning: %s%s holds binary data (NUL bytes); it is read as text\n",
                 paths_[f].c_str(), where.c_str());
  }

  // A document joins its exact group; only the first of each is sketched, as only it is
  // clustered (a corpus of license lines is 80% exact copies).
  void Add(uint32_t f, uint64_t line, std::string_view text) {
    const TextFingerprint fp = FingerprintText(text.data(), text.size(), options_);
    const auto doc = static_cast<uint32_t>(docs_.size());
    const auto [at, first] = exact_of_.emplace(std::make_pair(fp.exact_high, fp.exact_low), exact_.size());
    ShingledText shingled;
    if (first) {
      exact_.emplace_back();
      if (sketch_) shingled.sketch = SketchText(text.data(), text.size(), MinhashOptions{}, &shingled.shingles);
    }
    exact_[at->second].push_back(doc);
    docs_.push_back({f, line, text.size(), fp, std::move(shingled)});
  }

  const std::vector<std::string>& paths_;
  TextOptions options_;
  std::string field_;
  bool per_file_;
  bool sketch_;
  uint64_t lines_without_field_ = 0;
  std::vector<bool> warned_binary_;
  std::vector<Doc> docs_;
  std::map<std::pair<uint64_t, uint64_t>, size_t> exact_of_;  // by the normalized text's XXH3-128
  std::vector<std::vector<uint32_t>> exact_;                   // in the order of their first document
};

// A near group: its exact groups in order, each with how close it is to the first, the
// representative ("d=3" bits, or "j=0.91" Jaccard).
struct NearGroup {
  std::vector<std::pair<uint32_t, std::string>> members;
};

uint64_t MedianBytes(const std::vector<Doc>& docs) {
  if (docs.empty()) return 0;
  std::vector<uint64_t> bytes;
  for (const Doc& d : docs) bytes.push_back(d.bytes);
  std::nth_element(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(bytes.size() / 2), bytes.end());
  return bytes[bytes.size() / 2];
}

// One representative per exact group; texts without tokens have no meaningful fingerprint
// and stay out. Clusters never chain: every two members are within k of each other.
std::vector<NearGroup> SimhashGroups(const std::vector<Doc>& docs, const std::vector<std::vector<uint32_t>>& exact,
                                     uint32_t k) {
  std::vector<uint64_t> fps, ids;
  for (uint32_t g = 0; g < exact.size(); ++g) {
    if (docs[exact[g][0]].fp.features == 0) continue;
    fps.push_back(docs[exact[g][0]].fp.simhash);
    ids.push_back(g);
  }
  SimhashIndex index(k);
  index.Add(fps.data(), ids.data(), fps.size());
  const std::vector<uint32_t> cluster = index.Clusters(k);
  std::vector<std::vector<uint32_t>> near(cluster.size());  // exact groups per cluster
  for (size_t i = 0; i < cluster.size(); ++i) near[cluster[i]].push_back(static_cast<uint32_t>(index.Ids()[i]));
  for (auto& groups : near) std::sort(groups.begin(), groups.end());
  std::sort(near.begin(), near.end(), [](const auto& a, const auto& b) {
    return !a.empty() && (b.empty() || a.front() < b.front());
  });
  std::vector<NearGroup> out;
  for (const auto& groups : near) {
    NearGroup group;
    const uint64_t first = groups.empty() ? 0 : docs[exact[groups[0]][0]].fp.simhash;
    for (uint32_t g : groups) {
      group.members.emplace_back(g, "d=" + std::to_string(Hamming(first, docs[exact[g][0]].fp.simhash)));
    }
    out.push_back(std::move(group));
  }
  return out;
}

// What near grouping found: its groups, and the texts set apart from their most similar near
// text (exact groups, with their Jaccard), which MinHash reports and SimHash has none of.
struct NearGrouping {
  std::vector<NearGroup> groups;
  std::vector<std::tuple<uint32_t, uint32_t, std::string>> apart;
};

std::string JaccardText(double jaccard) {
  char text[16];
  std::snprintf(text, sizeof text, "j=%.2f", jaccard);
  return text;
}

// One text per exact group, its first document's.
NearGrouping MinhashNearGroups(const std::vector<Doc>& docs, const std::vector<std::vector<uint32_t>>& exact,
                               double threshold) {
  std::vector<const ShingledText*> texts;
  for (const auto& group : exact) texts.push_back(&docs[group[0]].shingled);
  const MinhashGrouping grouping = MinhashGroups(texts, threshold);
  NearGrouping out;
  for (const auto& group : grouping.groups) {
    NearGroup near;
    for (const GroupMember& m : group) near.members.emplace_back(m.text, JaccardText(m.jaccard));
    out.groups.push_back(std::move(near));
  }
  for (const NearestApart& n : grouping.apart) out.apart.emplace_back(n.text, n.nearest, JaccardText(n.jaccard));
  return out;
}

}  // namespace

int Dedupe(const Args& args) {
  if (args.positional().empty()) throw UsageError{"dedupe needs at least one INPUT (- for stdin)"};
  StdinOnce(args.positional(), args);
  const uint64_t k = args.get_u64("k", 3);
  if (k > kSimhashMaxK) throw UsageError{"--k must be 0..7"};
  Collector collector(args, args.positional());
  collector.Run();
  const std::vector<Doc>& docs = collector.docs();
  const std::vector<std::vector<uint32_t>>& exact = collector.exact();
  const std::string method = args.get("method", kDefaultMethod);
  const double threshold = args.get_rate("threshold", kDefaultThreshold);
  const bool minhash = method == "minhash" || (method == "auto" && MedianBytes(docs) < kAutoMinhashBelow);
  const NearGrouping near = minhash ? MinhashNearGroups(docs, exact, threshold)
                                    : NearGrouping{SimhashGroups(docs, exact, static_cast<uint32_t>(k)), {}};
  uint64_t exact_groups = 0, exact_docs = 0, near_groups = 0, near_docs = 0;
  for (uint32_t g = 0; g < exact.size(); ++g) {
    if (exact[g].size() < 2) continue;
    ++exact_groups;
    exact_docs += exact[g].size();
    for (uint32_t d : exact[g]) std::printf("exact\t%llu\t%s\n", static_cast<unsigned long long>(exact_groups), collector.Label(docs[d]).c_str());
  }
  for (const NearGroup& group : near.groups) {
    if (group.members.size() < 2) continue;
    ++near_groups;
    for (const auto& [g, closeness] : group.members) {
      for (uint32_t d : exact[g]) {
        ++near_docs;
        std::printf("near\t%llu\t%s\t%s\n", static_cast<unsigned long long>(near_groups),
                    collector.Label(docs[d]).c_str(), closeness.c_str());
      }
    }
  }
  // A pair complete linkage kept apart: the first document of each exact group stands for it.
  for (const auto& [a, b, closeness] : near.apart) {
    std::printf("nearest\t%s\t%s\t%s\n", collector.Label(docs[exact[a][0]]).c_str(),
                collector.Label(docs[exact[b][0]]).c_str(), closeness.c_str());
  }
  const std::string within = minhash ? "at Jaccard >= " + std::to_string(threshold).substr(0, 4) + " (minhash)"
                                     : "within k=" + std::to_string(k);
  std::printf("summary: %zu documents, %zu distinct; %llu exact groups (%llu documents), %llu near "
              "groups %s (%llu documents)%s\n",
              docs.size(), exact.size(), static_cast<unsigned long long>(exact_groups),
              static_cast<unsigned long long>(exact_docs), static_cast<unsigned long long>(near_groups),
              within.c_str(), static_cast<unsigned long long>(near_docs),
              minhash ? ("; " + std::to_string(near.apart.size()) + " nearest pairs apart").c_str() : "");
  return kExitOk;
}

}  // namespace seen::cli
