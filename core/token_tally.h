// The distinct words of one text, in order of first appearance, with how often each came:
// SimHash's vote weighs a word by 1 + ln(its count) (docs/simhash.md), which needs the counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace seen {

struct TalliedToken {
  uint64_t hash;
  uint32_t count;
  float weight;    // the weight of one occurrence (1, or the token's IDF weight)
  uint32_t slot;   // where the table points to it
  bool stop;       // a stop word: it votes only in a text of nothing else
};

class TokenTally {
 public:
  TokenTally();

  // Counts the token of this hash; returns its entry, whose weight and stop the
  // caller sets when count is 1 (its first appearance).
  TalliedToken& Add(uint64_t hash);

  const std::vector<TalliedToken>& tokens() const { return tokens_; }

  // Empties the tally for the next text, keeping its memory unless the last text was huge.
  void Clear();

 private:
  void Grow();
  size_t Slot(uint64_t hash) const { return (hash * salt_) >> shift_; }

  // Open addressing over tokens_: 0 is an empty slot, i + 1 is tokens_[i]. The slot of a hash
  // is multiplied by a per-process random odd salt, so texts crafted to collide in the table
  // cannot make a tally quadratic.
  std::vector<uint32_t> slots_;
  std::vector<TalliedToken> tokens_;
  uint64_t salt_;
  unsigned shift_;
};

}  // namespace seen
