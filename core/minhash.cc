#include "core/minhash.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "core/ascii_masks.h"
#include "core/error.h"
#include "core/simhash_unicode.h"
#include "core/text_word.h"

namespace seen {
namespace {

using text::Class;

// Splitmix64's finalizer: the densification's probe sequence, reproducible from the seed.
uint64_t Mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The first probes of every bin under one seed, remembered per thread: every text sketched
// under a seed probes the same bins, and computing them anew per text cost 5% of an English
// sketch. A probe is kept as its top 16 bits, which give its bin for every bin count (2^4 to
// 2^10 bins take the top 4 to 10 bits).
class FirstProbes {
 public:
  static constexpr uint32_t kCount = 4;

  // This thread's probes of `seed`, forgotten if they were of another seed.
  static FirstProbes& Of(uint64_t seed) {
    thread_local FirstProbes probes;
    if (!probes.used_ || probes.seed_ != seed) {
      probes.seed_ = seed;
      probes.used_ = true;
      std::fill(std::begin(probes.known_), std::end(probes.known_), 0);
    }
    return probes;
  }

  // The top bits of probes 1..kCount of bin i (probe a hashes the seed, i and a).
  const uint16_t* Of(uint32_t i) {
    if (((known_[i / 64] >> (i % 64)) & 1) == 0) {
      for (uint32_t a = 0; a < kCount; ++a) tops_[i][a] = static_cast<uint16_t>(Mix(seed_ ^ (uint64_t{i} << 32 | (a + 1))) >> 48);
      known_[i / 64] |= uint64_t{1} << (i % 64);
    }
    return tops_[i];
  }

 private:
  uint64_t seed_ = 0;
  bool used_ = false;
  uint64_t known_[kMaxMinhashBins / 64];  // which bins' probes tops_ holds, as bits
  uint16_t tops_[kMaxMinhashBins][kCount];
};

// Tokens as SimHash cuts them, hashed; each run of `shingle` consecutive token hashes is
// hashed again into one shingle hash, which goes to its bin of `bins`.
class Sketcher {
 public:
  // shingles, when given, also receives every shingle's hash cut to 32 bits.
  Sketcher(const MinhashOptions& options, uint32_t* bins, std::vector<uint32_t>* shingles)
      : options_(options), hashing_(options.seed, options.key), bins_(bins), shingles_(shingles) {
    std::fill(bins_, bins_ + options.bins, kEmptyBin);
    while ((uint32_t{1} << bin_bits_) < options.bins) ++bin_bits_;
  }

  void Feed(const uint8_t* p, const uint8_t* end) {
    while (p < end) {
      if (*p < 0x80) {
        p = Ascii(p, end);
        continue;
      }
      uint32_t cp;
      p += text::Decode(p, end, &cp);
      if (cp != text::kInvalid) cp = text::Fold(cp);
      const Class c = text::Classify(cp);
      if (c == Class::kSeparator) {
        EndWord();
        continue;
      }
      uint8_t bytes[4];
      const size_t n = text::Encode(cp, bytes);
      if (c == Class::kWord) {
        word_.Append(bytes, n);
      } else {
        EndWord();
        Token(bytes, n);
      }
    }
  }

  void Finish() {
    EndWord();
    // A text shorter than one shingle is one shingle of all its tokens.
    if (tokens_ > 0 && tokens_ < options_.shingle) Shingle(tokens_);
    Densify();
  }

 private:
  // A run of ASCII from p: its words, up to the first non-ASCII byte (returned), which may
  // continue the last word.
  const uint8_t* Ascii(const uint8_t* p, const uint8_t* end) {
    while (p < end && *p < 0x80) {
      if (word_.empty() && end - p >= 64) {
        const uint8_t* rest = Words64(p);
        if (rest != p) {
          p = rest;
          continue;
        }
      }
      // One word, byte by byte: before a block's worth of text is left, a word that runs past
      // a whole block, or one that goes on in non-ASCII. A whole word already in lower case
      // is hashed where it lies, uncopied.
      const uint8_t* q = p;
      uint8_t folds = 0;  // nonzero once a byte changed in folding
      // The table stops the word at a separator and at non-ASCII alike.
      for (; q < end && text::kAsciiWordByte[*q] != 0; ++q) folds |= text::kAsciiWordByte[*q] ^ *q;
      const bool whole = word_.empty() && q > p && (q == end || *q < 0x80);
      if (whole && folds == 0) {
        Token(p, static_cast<size_t>(q - p));
      } else {
        for (; p < q; ++p) word_.Append(text::kAsciiWordByte[*p]);
        if (q == end || *q >= 0x80) return q;  // the word may go on
        EndWord();
      }
      p = q;
      // Separators up to the next word character or non-ASCII byte.
      while (p < end && *p < 0x80 && text::kAsciiWordByte[*p] == 0) ++p;
    }
    return p;
  }

  // The words that end within the 64 bytes at p, where no word is pending; returns where the
  // rest begins: the first non-ASCII byte, or p + 64, or else the start of a word that may go
  // on past them (p itself when one begins the block).
  const uint8_t* Words64(const uint8_t* p) {
    uint8_t folded[64];
    const text::AsciiMasks m = text::ClassifyAscii64(p, folded);
    const uint32_t limit = m.non_ascii == 0 ? 64 : static_cast<uint32_t>(__builtin_ctzll(m.non_ascii));
    uint64_t words = limit == 64 ? m.word : m.word & ((uint64_t{1} << limit) - 1);
    while (words != 0) {
      const uint32_t start = static_cast<uint32_t>(__builtin_ctzll(words));
      const uint64_t beyond = ~(words >> start);  // the bits past this word
      if (beyond == 0) return p;                    // one word fills the block
      const uint32_t stop = start + static_cast<uint32_t>(__builtin_ctzll(beyond));
      if (stop >= limit) return p + start;
      Token(folded + start, stop - start);
      words &= ~((uint64_t{1} << stop) - 1);
    }
    return p + limit;
  }

  void EndWord() {
    if (word_.empty()) return;
    Token(word_.data(), word_.size());
    word_.Clear();
  }

  // Each token hash goes into the ring twice, kMaxShingle apart, so that the last `shingle`
  // of them always lie in a row, ready to be hashed as they are. Flattened: the compiler kept
  // XXH3 out of line, a call per hash (4% of an English sketch).
  __attribute__((flatten)) void Token(const uint8_t* bytes, size_t n) {
    const uint64_t at = tokens_ % kMaxShingle;
    recent_[at] = recent_[at + kMaxShingle] = HashBytes(bytes, n, hashing_);
    ++tokens_;
    if (tokens_ >= options_.shingle) Shingle(options_.shingle);
  }

  // The last `count` tokens as one shingle.
  void Shingle(uint64_t count) {
    const uint64_t* last = recent_ + (tokens_ - 1) % kMaxShingle + kMaxShingle;
    const uint64_t h = HashBytes(last + 1 - count, count * sizeof(uint64_t), hashing_);
    const uint32_t bin = static_cast<uint32_t>(h >> (64 - bin_bits_));
    // All ones marks an empty bin: a value may come close, never equal.
    const uint32_t value = std::min(static_cast<uint32_t>(h), kEmptyBin - 1);
    bins_[bin] = std::min(bins_[bin], value);
    filled_[bin / 64] |= uint64_t{1} << (bin % 64);
    if (shingles_ != nullptr) shingles_->push_back(static_cast<uint32_t>(h));
  }

  // Optimal densification: an empty bin takes the value of the first non-empty bin its own
  // probe sequence hits (probes of different empty bins are independent).
  void Densify() {
    if (tokens_ == 0) return;  // no shingle: the text stays empty
    FirstProbes& probes = FirstProbes::Of(options_.seed);
    auto filled = [&](uint32_t i) { return static_cast<uint32_t>(filled_[i / 64] >> (i % 64)) & 1; };
    // The empty bins, word by word of the mask: testing bin by bin mispredicted a third of
    // the time.
    for (uint32_t word = 0; word * 64 < options_.bins; ++word) {
      uint64_t empty = ~filled_[word];
      if (options_.bins - word * 64 < 64) empty &= (uint64_t{1} << (options_.bins - word * 64)) - 1;
      for (; empty != 0; empty &= empty - 1) {
        const uint32_t i = word * 64 + static_cast<uint32_t>(__builtin_ctzll(empty));
        // The first probes at once, without a branch per probe: one of four is filled but for
        // one empty bin in about forty.
        const uint16_t* tops = probes.Of(i);
        uint32_t j[FirstProbes::kCount], hits = 0;
        for (uint32_t a = 0; a < FirstProbes::kCount; ++a) {
          j[a] = tops[a] >> (16 - bin_bits_);
          hits |= filled(j[a]) << a;
        }
        if (hits != 0) {
          bins_[i] = bins_[j[__builtin_ctz(hits)]];
          continue;
        }
        for (uint32_t attempt = FirstProbes::kCount + 1;; ++attempt) {
          const uint32_t next = Probe(i, attempt);
          if (filled(next)) {
            bins_[i] = bins_[next];
            break;
          }
        }
      }
    }
  }

  // Bin i's probe number `attempt` (from 1).
  uint32_t Probe(uint32_t i, uint32_t attempt) const {
    return static_cast<uint32_t>(Mix(options_.seed ^ (uint64_t{i} << 32 | attempt)) >> (64 - bin_bits_));
  }

  static constexpr uint32_t kMaxShingle = 8;
  const MinhashOptions& options_;
  Hashing hashing_;
  uint32_t* bins_;
  std::vector<uint32_t>* shingles_;
  uint32_t bin_bits_ = 0;
  text::WordBuilder word_;
  uint64_t recent_[2 * kMaxShingle] = {};
  uint64_t tokens_ = 0;
  uint64_t filled_[kMaxMinhashBins / 64] = {};  // the bins some shingle reached, as bits
};

}  // namespace

MinhashOptions WithDefaultsForZeros(MinhashOptions o) {
  o.bins = OrDefault(o.bins, defaults::kMinhashBins);
  o.shingle = OrDefault(o.shingle, defaults::kMinhashShingle);
  return o;
}

void ValidateMinhashOptions(const MinhashOptions& o) {
  if (o.bins < 16 || o.bins > kMaxMinhashBins || (o.bins & (o.bins - 1)) != 0) {
    throw Error(Code::kInvalidArgument, "bins " + std::to_string(o.bins) + " is not a power of two in 16.." +
                                            std::to_string(kMaxMinhashBins));
  }
  if (o.shingle < 1 || o.shingle > 8) {
    throw Error(Code::kInvalidArgument, "shingle " + std::to_string(o.shingle) + " is outside 1..8");
  }
}

void SketchTextInto(const char* text, size_t len, const MinhashOptions& options, uint32_t* bins,
                    std::vector<uint32_t>* shingles) {
  ValidateMinhashOptions(options);
  Sketcher sketcher(options, bins, shingles);
  if (len > 0) {
    const auto* p = reinterpret_cast<const uint8_t*>(text);
    sketcher.Feed(p, p + len);
  }
  sketcher.Finish();
}

std::vector<uint32_t> SketchText(const char* text, size_t len, const MinhashOptions& options) {
  ValidateMinhashOptions(options);
  std::vector<uint32_t> bins(options.bins);
  SketchTextInto(text, len, options, bins.data());
  return bins;
}

std::vector<uint32_t> SketchText(const char* text, size_t len, const MinhashOptions& options,
                                 std::vector<uint32_t>* shingles) {
  ValidateMinhashOptions(options);
  std::vector<uint32_t> bins(options.bins);
  shingles->clear();
  SketchTextInto(text, len, options, bins.data(), shingles);
  std::sort(shingles->begin(), shingles->end());
  shingles->erase(std::unique(shingles->begin(), shingles->end()), shingles->end());
  return bins;
}

double ShingleJaccard(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
  if (a.empty() && b.empty()) return 0;
  size_t common = 0, i = 0, j = 0;
  // Without a branch on which side is behind: it is taken at random.
  while (i < a.size() && j < b.size()) {
    const uint32_t x = a[i], y = b[j];
    common += x == y;
    i += x <= y;
    j += y <= x;
  }
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

double EstimateJaccard(const uint32_t* a, const uint32_t* b, size_t bins) {
  if (bins == 0 || a[0] == kEmptyBin || b[0] == kEmptyBin) return 0;
  size_t equal = 0;
  for (size_t i = 0; i < bins; ++i) equal += a[i] == b[i];
  return static_cast<double>(equal) / static_cast<double>(bins);
}

}  // namespace seen
