// SimHash fingerprints: the accumulation against a plain reference on every SIMD target, the
// tokenizer rules of docs/simhash.md checked through the tokens they must produce, the exact
// fingerprint, bad input, and the shared vectors every binding pins.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <hwy/targets.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/hash.h"
#include "core/simhash.h"
#include "core/siphash.h"
#include "core/stop_words.h"

namespace seen {
namespace {

// The definition, written out: bit b is set iff the weights of hashes with bit b set
// outweigh the others, summed in float in feature order.
uint64_t Reference(const std::vector<uint64_t>& hashes, const std::vector<float>& weights) {
  float sums[64] = {};
  for (size_t i = 0; i < hashes.size(); ++i) {
    for (int b = 0; b < 64; ++b) sums[b] += (hashes[i] >> b & 1) ? weights[i] : -weights[i];
  }
  uint64_t fp = 0;
  for (int b = 0; b < 64; ++b) fp |= uint64_t{sums[b] > 0} << b;
  return fp;
}

// The fingerprint of a hand-written token list: each distinct token votes once, in order of
// first appearance, weighing how often it is in the list if it is a CJK shingle (it starts at
// U+3000 or later: a UTF-8 lead byte of 0xE3 or more), 1 + ln of that if it is a word.
uint64_t OfTokens(const std::vector<std::string>& tokens, uint64_t seed = 0) {
  std::vector<std::string> distinct;
  std::vector<int> counts;
  for (const auto& t : tokens) {
    const auto at = std::find(distinct.begin(), distinct.end(), t);
    if (at == distinct.end()) {
      distinct.push_back(t);
      counts.push_back(1);
    } else {
      ++counts[at - distinct.begin()];
    }
  }
  std::vector<uint64_t> hashes;
  std::vector<float> weights;
  for (size_t i = 0; i < distinct.size(); ++i) {
    hashes.push_back(XXH3_64bits_withSeed(distinct[i].data(), distinct[i].size(), seed));
    const bool shingle = static_cast<uint8_t>(distinct[i][0]) >= 0xE3;
    const float count = static_cast<float>(counts[i]);
    weights.push_back(shingle ? count : 1.0f + std::log(count));
  }
  return Reference(hashes, weights);
}

TextFingerprint Text(const std::string& text, uint32_t ngram = 3) {
  TextOptions options;
  options.ngram = ngram;
  return FingerprintText(text.data(), text.size(), options);
}

uint64_t Simhash(const std::string& text, uint32_t ngram = 3) { return Text(text, ngram).simhash; }

TEST(Simhash, EveryTargetMatchesTheDefinition) {
  std::mt19937_64 rng(11);
  std::vector<uint64_t> hashes(1000);
  std::vector<float> weights(1000);
  for (auto& h : hashes) h = rng();
  for (auto& w : weights) w = static_cast<float>(rng() % 1000) / 37.0f - 10.0f;
  const uint64_t expected = Reference(hashes, weights);
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    for (size_t n : {0, 1, 7, 255, 256, 257, 1000}) {
      std::vector<uint64_t> h(hashes.begin(), hashes.begin() + n);
      std::vector<float> w(weights.begin(), weights.begin() + n);
      EXPECT_EQ(SimhashHashes(h.data(), w.data(), n), Reference(h, w)) << hwy::TargetName(target) << " n=" << n;
    }
    EXPECT_EQ(SimhashHashes(hashes.data(), weights.data(), 1000), expected);
    EXPECT_EQ(Simhash("同一段中文文本在每个目标上都一样"), OfTokens({"同一段", "一段中", "段中文", "中文文", "文文本",
                                                         "文本在", "本在每", "在每个", "每个目", "个目标",
                                                         "目标上", "标上都", "上都一", "都一样"}));
  }
  hwy::SetSupportedTargetsForTest(0);
}

TEST(Simhash, NullWeightsMeanOne) {
  const std::vector<uint64_t> hashes = {1, 2, 3, 0xFFFFFFFFFFFFFFFF, 0x8000000000000000};
  EXPECT_EQ(SimhashHashes(hashes.data(), nullptr, hashes.size()),
            Reference(hashes, std::vector<float>(hashes.size(), 1.0f)));
  EXPECT_EQ(SimhashHashes(nullptr, nullptr, 0), 0u);
}

TEST(Simhash, SingleFeatureIsItsHash) {
  const uint64_t h = 0x0123456789ABCDEF;
  EXPECT_EQ(SimhashHashes(&h, nullptr, 1), h);
  const float negative = -2.0f;
  EXPECT_EQ(SimhashHashes(&h, &negative, 1), ~h) << "a negative weight votes against its bits";
}

TEST(Simhash, StringsHashWithTheSeed) {
  const std::string data = "applebananacherry";
  const uint64_t offsets[] = {0, 5, 11, 17, 17};
  const float weights[] = {1, 2, 3, 0.5};
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 4; ++i) {
    hashes.push_back(XXH3_64bits_withSeed(data.data() + offsets[i], offsets[i + 1] - offsets[i], 42));
  }
  EXPECT_EQ(SimhashStrings(reinterpret_cast<const uint8_t*>(data.data()), offsets, weights, 4, {42, std::nullopt}),
            Reference(hashes, {1, 2, 3, 0.5}));
}

// Keyed: each feature hashes with SipHash-1-3 under the key, its first word XORed with the
// seed (docs/SECURITY.md), computed here from the bytes by the reference SipHash.
TEST(Simhash, KeyedStringsHashWithTheKey) {
  const std::string data = "applebananacherry";
  const uint64_t offsets[] = {0, 5, 11, 17};
  const Hashing keyed(42, SecretKey{0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL});
  std::vector<uint64_t> hashes;
  for (int i = 0; i < 3; ++i) {
    hashes.push_back(SipHash13(keyed.key->k0 ^ 42, keyed.key->k1, data.data() + offsets[i], offsets[i + 1] - offsets[i]));
  }
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  EXPECT_EQ(SimhashStrings(bytes, offsets, nullptr, 3, keyed), Reference(hashes, {1, 1, 1}));
  EXPECT_NE(SimhashStrings(bytes, offsets, nullptr, 3, keyed), SimhashStrings(bytes, offsets, nullptr, 3, {42, std::nullopt}));
}

TEST(Simhash, NonFiniteWeightsAreRefused) {
  const uint64_t h[2] = {1, 2};
  const float w[2] = {1, std::numeric_limits<float>::quiet_NaN()};
  EXPECT_THROW(SimhashHashes(h, w, 2), Error);
}

TEST(Simhash, Hamming) {
  EXPECT_EQ(Hamming(0, 0), 0u);
  EXPECT_EQ(Hamming(0, ~uint64_t{0}), 64u);
  EXPECT_EQ(Hamming(0xF0, 0x0F), 8u);
  EXPECT_EQ(Hamming(uint64_t{1} << 63, 1), 2u);
}

TEST(Tokenizer, LatinWordsAreFoldedAndSplitOnPunctuation) {
  const uint64_t expected = OfTokens({"hello", "world", "hello", "2026"});
  EXPECT_EQ(Simhash("Hello, WORLD! hello... 2026"), expected);
  EXPECT_EQ(Simhash("ＨＥＬＬＯ，ｗｏｒｌｄ！　ｈｅｌｌｏ　２０２６"), expected) << "full-width folds to ASCII";
  EXPECT_EQ(Simhash("hello\tworld\r\nhello\n2026\n"), expected);
  EXPECT_EQ(Simhash("Ärger ÉTÉ Ωmega Привет"), OfTokens({"ärger", "été", "ωmega", "привет"}));
  EXPECT_EQ(Simhash("don't e-mail"), OfTokens({"don", "t", "e", "mail"}));
}

TEST(Tokenizer, CjkShinglesSkipPunctuationAndLatinWords) {
  EXPECT_EQ(Simhash("你好世界"), OfTokens({"你好世", "好世界"}));
  EXPECT_EQ(Simhash("你好，世界！"), OfTokens({"你好世", "好世界"}));
  EXPECT_EQ(Simhash("你好 世界"), Simhash("你好世界"));
  EXPECT_EQ(Simhash("使用Python编程"), OfTokens({"python", "使用编", "用编程"}));
  EXPECT_EQ(Simhash("你好世界", 2), OfTokens({"你好", "好世", "世界"}));
  EXPECT_EQ(Simhash("你好世界", 1), OfTokens({"你", "好", "世", "界"}));
  EXPECT_EQ(Simhash("ひらがなカタカナ한국어"), OfTokens({"ひらが", "らがな", "がなカ", "なカタ", "カタカ", "タカナ",
                                                   "カナ한", "ナ한국", "한국어"}));
}

TEST(Tokenizer, ShortCjkTextIsOneToken) {
  EXPECT_EQ(Simhash("你好"), OfTokens({"你好"}));
  EXPECT_EQ(Simhash("好"), OfTokens({"好"}));
  EXPECT_EQ(Text("你好").features, 1u);
}

TEST(Tokenizer, RepeatedWordsWeighOnePlusTheLogOfTheirCount) {
  auto h = [](const std::string& t) { return XXH3_64bits(t.data(), t.size()); };
  const float thrice = 1.0f + std::log(3.0f);
  const std::string text = "x y x z x w";
  EXPECT_EQ(Simhash(text), Reference({h("x"), h("y"), h("z"), h("w")}, {thrice, 1, 1, 1}));
  EXPECT_NE(Simhash(text), Reference({h("x"), h("y"), h("x"), h("z"), h("x"), h("w")}, {1, 1, 1, 1, 1, 1}))
      << "not three votes of 1";
  EXPECT_EQ(Text(text).features, 6u);
  EXPECT_EQ(Simhash("你好你好你好世界", 2),
            Reference({h("你好"), h("好你"), h("好世"), h("世界")}, {3, 2, 1, 1}))
      << "CJK shingles weigh their count";
}

TEST(StopWords, WholeFoldedWordsOfTheListOnly) {
  for (const char* word : {"a", "i", "the", "and", "would", "yourself", "themselves", "yourselves"}) {
    EXPECT_TRUE(text::IsStopWord(word)) << word;
  }
  for (const char* word : {"", "b", "thee", "th", "The", "yourselve", "yourselvess", "the ", "cat", "的"}) {
    EXPECT_FALSE(text::IsStopWord(word)) << word;
  }
}

TEST(Tokenizer, StopWordsVoteOnlyInATextOfNothingElse) {
  EXPECT_EQ(Simhash("The cat and THE hat"), OfTokens({"cat", "hat"}));
  EXPECT_EQ(Text("The cat and THE hat").features, 5u);
  EXPECT_EQ(Simhash("to be or not to be"), OfTokens({"to", "be", "or", "not", "to", "be"}));
  EXPECT_EQ(Simhash("themselves"), OfTokens({"themselves"}));
  EXPECT_EQ(Simhash("thee"), OfTokens({"thee"})) << "only whole words are stop words";
  EXPECT_EQ(Simhash("的 是"), OfTokens({"的是"})) << "CJK shingles are never stop words";
}

TEST(Tokenizer, IdfWeightsTokens) {
  const std::string data = "HELLO世界";  // normalized like text: "hello" and "世界"
  const uint64_t offsets[] = {0, 5, 11};
  const float weights[] = {0.25f, 4.0f};
  IdfTable idf(reinterpret_cast<const uint8_t*>(data.data()), offsets, weights, 2, 2.0f);
  TextOptions options;
  options.ngram = 2;
  options.idf = &idf;
  const std::string text = "hello world 世界";
  const auto got = FingerprintText(text.data(), text.size(), options).simhash;
  auto h = [](const std::string& t) { return XXH3_64bits(t.data(), t.size()); };
  EXPECT_EQ(got, Reference({h("hello"), h("world"), h("世界")}, {0.25f, 2.0f, 4.0f}));
}

TEST(Tokenizer, NgramOutsideOneToEightIsRefused) {
  TextOptions options;
  options.ngram = 0;
  EXPECT_THROW(FingerprintText("x", 1, options), Error);
  options.ngram = 9;
  EXPECT_THROW(FingerprintText("x", 1, options), Error);
}

TEST(Tokenizer, SeedChangesEveryHash) {
  TextOptions options;
  options.ngram = 3;
  options.seed = 99;
  const std::string text = "seeded words 和中文";
  EXPECT_EQ(FingerprintText(text.data(), text.size(), options).simhash,
            OfTokens({"seeded", "words", "和中文"}, 99));
}

// Keyed, every feature hashes with SipHash-1-3 under the key: the fingerprint is the sign
// vote of those hashes, unlike the unkeyed one, and the same for the same key.
TEST(Tokenizer, AKeyHashesEveryFeatureUnderIt) {
  TextOptions options;
  options.ngram = 3;
  options.key = SecretKey{0x1111, 0x2222};
  const std::string text = "keyed words 和中文";
  const TextFingerprint keyed = FingerprintText(text.data(), text.size(), options);
  std::vector<uint64_t> hashes;
  for (const char* token : {"keyed", "words", "和中文"}) hashes.push_back(SipHash13(0x1111, 0x2222, token, std::strlen(token)));
  EXPECT_EQ(keyed.simhash, Reference(hashes, {1, 1, 1}));
  TextOptions unkeyed;
  unkeyed.ngram = 3;
  EXPECT_NE(keyed.simhash, FingerprintText(text.data(), text.size(), unkeyed).simhash);
  options.key = SecretKey{0x1111, 0x2223};
  EXPECT_NE(keyed.simhash, FingerprintText(text.data(), text.size(), options).simhash);
}

TEST(Exact, IsXxh3Of128TheNormalizedText) {
  auto exact = [](const std::string& normalized) { return XXH3_128bits(normalized.data(), normalized.size()); };
  const TextFingerprint f = Text("  Hello,   ＷＯＲＬＤ!! 你好，世界。 ");
  const XXH128_hash_t want = exact("hello world 你好 世界");
  EXPECT_EQ(f.exact_low, want.low64);
  EXPECT_EQ(f.exact_high, want.high64);
  EXPECT_EQ(Text("hello world").exact_low, exact("hello world").low64);
  EXPECT_NE(Text("hello world").exact_low, Text("helloworld").exact_low);
}

TEST(BadInput, EmptyTextHasFingerprintZero) {
  const TextFingerprint f = FingerprintText(nullptr, 0, TextOptions{});
  EXPECT_EQ(f.simhash, 0u);
  EXPECT_EQ(f.features, 0u);
  EXPECT_EQ(f.exact_low, XXH3_128bits("", 0).low64);
  EXPECT_EQ(Simhash(" ,.!? \n"), 0u) << "only separators: no tokens";
  EXPECT_EQ(Text(" ,.!? \n").exact_low, f.exact_low);
}

TEST(BadInput, InvalidUtf8AndNulAreSeparators) {
  const uint64_t expected = Simhash("hello world");
  EXPECT_EQ(Simhash(std::string("hello\0world", 11)), expected);
  EXPECT_EQ(Simhash("hello\xffworld"), expected);
  EXPECT_EQ(Simhash("hello\xc0\xafworld"), expected) << "overlong encoding";
  EXPECT_EQ(Simhash("hello\xed\xa0\x80world"), expected) << "surrogate";
  EXPECT_EQ(Simhash("hello\xf4\x90\x80\x80world"), expected) << "past U+10FFFF";
  EXPECT_EQ(Simhash("\x80\x80hello world\xe4\xbd"), expected) << "stray and cut-short sequences";
  EXPECT_EQ(Text("hello\xffworld").exact_low, Text("hello world").exact_low);
}

// Random bytes biased towards UTF-8 lead and continuation bytes, at every n-gram: a defined
// result each time (the sanitizer build checks that nothing reads outside the text).
TEST(BadInput, RandomBytesAreDefined) {
  std::mt19937_64 rng(3);
  const uint8_t alphabet[] = {0x00, 0x20, 0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xE4, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  for (int round = 0; round < 4000; ++round) {
    std::string text(rng() % 48, '\0');
    for (auto& c : text) c = static_cast<char>(rng() % 3 ? alphabet[rng() % 16] : rng() % 256);
    TextOptions options;
    options.ngram = 1 + round % kMaxNgram;
    const TextFingerprint a = FingerprintText(text.data(), text.size(), options);
    const TextFingerprint b = FingerprintText(text.data(), text.size(), options);
    ASSERT_EQ(a.simhash, b.simhash);
    ASSERT_EQ(a.exact_low, b.exact_low);
    if (a.features == 0) {
      ASSERT_EQ(a.simhash, 0u) << "no tokens, fingerprint 0";
    }
  }
}

TEST(BadInput, HugeTextStreams) {
  std::string chunk = "重复的长文本，";
  std::string text;
  while (text.size() < (size_t{16} << 20)) text += chunk;
  text += "重复";  // so that each of the six shingles occurs equally often
  const TextFingerprint f = Text(text);
  const uint64_t chars = text.size() / chunk.size() * 6 + 2;  // six CJK characters per chunk
  EXPECT_EQ(f.features, chars - 2);
  EXPECT_EQ(f.simhash, OfTokens({"重复的", "复的长", "的长文", "长文本", "文本重", "本重复"}))
      << "a periodic text weighs each of its six shingles equally";
}

TEST(NearDuplicates, EditsMoveFewBitsUnrelatedTextsMany) {
  const std::string base =
      "近日，某市召开新闻发布会，介绍了今年以来全市经济运行的总体情况。发布会上，相关负责人表示，"
      "全市地区生产总值同比增长百分之五点二，规模以上工业增加值增长百分之六点一，社会消费品零售总额"
      "增长百分之七点三，固定资产投资保持稳定增长，居民人均可支配收入稳步提高，就业形势总体稳定。";
  std::string edited = base;
  edited.replace(edited.find("五点二"), 9, "五点三");
  const std::string unrelated =
      "The committee met on Tuesday to review the annual budget and approved the new library "
      "hours, the repaving of Elm Street, and a grant for the youth football league this summer.";
  EXPECT_LE(Hamming(Simhash(base), Simhash(edited)), 6u);
  EXPECT_GE(Hamming(Simhash(base), Simhash(unrelated)), 16u);
}

// tests/vectors/simhash_texts.vec: the fingerprints every language must reproduce.
TEST(SharedVectors, SimhashTexts) {
  std::ifstream in(SEEN_SOURCE_DIR "/tests/vectors/simhash_texts.vec");
  ASSERT_TRUE(in) << "missing tests/vectors/simhash_texts.vec";
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    uint32_t ngram;
    std::string hex, simhash, exact_high, exact_low;
    fields >> ngram >> hex >> simhash >> exact_high >> exact_low;
    std::string text;
    if (hex != "-") {
      for (size_t i = 0; i + 1 < hex.size(); i += 2) text.push_back(static_cast<char>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    }
    const TextFingerprint f = Text(text, ngram);
    EXPECT_EQ(f.simhash, std::stoull(simhash, nullptr, 16)) << line;
    EXPECT_EQ(f.exact_high, std::stoull(exact_high, nullptr, 16)) << line;
    EXPECT_EQ(f.exact_low, std::stoull(exact_low, nullptr, 16)) << line;
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

}  // namespace
}  // namespace seen
