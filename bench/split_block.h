// A split-block Bloom filter as Apache Parquet's format specification defines it
// (parquet-format, BloomFilter.md, "Split Block Bloom Filters"), written here from that text as
// the reference loop a single-key probe is measured against (bench_split_block.cc):
//  - a block is 256 bits, eight 32-bit words;
//  - a key's 64-bit hash picks the block with its high 32 bits, ((h >> 32) * blocks) >> 32;
//  - its low 32 bits x set one bit in each word i: bit (x * salt[i]) >> 27, eight odd salts;
//  - the hash is XXH64 with seed 0 of the key's bytes (here an id's 8 little-endian bytes).
// One key at a time, no prefetch, the hash inline. A find ANDs all eight words rather than
// leaving at the first zero, so that the compiler may take the block as one vector.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/region.h"

namespace seen::bench {

class SplitBlockFilter {
 public:
  // A filter of `bytes` rounded down to whole 32-byte blocks (at most 2^32 of them).
  explicit SplitBlockFilter(uint64_t bytes)
      : blocks_(bytes / kBlockBytes), region_(Region::Allocate(blocks_ * kBlockBytes)) {
    Clear();
  }

  void Clear() { std::memset(region_.data(), 0, blocks_ * kBlockBytes); }

  void Insert(uint64_t id) {
    const uint64_t h = Xxh64OfId(id);
    uint32_t* block = Block(h);
    for (int i = 0; i < 8; ++i) block[i] |= Mask(static_cast<uint32_t>(h), i);
  }

  bool Find(uint64_t id) const { return FindHash(Xxh64OfId(id)); }

  // A find given the key's hash, computed beforehand: the probe loop alone.
  bool FindHash(uint64_t h) const {
    const uint32_t* block = Block(h);
    uint32_t missing = 0;
    for (int i = 0; i < 8; ++i) missing |= ~block[i] & Mask(static_cast<uint32_t>(h), i);
    return missing == 0;
  }

  // XXH64 (seed 0) of an id's 8 little-endian bytes: its one 8-byte lane, then the avalanche,
  // as xxHash's specification gives them for inputs shorter than 32 bytes.
  static uint64_t Xxh64OfId(uint64_t id) {
    constexpr uint64_t kPrime1 = 0x9e3779b185ebca87ULL, kPrime2 = 0xc2b2ae3d27d4eb4fULL,
                       kPrime3 = 0x165667b19e3779f9ULL, kPrime4 = 0x85ebca77c2b2ae63ULL,
                       kPrime5 = 0x27d4eb2f165667c5ULL;
    uint64_t acc = kPrime5 + 8;
    acc ^= Rotl(id * kPrime2, 31) * kPrime1;
    acc = Rotl(acc, 27) * kPrime1 + kPrime4;
    acc = (acc ^ (acc >> 33)) * kPrime2;
    acc = (acc ^ (acc >> 29)) * kPrime3;
    return acc ^ (acc >> 32);
  }

 private:
  static constexpr uint64_t kBlockBytes = 32;

  static uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

  static uint32_t Mask(uint32_t x, int i) {
    static constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                                          0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
    return uint32_t{1} << ((x * kSalt[i]) >> 27);
  }

  uint32_t* Block(uint64_t h) const {
    const uint64_t index = ((h >> 32) * blocks_) >> 32;
    return reinterpret_cast<uint32_t*>(region_.data()) + index * 8;
  }

  uint64_t blocks_;
  Region region_;
};

}  // namespace seen::bench
