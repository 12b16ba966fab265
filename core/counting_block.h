// The counter block of the counting filter: block scheme 1 (block.h) with every one of a
// block's 512 bit positions widened to a 4-bit saturating counter. A key's bit j in word w
// of a Bloom block is counter w * 64 + bit here, so a counting filter answers exactly like
// a blocked Bloom filter of the same blocks, k and seed, where "bit set" is "counter > 0".
//
// Layout (docs/FORMAT.md, kind 2): a block is 256 bytes = 32 little-endian u64 words, 4
// cache lines; counter c sits in word c / 16 at bits 4 * (c % 16) .. +3. Bloom word w's 64
// counters are therefore the 32 bytes 32w .. 32w+31, so a key's run of k words touches
// ceil(k/2) or ceil(k/2) + 1 cache lines of its block (at most 4).
//
// 4 bits, because a counter reaches 15 only when 15 keys of one block pick one position:
// at the design load (1%: about 50 keys per block, a Poisson mean of 0.7 per counter) that
// happens for about 1 counter in 10^15, so saturation (which keeps a key that should be
// forgotten) is practically never seen; 2 bits would saturate at 3 (1 counter in 30) and
// 8 bits would double the memory. The counting filter costs 4x the blocked filter's bytes.
#pragma once

#include <cstdint>

#include "core/block.h"

namespace seen {

constexpr uint64_t kCounterBlockBytes = 256;
constexpr unsigned kCounterBlockWords = 32;
constexpr unsigned kCounterBits = 4;
constexpr uint64_t kCounterMax = 15;  // saturated: never incremented or decremented again
constexpr unsigned kCounterBlockLines = 4;

// The counters of a filter and the parameters the batch paths need. Not owning.
struct CounterBlocks {
  uint64_t* words;  // blocks * 32 words
  uint64_t count;   // number of blocks, >= 1
  uint32_t k;       // counters per key, kMinK..kMaxK
};

inline uint64_t* CounterBlockAt(const CounterBlocks& b, uint64_t hash) {
  return b.words + BlockIndex(hash, b.count) * kCounterBlockWords;
}

// Where a key's k counters are inside its block: word and shift of each.
struct Slots {
  uint8_t word[kMaxK];
  uint8_t shift[kMaxK];
};

inline Slots SlotsOf(uint32_t h32, uint32_t k) {
  Slots s;
  const unsigned start = StartWord(h32);
  for (uint32_t j = 0; j < k; ++j) {
    const unsigned w = (start + j) & (kBlockWords - 1);
    const unsigned bit = (h32 * kWordSalt[w]) >> 26;
    const unsigned counter = w * 64 + bit;
    s.word[j] = static_cast<uint8_t>(counter / 16);
    s.shift[j] = static_cast<uint8_t>(counter % 16 * kCounterBits);
  }
  return s;
}

// Words are read and written with relaxed atomics: a query racing the one writer then sees
// each word either before or after a change, never torn (they compile to plain moves).
inline uint64_t CounterAt(const uint64_t* block, const Slots& s, uint32_t j) {
  return (__atomic_load_n(&block[s.word[j]], __ATOMIC_RELAXED) >> s.shift[j]) & kCounterMax;
}

// Branch-free: an absent key's first zero counter is at a random j, which a branch would
// mispredict.
inline bool AllNonZero(const uint64_t* block, const Slots& s, uint32_t k) {
  bool zero = false;
  for (uint32_t j = 0; j < k; ++j) zero |= CounterAt(block, s, j) == 0;
  return !zero;
}

// Adds `delta` (+1 or -1 as a two's-complement word) to each counter that is not saturated.
// The k counters of a key are in k distinct Bloom words, so never the same counter twice.
inline void Step(uint64_t* block, const Slots& s, uint32_t k, uint64_t delta) {
  for (uint32_t j = 0; j < k; ++j) {
    if (CounterAt(block, s, j) == kCounterMax) continue;
    uint64_t* word = &block[s.word[j]];
    __atomic_store_n(word, __atomic_load_n(word, __ATOMIC_RELAXED) + (delta << s.shift[j]),
                     __ATOMIC_RELAXED);
  }
}

inline void Increment(uint64_t* block, const Slots& s, uint32_t k) { Step(block, s, k, 1); }

// Only after AllNonZero: no counter wraps below zero.
inline void Decrement(uint64_t* block, const Slots& s, uint32_t k) {
  Step(block, s, k, ~uint64_t{0});
}

}  // namespace seen
