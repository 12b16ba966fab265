#include "core/stop_words.h"

#include <array>
#include <cstdint>
#include <cstring>

namespace seen::text {
namespace {

// Articles, pronouns, auxiliaries, prepositions, conjunctions.
constexpr std::array<std::string_view, 129> kStopWords = {
    "a",       "about",  "above",   "after",  "again", "against",  "all",     "am",     "an",
    "and",     "any",    "are",     "as",     "at",    "be",       "because", "been",   "before",
    "being",   "below",  "between", "both",   "but",   "by",       "can",     "could",  "did",
    "do",      "does",   "doing",   "down",   "during", "each",    "few",     "for",    "from",
    "further", "had",    "has",     "have",   "having", "he",      "her",     "here",   "hers",
    "herself", "him",    "himself", "his",    "how",   "i",        "if",      "in",     "into",
    "is",      "it",     "its",     "itself", "just",  "may",      "me",      "more",   "most",
    "must",    "my",     "myself",  "no",     "nor",   "not",      "now",     "of",     "off",
    "on",      "once",   "only",    "or",     "other", "our",      "ours",    "ourselves", "out",    "over",
    "own",     "same",   "shall",   "she",    "should", "so",      "some",    "such",   "than",
    "that",    "the",    "their",   "theirs", "them",  "themselves", "then",     "there",   "these",  "they",
    "this",    "those",  "through", "to",     "too",   "under",    "until",   "up",     "very",
    "was",     "we",     "were",    "what",   "when",  "where",    "which",   "while",  "who",
    "whom",    "why",    "will",    "with",   "would", "you",      "your",    "yours",  "yourself",
    "yourselves",
};
constexpr size_t kLongest = 10;  // "themselves", "yourselves"

// A word of up to 16 bytes as two numbers, the bytes in little-endian order (what a load of a
// zero-padded buffer gives), so that the lookup compares integers: this is a hot path of the
// tokenizer, where string compares took half of the time of English text.
struct Packed {
  uint64_t low = 0, high = 0;
  constexpr bool operator==(const Packed& other) const { return low == other.low && high == other.high; }
};

constexpr Packed Pack(std::string_view word) {
  Packed packed;
  for (size_t i = 0; i < word.size() && i < 16; ++i) {
    (i < 8 ? packed.low : packed.high) |= uint64_t{static_cast<uint8_t>(word[i])} << (8 * (i % 8));
  }
  return packed;
}

// Open addressing at a quarter full: most lookups read one slot. An empty slot is all zero,
// which no word packs to.
constexpr unsigned kSlotBits = 9;
constexpr size_t Slot(const Packed& p) { return ((p.low ^ p.high * 31) * 0x9E3779B97F4A7C15u) >> (64 - kSlotBits); }

constexpr std::array<Packed, size_t{1} << kSlotBits> BuildTable() {
  std::array<Packed, size_t{1} << kSlotBits> table{};
  for (std::string_view word : kStopWords) {
    size_t slot = Slot(Pack(word));
    while (!(table[slot] == Packed{})) slot = (slot + 1) % table.size();
    table[slot] = Pack(word);
  }
  return table;
}
constexpr auto kTable = BuildTable();

// Bit n of kLengths[b]: some stop word of n bytes starts with byte b. Most other words are
// rejected by it without a lookup.
constexpr std::array<uint16_t, 256> BuildLengths() {
  std::array<uint16_t, 256> lengths{};
  for (std::string_view word : kStopWords) lengths[static_cast<uint8_t>(word[0])] |= uint16_t{1} << word.size();
  return lengths;
}
constexpr auto kLengths = BuildLengths();

constexpr bool AllShort() {
  for (std::string_view word : kStopWords) {
    if (word.empty() || word.size() > kLongest) return false;
  }
  return true;
}
static_assert(AllShort(), "every stop word has 1 to kLongest bytes");

}  // namespace

bool IsStopWord(std::string_view word) {
  if (word.empty() || word.size() > kLongest || !(kLengths[static_cast<uint8_t>(word[0])] >> word.size() & 1)) {
    return false;
  }
  uint8_t padded[16] = {};
  std::memcpy(padded, word.data(), word.size());
  Packed packed;
  std::memcpy(&packed.low, padded, 8);
  std::memcpy(&packed.high, padded + 8, 8);
  for (size_t slot = Slot(packed);; slot = (slot + 1) % kTable.size()) {
    if (kTable[slot] == packed) return true;
    if (kTable[slot] == Packed{}) return false;
  }
}

}  // namespace seen::text
