// Near groups of short texts for `seen dedupe --method minhash`: complete-linkage clusters
// whose every two members have an exact shingle Jaccard of at least the threshold.
#pragma once

#include <cstdint>
#include <vector>

namespace seen::cli {

// One text as MinhashGroups reads it: its sketch (MinhashOptions{}) and its shingle set
// (SketchText's); a text without tokens has an empty set and joins no group.
struct ShingledText {
  std::vector<uint32_t> sketch;
  std::vector<uint32_t> shingles;
};

struct GroupMember {
  uint32_t text;
  double jaccard;  // exact, with the group's first member
};

// A text and its most similar near text (exact Jaccard at least the threshold) when grouping
// put them in different groups.
struct NearestApart {
  uint32_t text, nearest;
  double jaccard;
};

struct MinhashGrouping {
  std::vector<std::vector<GroupMember>> groups;
  std::vector<NearestApart> apart;  // by text, each unordered pair once
};

// Every text in exactly one group, groups in the order of their first member, members in
// text order. Candidate pairs come from a MinHash LSH index a little below the threshold, so
// that a pair at the threshold is rarely lost to its estimate, and are verified exactly.
// Groups join by complete linkage, the two groups whose least similar pair across them is the
// most similar first, every pair across checked when their turn comes: an edited copy joins
// its original before either joins look-alikes (license boilerplate) the copy is farther
// from. Joining in input order, each text into the first group it was near, left a third of
// 5-edit copies of license passages outside their originals' groups
// (bench/results/dedupe_recall.md).
// Complete linkage must still keep some edited copies from their originals: an original whose
// look-alikes joined it first holds a member the copy is not near. So each text whose most
// similar near text ended in another group is reported with it (`apart`). "Most similar" is
// among the pairs the index found: up to 64 candidates a text, and a pair whose estimate
// falls below the index's margin under the threshold is not among them.
MinhashGrouping MinhashGroups(const std::vector<const ShingledText*>& texts, double threshold);

}  // namespace seen::cli
