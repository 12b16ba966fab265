#include "cli/minhash_groups.h"

#include <algorithm>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "core/minhash.h"
#include "core/minhash_index.h"

namespace seen::cli {
namespace {

// How far below the threshold the index draws candidates: about two standard deviations of
// a 128-bin estimate near J = 0.5, so a pair at the threshold is a candidate all but always.
constexpr double kCandidateMargin = 0.1;

struct NearPair {
  double jaccard;
  uint32_t a, b;  // a < b
};

std::vector<NearPair> NearPairs(const std::vector<const ShingledText*>& texts, double threshold) {
  MinhashIndex index(MinhashOptions{}, std::max(threshold - kCandidateMargin, 0.05));
  for (uint32_t t = 0; t < texts.size(); ++t) {
    if (!texts[t]->shingles.empty()) index.Add(t, texts[t]->sketch);
  }
  std::vector<NearPair> pairs;
  for (uint32_t b = 0; b < texts.size(); ++b) {
    if (texts[b]->shingles.empty()) continue;
    for (const MinhashMatch& m : index.Query(texts[b]->sketch)) {
      const auto a = static_cast<uint32_t>(m.id);
      if (a >= b) continue;
      const double j = ShingleJaccard(texts[a]->shingles, texts[b]->shingles);
      if (j >= threshold) pairs.push_back({j, a, b});
    }
  }
  return pairs;
}

// What joins two groups: how many pairs across them are near, and the least similar of those.
// The groups may join once every pair across them is near (the count is the product of their
// sizes), and then at that similarity. A pair the index did not draw counts as not near.
struct Link {
  uint64_t near_pairs = 0;
  double least = 1;
};

}  // namespace

// Complete-linkage agglomeration over the sparse graph of near pairs: repeatedly join the two
// groups whose least similar pair across them is the most similar. A tight pair, such as an
// edited copy and its original, joins before a loose one.
std::vector<std::vector<GroupMember>> MinhashGroups(const std::vector<const ShingledText*>& texts, double threshold) {
  const auto n = static_cast<uint32_t>(texts.size());
  std::vector<std::vector<uint32_t>> members(n);
  std::vector<std::unordered_map<uint32_t, Link>> links(n);  // a group's, by the other group's first text
  using Candidate = std::tuple<double, uint32_t, uint32_t>;  // (least similarity, group, group)
  auto later = [](const Candidate& x, const Candidate& y) {
    return std::get<0>(x) != std::get<0>(y) ? std::get<0>(x) < std::get<0>(y) : x > y;
  };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(later)> queue(later);
  for (uint32_t t = 0; t < n; ++t) members[t] = {t};
  for (const NearPair& pair : NearPairs(texts, threshold)) {
    links[pair.a][pair.b] = links[pair.b][pair.a] = {1, pair.jaccard};
    queue.emplace(pair.jaccard, pair.a, pair.b);
  }
  auto joinable = [&](uint32_t a, uint32_t b, const Link& link) {
    return link.near_pairs == uint64_t{members[a].size()} * members[b].size();
  };
  while (!queue.empty()) {
    const auto [least, a, b] = queue.top();
    queue.pop();
    const auto it = links[a].find(b);
    // Stale: a group has joined another since, or the link has changed.
    if (it == links[a].end() || it->second.least != least || !joinable(a, b, it->second)) continue;
    links[a].erase(it);
    links[b].erase(a);
    for (const auto& [c, link] : links[b]) {
      Link& joined = links[a][c];
      joined.near_pairs += link.near_pairs;
      joined.least = std::min(joined.least, link.least);
      links[c].erase(b);
      links[c][a] = joined;
    }
    links[b].clear();
    members[a].insert(members[a].end(), members[b].begin(), members[b].end());
    members[b].clear();
    for (const auto& [c, link] : links[a]) {
      if (joinable(a, c, link)) queue.emplace(link.least, std::min(a, c), std::max(a, c));
    }
  }
  std::vector<std::vector<GroupMember>> groups;
  for (std::vector<uint32_t>& group : members) {
    if (group.empty()) continue;
    std::sort(group.begin(), group.end());
    std::vector<GroupMember> out;
    for (uint32_t m : group) out.push_back({m, ShingleJaccard(texts[group.front()]->shingles, texts[m]->shingles)});
    groups.push_back(std::move(out));
  }
  return groups;
}

}  // namespace seen::cli
