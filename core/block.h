// Contract 2 of DESIGN: how a 64-bit key hash maps to one 64-byte block and to the bits set
// inside it. This is frozen in docs/FORMAT.md ("block scheme 1") and pinned by test vectors.
//
// A block is 8 little-endian 64-bit words. A key with hash h:
//   block  = (h * blocks) >> 64            (multiply-shift: any block count, safe past 2^32)
//   h32    = low 32 bits of h              (the bits multiply-shift barely uses)
//   start  = (h32 * kStartSalt) >> 29      (first word of the key's run, 0..7)
//   words  = start, start+1, ... start+k-1 (mod 8): a cyclic run of k distinct words
//   bit    = (h32 * kWordSalt[w]) >> 26    (one bit, 0..63, in each word w of the run)
// One bit per word lets SIMD build the pattern lane by lane; the cyclic run spreads keys
// evenly over the 8 words for any k in 1..8, so the false-positive rate stays that of k
// random bits in 512 (measured in bench/, modelled in core/sizing.cc).
#pragma once

#include <cstdint>

namespace seen {

constexpr uint64_t kBlockBytes = 64;
constexpr unsigned kBlockWords = 8;
constexpr unsigned kBlockBits = 512;
constexpr uint32_t kMinK = 1;
constexpr uint32_t kMaxK = 8;
// The number the format records for this scheme (docs/FORMAT.md).
constexpr uint32_t kBlockScheme = 1;

// Odd constants, drawn once at random and frozen by the format.
constexpr uint32_t kStartSalt = 0x0944fe0du;
constexpr uint32_t kWordSalt[kBlockWords] = {0xf9b439fdu, 0x91d93081u, 0x8142c8ebu,
                                             0x3ceaaf31u, 0xa05f1119u, 0x627655dbu,
                                             0xab13dfafu, 0x9dfb369bu};
// The same salts widened to 64-bit lanes, for SIMD loads.
alignas(64) inline constexpr uint64_t kWordSalt64[kBlockWords] = {
    kWordSalt[0], kWordSalt[1], kWordSalt[2], kWordSalt[3],
    kWordSalt[4], kWordSalt[5], kWordSalt[6], kWordSalt[7]};

// The words of a filter and the parameters the kernels need. Not owning.
struct Blocks {
  uint64_t* words;  // blocks * 8 words
  uint64_t count;   // number of blocks, >= 1
  uint32_t k;       // bits per key, kMinK..kMaxK
};

inline uint64_t BlockIndex(uint64_t hash, uint64_t blocks) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(hash) * blocks) >> 64);
}

inline unsigned StartWord(uint32_t h32) { return (h32 * kStartSalt) >> 29; }

inline uint64_t* BlockAt(const Blocks& b, uint64_t hash) {
  return b.words + BlockIndex(hash, b.count) * kBlockWords;
}

}  // namespace seen
