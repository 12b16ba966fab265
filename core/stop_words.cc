#include "core/stop_words.h"

#include <algorithm>
#include <array>

namespace seen::text {
namespace {

// Sorted, for binary search: articles, pronouns, auxiliaries, prepositions, conjunctions.
constexpr std::array<std::string_view, 127> kStopWords = {
    "a",       "about",  "above",   "after",  "again", "against",  "all",     "am",     "an",
    "and",     "any",    "are",     "as",     "at",    "be",       "because", "been",   "before",
    "being",   "below",  "between", "both",   "but",   "by",       "can",     "could",  "did",
    "do",      "does",   "doing",   "down",   "during", "each",    "few",     "for",    "from",
    "further", "had",    "has",     "have",   "having", "he",      "her",     "here",   "hers",
    "herself", "him",    "himself", "his",    "how",   "i",        "if",      "in",     "into",
    "is",      "it",     "its",     "itself", "just",  "may",      "me",      "more",   "most",
    "must",    "my",     "myself",  "no",     "nor",   "not",      "now",     "of",     "off",
    "on",      "once",   "only",    "or",     "other", "our",      "ours",    "out",    "over",
    "own",     "same",   "shall",   "she",    "should", "so",      "some",    "such",   "than",
    "that",    "the",    "their",   "theirs", "them",  "then",     "there",   "these",  "they",
    "this",    "those",  "through", "to",     "too",   "under",    "until",   "up",     "very",
    "was",     "we",     "were",    "what",   "when",  "where",    "which",   "while",  "who",
    "whom",    "why",    "will",    "with",   "would", "you",      "your",    "yours",  "yourself",
    "yourselves",
};
constexpr bool Sorted() {
  for (size_t i = 1; i < kStopWords.size(); ++i) {
    if (!(kStopWords[i - 1] < kStopWords[i])) return false;
  }
  return true;
}
static_assert(Sorted(), "binary search needs the list sorted");

}  // namespace

bool IsStopWord(std::string_view word) {
  return std::binary_search(kStopWords.begin(), kStopWords.end(), word);
}

}  // namespace seen::text
