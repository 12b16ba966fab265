// Text to fingerprints in one streaming pass: decode, fold, classify; feed CJK character
// n-grams to the SIMD accumulator as they come (a shingle seen t times is added t times), tally
// the words, and feed the normalized text to XXH3-128. At the end each distinct word votes
// once, weighing 1 + ln(its count), in order of first appearance, so every SIMD target sums
// the same floats; stop words vote only in a text of nothing else. Counting every word let a
// few frequent ones outvote everything an English text says; damping CJK shingles the same way
// only made edited copies harder to find (docs/simhash.md).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/hash.h"
#include "core/simhash.h"
#include "core/simhash_unicode.h"
#include "core/stop_words.h"
#include "core/text_word.h"
#include "core/token_tally.h"

namespace seen {
namespace {

using text::Class;

class Fingerprinter {
 public:
  Fingerprinter(const TextOptions& options, TokenTally& tally) : options_(options), tally_(tally) {
    tally_.Clear();
    XXH3_128bits_reset(&exact_);
  }

  void Feed(const uint8_t* p, const uint8_t* end) {
    while (p < end) {
      // ASCII, nearly all of an English text, skips decoding and the Unicode tables.
      if (*p < 0x80) {
        const uint8_t folded = text::kAsciiWordByte[*p++];
        if (folded == 0) {
          EndWord();
          pending_space_ = true;
        } else {
          Normalized(&folded, 1);
          word_.Append(folded);
        }
        continue;
      }
      uint32_t cp;
      p += text::Decode(p, end, &cp);
      if (cp != text::kInvalid) cp = text::Fold(cp);
      switch (text::Classify(cp)) {
        case Class::kSeparator:
          EndWord();
          pending_space_ = true;
          break;
        case Class::kWord: {
          uint8_t bytes[4];
          const size_t n = text::Encode(cp, bytes);
          Normalized(bytes, n);
          word_.Append(bytes, n);
          break;
        }
        case Class::kCjk:
          EndWord();
          Cjk(cp);
          break;
      }
    }
  }

  TextFingerprint Finish() {
    EndWord();
    // A text with fewer CJK characters than n still gets them as one token.
    if (cjk_seen_ > 0 && cjk_seen_ < options_.ngram) Shingle(stream_, stream_size_);
    XXH3_128bits_update(&exact_, out_, out_size_);
    const XXH128_hash_t exact = XXH3_128bits_digest(&exact_);
    return {Vote(), exact.low64, exact.high64, features_};
  }

 private:
  uint64_t Vote() {
    Flush();
    alignas(64) float sums[64];
    for (unsigned b = 0; b < 64; ++b) {
      sums[b] = options_.idf ? sums_[b] : static_cast<float>(2 * static_cast<int64_t>(set_[b]) - static_cast<int64_t>(shingles_));
    }
    const auto& words = tally_.tokens();
    const bool only_stop_words =
        shingles_ == 0 && std::all_of(words.begin(), words.end(), [](const TalliedToken& w) { return w.stop; });
    size_t batch = 0;
    for (const TalliedToken& word : words) {
      if (word.stop && !only_stop_words) continue;
      hashes_[batch] = word.hash;
      // Most words come once: ln 1 = 0 needs no call.
      weights_[batch] = word.count == 1 ? word.weight : word.weight * (1.0f + std::log(static_cast<float>(word.count)));
      if (++batch == kBatch) {
        AccumulateSigns(hashes_, weights_, batch, sums);
        batch = 0;
      }
    }
    AccumulateSigns(hashes_, weights_, batch, sums);
    return SignsToFingerprint(sums);
  }

  void Normalized(const uint8_t* bytes, size_t n) {
    if (out_size_ + n + 1 > sizeof out_) {
      XXH3_128bits_update(&exact_, out_, out_size_);
      out_size_ = 0;
    }
    // Every run of separators between two kept characters becomes one space.
    if (pending_space_ && any_out_) out_[out_size_++] = ' ';
    pending_space_ = false;
    any_out_ = true;
    for (size_t i = 0; i < n; ++i) out_[out_size_++] = bytes[i];  // 1-4 bytes: no memcpy call
  }

  void EndWord() {
    if (word_.empty()) return;
    Word(word_.data(), word_.size());
    word_.Clear();
  }

  // The CJK stream skips everything between its characters, so punctuation, spaces and Latin
  // words inside Chinese text do not break its shingles. stream_ holds the latest CJK bytes;
  // starts_ the offsets of its last n characters (a ring). When it fills, the last n - 1
  // characters move to its front, once every few dozen characters.
  void Cjk(uint32_t cp) {
    uint8_t bytes[4];
    const size_t n = text::Encode(cp, bytes);
    Normalized(bytes, n);
    const uint32_t ngram = options_.ngram;
    if (stream_size_ + 4 > sizeof stream_) {
      const size_t keep_from = cjk_seen_ >= ngram ? starts_[(cjk_seen_ + 1) % ngram] : 0;
      std::memmove(stream_, stream_ + keep_from, stream_size_ - keep_from);
      for (auto& start : starts_) start = start >= keep_from ? start - keep_from : 0;
      stream_size_ -= keep_from;
    }
    starts_[cjk_seen_ % ngram] = stream_size_;
    for (size_t i = 0; i < n; ++i) stream_[stream_size_++] = bytes[i];
    ++cjk_seen_;
    if (cjk_seen_ >= ngram) {
      const size_t first = starts_[cjk_seen_ % ngram];  // the oldest of the last n
      Shingle(stream_ + first, stream_size_ - first);
    }
  }

  void Shingle(const uint8_t* bytes, size_t n) {
    const uint64_t hash = FeatureHash(bytes, n);
    hashes_[batch_] = hash;
    if (options_.idf) weights_[batch_] = IdfWeight(hash, bytes, n);
    ++features_;
    ++shingles_;
    if (++batch_ == kBatch) Flush();
  }

  // What a word is (stop word, IDF weight) is looked up once, at its first appearance.
  void Word(const uint8_t* bytes, size_t n) {
    const uint64_t hash = FeatureHash(bytes, n);
    TalliedToken& word = tally_.Add(hash);
    ++features_;
    if (word.count > 1) return;
    word.stop = text::IsStopWord(std::string_view(reinterpret_cast<const char*>(bytes), n));
    if (options_.idf) word.weight = IdfWeight(hash, bytes, n);
  }

  uint64_t FeatureHash(const uint8_t* bytes, size_t n) const {
    return HashBytes(bytes, n, Hashing(options_.seed, options_.key));
  }

  // IDF tables are looked up by the unseeded, unkeyed hash.
  float IdfWeight(uint64_t feature_hash, const uint8_t* bytes, size_t n) const {
    const bool plain = options_.seed == 0 && !options_.key;
    return options_.idf->Weight(plain ? feature_hash : HashBytes(bytes, n, 0));
  }

  // Shingles of unit weight are counted exactly; IDF-weighted ones go to float sums.
  void Flush() {
    if (options_.idf) {
      AccumulateSigns(hashes_, weights_, batch_, sums_);
    } else {
      CountSetBits(hashes_, batch_, set_);
    }
    batch_ = 0;
  }

  static constexpr size_t kBatch = 256;
  const TextOptions& options_;
  TokenTally& tally_;
  alignas(64) float sums_[64] = {};
  uint64_t set_[64] = {};
  uint64_t hashes_[kBatch];
  float weights_[kBatch];
  size_t batch_ = 0;
  uint64_t shingles_ = 0;
  uint64_t features_ = 0;
  text::WordBuilder word_;
  uint8_t stream_[256];
  size_t stream_size_ = 0;
  size_t starts_[kMaxNgram] = {};
  uint64_t cjk_seen_ = 0;
  XXH3_state_t exact_;
  uint8_t out_[4096];
  size_t out_size_ = 0;
  bool pending_space_ = false;
  bool any_out_ = false;
};

}  // namespace

TextFingerprint FingerprintText(const char* text, size_t len, const TextOptions& options) {
  if (options.ngram < 1 || options.ngram > kMaxNgram) {
    throw Error(Code::kInvalidArgument, "ngram " + std::to_string(options.ngram) + " is outside 1..8");
  }
  // One tally per thread, reused, so fingerprinting many short texts allocates nothing.
  thread_local TokenTally tally;
  Fingerprinter f(options, tally);
  if (len > 0) {
    const auto* p = reinterpret_cast<const uint8_t*>(text);
    f.Feed(p, p + len);
  }
  return f.Finish();
}

IdfTable::IdfTable(const uint8_t* data, const uint64_t* offsets, const float* weights, size_t n,
                   float default_weight)
    : default_weight_(default_weight) {
  if (!std::isfinite(default_weight)) throw Error(Code::kInvalidArgument, "default weight is not finite");
  for (size_t i = 0; i < n; ++i) {
    if (offsets[i + 1] < offsets[i]) throw Error(Code::kInvalidArgument, "offsets decrease at " + std::to_string(i));
    if (!std::isfinite(weights[i])) throw Error(Code::kInvalidArgument, "weight " + std::to_string(i) + " is not finite");
    // The token's normalized form: its only word, or its CJK characters with no spaces.
    std::string token;
    const uint8_t* p = data == nullptr ? nullptr : data + offsets[i];
    const uint8_t* end = data == nullptr ? nullptr : data + offsets[i + 1];
    while (p < end) {
      uint32_t cp;
      p += text::Decode(p, end, &cp);
      if (cp != text::kInvalid) cp = text::Fold(cp);
      if (text::Classify(cp) == Class::kSeparator) continue;
      uint8_t bytes[4];
      token.append(reinterpret_cast<const char*>(bytes), text::Encode(cp, bytes));
    }
    weights_[HashBytes(token.data(), token.size(), 0)] = weights[i];
  }
}

}  // namespace seen
