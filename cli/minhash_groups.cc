#include "cli/minhash_groups.h"

#include <algorithm>
#include <optional>
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
// A text's candidates are its most similar matches, up to this many: each costs an exact
// Jaccard, and a dense group of copies would otherwise give every copy all the others.
constexpr size_t kMostMatches = 64;
// A text this close to an indexed one is left out of later indexes, met through that one.
constexpr double kRepresented = 0.7;

struct NearPair {
  double jaccard;
  uint32_t a, b;  // a < b
};

// Each text's near pairs with earlier texts, found through an index built a block of texts at
// a time (adding to a queried index sorts it again: one per text made dedupe quadratic) of
// the block and of the earlier texts that stand for others. An earlier text stands for itself
// unless it has one of those at kRepresented or more, beside which it is then kept (up to
// kMostMatches to each), and a query meets it through that one: in a dense group of near
// copies a query meets a few texts and the copies they stand for, not every copy. A pair left
// out is still checked when its groups meet (Agglomeration::Verify).
std::vector<NearPair> NearPairs(const std::vector<const ShingledText*>& texts, double threshold) {
  std::vector<uint32_t> standing;  // the earlier texts that stand for themselves
  std::vector<std::vector<uint32_t>> stands_for(texts.size());
  std::vector<bool> stands(texts.size(), false);
  std::vector<NearPair> pairs;
  for (uint32_t begin = 0, end = 0; begin < texts.size(); begin = end) {
    // Rebuilding costs the texts standing, a query the texts of its block (all of them, in a
    // dense block): blocks grow with the texts standing, an eighth of them, in 256..8192.
    end = static_cast<uint32_t>(std::min<size_t>(texts.size(), begin + std::clamp<size_t>(standing.size() / 8, 256, 8192)));
    MinhashIndex index(MinhashOptions{}, std::max(threshold - kCandidateMargin, 0.05));
    for (uint32_t a : standing) index.Add(a, texts[a]->sketch);
    for (uint32_t b = begin; b < end; ++b) {
      if (!texts[b]->shingles.empty()) index.Add(b, texts[b]->sketch);
    }
    for (uint32_t b = begin; b < end; ++b) {
      if (texts[b]->shingles.empty()) continue;
      std::vector<MinhashMatch> matches = index.Query(texts[b]->sketch);
      matches.erase(std::remove_if(matches.begin(), matches.end(), [&](const MinhashMatch& m) { return m.id >= b; }),
                    matches.end());
      if (matches.size() > kMostMatches) {
        std::nth_element(matches.begin(), matches.begin() + kMostMatches, matches.end(),
                         [](const MinhashMatch& x, const MinhashMatch& y) { return x.similarity > y.similarity; });
        matches.resize(kMostMatches);
      }
      auto pair_with = [&](uint32_t a) {
        const double j = ShingleJaccard(texts[a]->shingles, texts[b]->shingles);
        if (j >= threshold) pairs.push_back({j, a, b});
        return j;
      };
      double closest = 0;
      uint32_t closest_standing = 0;
      for (const MinhashMatch& m : matches) {
        const auto a = static_cast<uint32_t>(m.id);
        const double j = pair_with(a);
        if (!stands[a]) continue;
        if (j > closest) closest = j, closest_standing = a;
        // The texts of earlier blocks that a stands for are in no index now: met through a.
        for (uint32_t other : stands_for[a]) {
          if (other < begin) pair_with(other);
        }
      }
      if (closest < std::max(threshold, kRepresented)) {
        stands[b] = true;
        standing.push_back(b);
      } else if (stands_for[closest_standing].size() < kMostMatches) {
        stands_for[closest_standing].push_back(b);
      }
    }
  }
  return pairs;
}

// What is known of the pairs across two groups: the least similarity among those compared, whether
// one is not near (then the groups never join: groups only grow), and the rectangle checked:
// the first verified[0] members of the group with the lower root times the first verified[1]
// of the other (members are only ever appended to a group that stays a root).
struct Link {
  double least = 1;
  bool apart = false;
  uint32_t verified[2] = {0, 0};
};

// Complete-linkage agglomeration, lazily: candidate pairs propose joins, most similar first;
// two groups join once every pair across them is known near, checked when their turn comes,
// and in the order of the least similar pair across them.
class Agglomeration {
 public:
  Agglomeration(const std::vector<const ShingledText*>& texts, const std::vector<NearPair>& pairs, double threshold)
      : texts_(texts), pairs_(pairs), threshold_(threshold), members_(texts.size()), to_root_(texts.size(), 0), links_(texts.size()) {
    for (uint32_t t = 0; t < texts.size(); ++t) members_[t] = {t};
  }

  std::vector<std::vector<uint32_t>> Run() {
    for (const NearPair& pair : pairs_) {
      links_[pair.a][pair.b] = links_[pair.b][pair.a] = {pair.jaccard, false, {1, 1}};
      queue_.emplace(pair.jaccard, pair.a, pair.b);
    }
    while (!queue_.empty()) {
      const auto [key, a, b] = queue_.top();
      queue_.pop();
      if (members_[a].empty() || members_[b].empty()) continue;  // joined into another since
      const auto it = links_[a].find(b);
      if (it == links_[a].end() || it->second.apart || it->second.least != key) continue;  // stale
      Link link = it->second;
      const uint32_t lo = std::min(a, b), hi = std::max(a, b);
      if (link.verified[0] < members_[lo].size() || link.verified[1] < members_[hi].size()) {
        link.apart = !Verify(lo, hi, link);
        link.verified[0] = static_cast<uint32_t>(members_[lo].size());
        link.verified[1] = static_cast<uint32_t>(members_[hi].size());
        links_[a][b] = links_[b][a] = link;
        if (link.apart) continue;
        if (link.least < key) {  // known now: its turn may come later
          queue_.emplace(link.least, a, b);
          continue;
        }
      }
      Join(a, b);
    }
    std::vector<std::vector<uint32_t>> groups;
    for (std::vector<uint32_t>& group : members_) {
      if (group.empty()) continue;
      std::sort(group.begin(), group.end());
      groups.push_back(std::move(group));
    }
    std::sort(groups.begin(), groups.end());
    return groups;
  }

 private:
  double Jaccard(uint32_t x, uint32_t y) const { return ShingleJaccard(texts_[x]->shingles, texts_[y]->shingles); }

  // Whether the pairs across groups lo and hi outside the link's verified rectangle are all
  // near, lowering link.least to the least similarity compared. Jaccard distance is a metric,
  // so x and y are near, uncompared, when their distances to their roots and the roots'
  // distance add up to at most 1 - threshold: groups of close copies join without comparing
  // every pair.
  bool Verify(uint32_t lo, uint32_t hi, Link& link) const {
    const double roots = 1 - Jaccard(lo, hi);
    for (size_t i = 0; i < members_[lo].size(); ++i) {
      const uint32_t x = members_[lo][i];
      for (size_t j = i < link.verified[0] ? link.verified[1] : 0; j < members_[hi].size(); ++j) {
        const uint32_t y = members_[hi][j];
        if (to_root_[x] + roots + to_root_[y] <= 1 - threshold_) continue;
        const double jaccard = Jaccard(x, y);
        if (jaccard < threshold_) return false;
        link.least = std::min(link.least, jaccard);
      }
    }
    return true;
  }

  // The smaller group into the larger, whose root stays and whose links stay as they were; the
  // links of the smaller one move to it, to be checked again.
  void Join(uint32_t a, uint32_t b) {
    if (members_[a].size() < members_[b].size()) std::swap(a, b);
    for (uint32_t y : members_[b]) to_root_[y] = 1 - Jaccard(y, a);
    members_[a].insert(members_[a].end(), members_[b].begin(), members_[b].end());
    members_[b].clear();
    links_[a].erase(b);
    links_[b].erase(a);
    for (const auto& [c, link] : links_[b]) {
      Link& joined = links_[a][c];
      joined.least = std::min(joined.least, link.least);
      joined.apart = joined.apart || link.apart;
      joined.verified[0] = joined.verified[1] = 0;
      links_[c].erase(b);
      links_[c][a] = joined;
      if (!joined.apart) queue_.emplace(joined.least, a, c);
    }
    links_[b].clear();
  }

  using Candidate = std::tuple<double, uint32_t, uint32_t>;  // (least similarity, group, group)
  struct Later {
    bool operator()(const Candidate& x, const Candidate& y) const {
      return std::get<0>(x) != std::get<0>(y) ? std::get<0>(x) < std::get<0>(y) : x > y;
    }
  };

  const std::vector<const ShingledText*>& texts_;
  const std::vector<NearPair>& pairs_;
  const double threshold_;
  std::vector<std::vector<uint32_t>> members_;  // a group's texts, at its root; empty elsewhere
  std::vector<double> to_root_;                 // each text's Jaccard distance to its group's root
  std::vector<std::unordered_map<uint32_t, Link>> links_;  // a root's, by the other root
  std::priority_queue<Candidate, std::vector<Candidate>, Later> queue_;
};

// Each text's most similar near text, where the pairs found one; the lower text on a tie.
std::vector<std::optional<NearestApart>> Nearest(size_t texts, const std::vector<NearPair>& pairs) {
  std::vector<std::optional<NearestApart>> nearest(texts);
  auto offer = [&](uint32_t text, uint32_t other, double jaccard) {
    auto& best = nearest[text];
    if (!best || jaccard > best->jaccard || (jaccard == best->jaccard && other < best->nearest)) {
      best = NearestApart{text, other, jaccard};
    }
  };
  for (const NearPair& pair : pairs) {
    offer(pair.a, pair.b, pair.jaccard);
    offer(pair.b, pair.a, pair.jaccard);
  }
  return nearest;
}

}  // namespace

MinhashGrouping MinhashGroups(const std::vector<const ShingledText*>& texts, double threshold) {
  const std::vector<NearPair> pairs = NearPairs(texts, threshold);
  MinhashGrouping out;
  std::vector<uint32_t> group_of(texts.size());
  for (const std::vector<uint32_t>& group : Agglomeration(texts, pairs, threshold).Run()) {
    std::vector<GroupMember> members;
    for (uint32_t m : group) {
      members.push_back({m, ShingleJaccard(texts[group.front()]->shingles, texts[m]->shingles)});
      group_of[m] = static_cast<uint32_t>(out.groups.size());
    }
    out.groups.push_back(std::move(members));
  }
  const std::vector<std::optional<NearestApart>> nearest = Nearest(texts.size(), pairs);
  for (const auto& n : nearest) {
    if (!n || group_of[n->text] == group_of[n->nearest]) continue;
    // A mutual pair is reported once, from its lower text.
    const auto& back = nearest[n->nearest];
    if (back && back->nearest == n->text && n->nearest < n->text) continue;
    out.apart.push_back(*n);
  }
  return out;
}

}  // namespace seen::cli
