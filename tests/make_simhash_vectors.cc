// Writes tests/vectors/simhash_texts.vec: fixed Chinese and English texts with their
// fingerprints. Run only for a deliberate change of the tokenizer (then say so in the docs):
//   build/tests/make_simhash_vectors > tests/vectors/simhash_texts.vec
#include <cinttypes>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/simhash.h"

int main() {
  const std::vector<std::pair<uint32_t, std::string>> texts = {
      {3, ""},
      {3, "Hello, World!"},
      {3, "ＨＥＬＬＯ，ｗｏｒｌｄ！"},
      {3, "The quick brown fox jumps over the lazy dog."},
      {3, "The quick brown fox jumped over the lazy dog!"},
      {3, "你好，世界"},
      {3, "今天天气很好，我们去公园散步吧。"},
      {3, "今天天气很好，我们去公园散步。"},
      {2, "今天天气很好，我们去公园散步吧。"},
      {1, "中文分词"},
      {3, "使用Python编程处理中文文本。"},
      {3, "近日，某市召开新闻发布会，介绍了今年以来全市经济运行的总体情况。"},
      {3, "Ärger über ÉTÉ, Привет мир"},
      {3, "ひらがなとカタカナ、한국어"},
      {3, std::string("nul\0byte and \xff\xfe invalid", 23)},
      {5, "A longer English paragraph: near-duplicate detection finds documents that differ by a "
          "few edits, such as a changed date, an added signature, or different punctuation."},
      {3, "The cat and the hat: the cat sat, the cat ran, and the hat stayed."},
      {3, "to be or not to be"},
      {2, "重复重复重复的文本，重复的文本。"},
  };
  std::printf(
      "# SimHash fingerprints of fixed texts, pinned in every language (docs/simhash.md).\n"
      "# Text features version 2 (docs/FORMAT.md): words weigh 1 + ln(count), stop words\n"
      "# nothing unless the text has nothing else, CJK shingles their count.\n"
      "# One text per line: NGRAM TEXT_HEX SIMHASH EXACT_HIGH EXACT_LOW\n"
      "#   NGRAM      the CJK shingle length (default options otherwise: seed 0, no IDF)\n"
      "#   TEXT_HEX   the text's bytes in hex, '-' for the empty text\n"
      "#   SIMHASH    the 64-bit fingerprint, 16 hex digits\n"
      "#   EXACT_*    the XXH3-128 of the normalized text, high and low 64 bits in hex\n"
      "# Written by tests/make_simhash_vectors; a change here is a change of the tokenizer.\n");
  for (const auto& [ngram, text] : texts) {
    seen::TextOptions options;
    options.ngram = ngram;
    const seen::TextFingerprint f = seen::FingerprintText(text.data(), text.size(), options);
    std::string hex;
    char byte[3];
    for (unsigned char c : text) {
      std::snprintf(byte, sizeof byte, "%02x", c);
      hex += byte;
    }
    std::printf("%u %s %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", ngram,
                hex.empty() ? "-" : hex.c_str(), f.simhash, f.exact_high, f.exact_low);
  }
  return 0;
}
