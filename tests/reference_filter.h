// An independent, plain scalar implementation of block scheme 1 exactly as docs/FORMAT.md
// words it, with libxxhash's own XXH3. The SIMD kernels on every target must match it.
#pragma once

#include <xxhash.h>

#include <cstdint>
#include <vector>

namespace seen::test {

class ReferenceFilter {
 public:
  ReferenceFilter(uint64_t blocks, uint32_t k, uint64_t seed)
      : blocks_(blocks), k_(k), seed_(seed), words_(blocks * 8, 0) {}

  void Add(uint64_t id) {
    const uint64_t h = Hash(id);
    for (uint32_t j = 0; j < k_; ++j) Word(h, j) |= Bit(h, j);
  }

  bool Contains(uint64_t id) const {
    const uint64_t h = Hash(id);
    bool all = true;
    for (uint32_t j = 0; j < k_; ++j) all = all && (const_cast<ReferenceFilter*>(this)->Word(h, j) & Bit(h, j));
    return all;
  }

  // The payload as bytes: word w of block b at 64 b + 8 w, little-endian.
  std::vector<uint8_t> Payload() const {
    std::vector<uint8_t> bytes;
    for (uint64_t word : words_) {
      for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(word >> (8 * i)));
    }
    return bytes;
  }

 private:
  static constexpr uint32_t kSalt[8] = {0xf9b439fd, 0x91d93081, 0x8142c8eb, 0x3ceaaf31,
                                        0xa05f1119, 0x627655db, 0xab13dfaf, 0x9dfb369b};

  uint64_t Hash(uint64_t id) const {
    unsigned char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<unsigned char>(id >> (8 * i));
    return XXH3_64bits_withSeed(bytes, 8, seed_);
  }
  unsigned WordIndex(uint64_t h, uint32_t j) const {
    const uint32_t h32 = static_cast<uint32_t>(h);
    const uint32_t start = static_cast<uint32_t>(h32 * 0x0944fe0du) >> 29;
    return (start + j) % 8;
  }
  uint64_t& Word(uint64_t h, uint32_t j) {
    const uint64_t block = static_cast<uint64_t>((static_cast<unsigned __int128>(h) * blocks_) >> 64);
    return words_[block * 8 + WordIndex(h, j)];
  }
  uint64_t Bit(uint64_t h, uint32_t j) const {
    const uint32_t h32 = static_cast<uint32_t>(h);
    return uint64_t{1} << (static_cast<uint32_t>(h32 * kSalt[WordIndex(h, j)]) >> 26);
  }

  uint64_t blocks_;
  uint32_t k_;
  uint64_t seed_;
  std::vector<uint64_t> words_;
};

}  // namespace seen::test
