#include "core/minhash.h"

#include <algorithm>
#include <string>

#include "core/error.h"
#include "core/simhash_unicode.h"

namespace seen {
namespace {

using text::Class;

// Splitmix64's finalizer: the densification's probe sequence, reproducible from the seed.
uint64_t Mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Tokens as SimHash cuts them, hashed; each run of `shingle` consecutive token hashes is
// hashed again into one shingle hash, which goes to its bin.
class Sketcher {
 public:
  explicit Sketcher(const MinhashOptions& options)
      : options_(options), hashing_(options.seed, options.key), bins_(options.bins, kEmptyBin) {
    while ((uint32_t{1} << bin_bits_) < options.bins) ++bin_bits_;
  }

  void Feed(const uint8_t* p, const uint8_t* end) {
    while (p < end) {
      uint32_t cp;
      p += text::Decode(p, end, &cp);
      if (cp != text::kInvalid) cp = text::Fold(cp);
      const Class c = text::Classify(cp);
      if (c != Class::kWord) EndWord();
      uint8_t bytes[4];
      const size_t n = text::Encode(cp, bytes);
      if (c == Class::kWord) word_.append(reinterpret_cast<const char*>(bytes), n);
      if (c == Class::kCjk) Token(bytes, n);
    }
  }

  std::vector<uint32_t> Finish() {
    EndWord();
    // A text shorter than one shingle is one shingle of all its tokens.
    if (tokens_ > 0 && tokens_ < options_.shingle) Shingle(tokens_);
    Densify();
    return std::move(bins_);
  }

 private:
  void EndWord() {
    if (word_.empty()) return;
    Token(reinterpret_cast<const uint8_t*>(word_.data()), word_.size());
    word_.clear();
  }

  void Token(const uint8_t* bytes, size_t n) {
    recent_[tokens_ % kMaxShingle] = HashBytes(bytes, n, hashing_);
    ++tokens_;
    if (tokens_ >= options_.shingle) Shingle(options_.shingle);
  }

  // The last `count` tokens as one shingle.
  void Shingle(uint64_t count) {
    uint64_t words[kMaxShingle];
    for (uint64_t i = 0; i < count; ++i) words[i] = recent_[(tokens_ - count + i) % kMaxShingle];
    const uint64_t h = HashBytes(words, count * sizeof(uint64_t), hashing_);
    const uint32_t bin = static_cast<uint32_t>(h >> (64 - bin_bits_));
    // All ones marks an empty bin: a value may come close, never equal.
    const uint32_t value = std::min(static_cast<uint32_t>(h), kEmptyBin - 1);
    if (value < bins_[bin]) bins_[bin] = value;
    any_ = true;
  }

  // Optimal densification: an empty bin takes the value of the first non-empty bin its own
  // probe sequence hits (probes of different empty bins are independent).
  void Densify() {
    if (!any_) return;
    const std::vector<uint32_t> filled = bins_;
    for (uint32_t i = 0; i < options_.bins; ++i) {
      if (filled[i] != kEmptyBin) continue;
      for (uint64_t attempt = 1;; ++attempt) {
        const uint32_t j = static_cast<uint32_t>(Mix(options_.seed ^ (uint64_t{i} << 32 | attempt)) >> (64 - bin_bits_));
        if (filled[j] != kEmptyBin) {
          bins_[i] = filled[j];
          break;
        }
      }
    }
  }

  static constexpr uint32_t kMaxShingle = 8;
  const MinhashOptions& options_;
  Hashing hashing_;
  std::vector<uint32_t> bins_;
  uint32_t bin_bits_ = 0;
  std::string word_;
  uint64_t recent_[kMaxShingle] = {};
  uint64_t tokens_ = 0;
  bool any_ = false;
};

}  // namespace

MinhashOptions WithDefaultsForZeros(MinhashOptions o) {
  o.bins = OrDefault(o.bins, defaults::kMinhashBins);
  o.shingle = OrDefault(o.shingle, defaults::kMinhashShingle);
  return o;
}

void ValidateMinhashOptions(const MinhashOptions& o) {
  if (o.bins < 16 || o.bins > 1024 || (o.bins & (o.bins - 1)) != 0) {
    throw Error(Code::kInvalidArgument, "bins " + std::to_string(o.bins) + " is not a power of two in 16..1024");
  }
  if (o.shingle < 1 || o.shingle > 8) {
    throw Error(Code::kInvalidArgument, "shingle " + std::to_string(o.shingle) + " is outside 1..8");
  }
}

std::vector<uint32_t> SketchText(const char* text, size_t len, const MinhashOptions& options) {
  ValidateMinhashOptions(options);
  Sketcher sketcher(options);
  if (len > 0) {
    const auto* p = reinterpret_cast<const uint8_t*>(text);
    sketcher.Feed(p, p + len);
  }
  return sketcher.Finish();
}

double EstimateJaccard(const uint32_t* a, const uint32_t* b, size_t bins) {
  if (bins == 0 || a[0] == kEmptyBin || b[0] == kEmptyBin) return 0;
  size_t equal = 0;
  for (size_t i = 0; i < bins; ++i) equal += a[i] == b[i];
  return static_cast<double>(equal) / static_cast<double>(bins);
}

}  // namespace seen
