// MinHash sketch values never change: saved indexes hold them, and an index that sketches a
// query differently from its stored texts silently stops finding them. Texts mixing every
// script and byte class the tokenizer tells apart (ASCII words and punctuation, folded Latin,
// Greek and Cyrillic capitals, full-width forms, CJK, emoji, invalid UTF-8, words longer than
// any buffer) are sketched under every kind of option, and the digest of all their bins is
// pinned: it was taken from the sketcher that decoded every character, before the fast paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/hash.h"
#include "core/minhash.h"

namespace seen {
namespace {

// Fragments on both sides of each fast path's edges: ASCII that folds and ASCII that splits,
// NUL, and non-ASCII of every class, well- and ill-formed.
const std::vector<std::string>& Fragments() {
  static const std::vector<std::string> fragments = {
      "the", "Quick", "BROWN", "fox42", "0", "9z", " ", "  ", ",", ". ", "-", "_", "@", "~", "\t\n",
      std::string(1, '\0'), "\x7f", "caf\xc3\xa9", "\xc3\x89T\xc3\x89", "\xc3\x97", "\xc3\xb7", "\xc2\xa0",
      "\xc4\x80\xc4\xb9\xc5\xb8", "\xce\x91\xce\xa9\xce\xb1", "\xd0\x81\xd0\x90\xd1\x8f", "\xe4\xb8\xad\xe6\x96\x87",
      "\xed\x95\x9c", "\xe3\x81\x8b\xe3\x83\xbb", "\xef\xbc\xa1\xef\xbd\x82", "\xe3\x80\x80", "\xe3\x80\x82",
      "\xf0\x9f\x98\x80", "\xf0\xa0\x80\x80", "\xe2\x80\x94", "\xff", "\x80", "\xe4\xb8", "\xc0\x80",
      "\xed\xa0\x80", "\xf4\x90\x80\x80", std::string(80, 'a'), std::string(70, 'Z') + "\xc3\xa9",
      "x" + std::string(40, '\xc3') + "q",
  };
  return fragments;
}

// Texts of 0..199 fragments. The engine's raw output is standardized; distributions are not.
std::vector<std::string> Texts() {
  std::mt19937_64 rng(2026);
  std::vector<std::string> texts;
  for (int t = 0; t < 300; ++t) {
    std::string text;
    const uint64_t pieces = rng() % 200;
    for (uint64_t i = 0; i < pieces; ++i) text += Fragments()[rng() % Fragments().size()];
    texts.push_back(text);
  }
  return texts;
}

TEST(MinhashValues, MixedScriptSketchesKeepTheirPinnedDigest) {
  const std::vector<std::string> texts = Texts();
  std::vector<uint32_t> all;
  for (uint32_t bins : {16u, 128u, 1024u}) {
    for (uint32_t shingle : {1u, 2u, 3u, 8u}) {
      for (bool keyed : {false, true}) {
        MinhashOptions options;
        options.bins = bins;
        options.shingle = shingle;
        options.seed = keyed ? 7 : 99;
        if (keyed) options.key = SecretKey{0x0123456789abcdefULL, 0xfedcba9876543210ULL};
        for (const std::string& text : texts) {
          const std::vector<uint32_t> sketch = SketchText(text.data(), text.size(), options);
          all.insert(all.end(), sketch.begin(), sketch.end());
        }
      }
    }
  }
  EXPECT_EQ(HashBytes(all.data(), all.size() * sizeof(uint32_t), 0), 0xfb36e911de8540f2ULL);
}

}  // namespace
}  // namespace seen
