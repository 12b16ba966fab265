// The blocks of the counting filter: block scheme 1 (block.h) with every one of a block's
// 512 bit positions widened to a 4-bit saturating counter, plus the plain 64-byte Bloom
// block of the same positions, whose bit is set exactly when its counter is not 0.
//
// Queries read only that presence block, with the blocked filter's SIMD kernels: one cache
// line per key, the blocked filter's speed and answers. Adds update the counters and set
// every presence bit of the key; removes clear a bit when its counter reaches 0. An add sets
// rather than flips: a file whose presence bits disagree with its counters (checksums
// protect against accidents, not attackers) must not make a later add clear a bit.
//
// Counter layout (docs/FORMAT.md, kind 2): a counter block is 256 bytes = 32 little-endian
// u64 words, 4 cache lines; Bloom position (word w, bit j) is counter c = 64w + j, in word
// c / 16 at bits 4 * (c % 16) .. +3. Bloom word w's 64 counters are the 32 bytes
// 32w .. 32w+31, so a key's run of k words touches ceil(k/2) or ceil(k/2) + 1 lines.
//
// 4 bits, because a counter reaches 15 only when 15 keys of one block pick one position:
// at the design load (1%: about 50 keys per block, a Poisson mean of 0.7 per counter) that
// happens for about 1 counter in 10^15, so saturation (which keeps a key that should be
// forgotten) is practically never seen; 2 bits would saturate at 3 (1 counter in 30) and
// 8 bits would double the memory. With the presence block, a key costs 5x the blocked
// filter's bytes.
#pragma once

#include <cstdint>

#include "core/block.h"

namespace seen {

constexpr uint64_t kCounterBlockBytes = 256;
constexpr unsigned kCounterBlockWords = 32;
constexpr unsigned kCounterBits = 4;
constexpr uint64_t kCounterMax = 15;  // saturated: never incremented or decremented again
constexpr unsigned kCounterBlockLines = 4;

// The counters of a filter, the presence blocks beside them, and the parameters the batch
// paths need. Not owning.
struct CounterBlocks {
  uint64_t* words;     // blocks * 32 words of counters
  uint64_t* presence;  // blocks * 8 words: the blocked Bloom filter of the non-zero counters
  uint64_t count;      // number of blocks, >= 1
  uint32_t k;          // counters per key, kMinK..kMaxK
};

// A key's counter block and presence block.
struct KeyBlocks {
  uint64_t* counters;
  uint64_t* presence;
};

inline KeyBlocks KeyBlocksAt(const CounterBlocks& b, uint64_t hash) {
  const uint64_t index = BlockIndex(hash, b.count);
  return {b.words + index * kCounterBlockWords, b.presence + index * kBlockWords};
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

// Counters are read and written only by the one writer, so plain accesses suffice.
inline uint64_t CounterAt(const uint64_t* counters, const Slots& s, uint32_t j) {
  return (counters[s.word[j]] >> s.shift[j]) & kCounterMax;
}

// Branch-free: an absent key's first zero counter is at a random j, which a branch would
// mispredict.
inline bool AllNonZero(const uint64_t* counters, const Slots& s, uint32_t k) {
  bool zero = false;
  for (uint32_t j = 0; j < k; ++j) zero |= CounterAt(counters, s, j) == 0;
  return !zero;
}

inline void AddToWord(uint64_t* word, uint64_t delta) { *word += delta; }

// Queries read presence words while the writer changes them: relaxed atomics, so a query
// sees each word before or after a change, never torn (they compile to plain moves).
// Counter j's presence word and bit: Bloom word c / 64, bit c % 64, for counter
// c = 16 * word + shift / 4.
struct PresenceBit {
  uint64_t* word;
  uint64_t bit;
};

inline PresenceBit PresenceOf(uint64_t* presence, const Slots& s, uint32_t j) {
  const unsigned counter = s.word[j] * 16u + s.shift[j] / kCounterBits;
  return {&presence[counter / 64], uint64_t{1} << (counter % 64)};
}

inline void SetPresence(const PresenceBit& p) {
  const uint64_t word = __atomic_load_n(p.word, __ATOMIC_RELAXED);
  if ((word & p.bit) == 0) __atomic_store_n(p.word, word | p.bit, __ATOMIC_RELAXED);
}

inline void ClearPresence(const PresenceBit& p) {
  __atomic_store_n(p.word, __atomic_load_n(p.word, __ATOMIC_RELAXED) & ~p.bit, __ATOMIC_RELAXED);
}

// The k counters of a key are in k distinct Bloom words, so never the same counter twice.
// The counter changes before its presence bit is set, and after it is cleared, so a set
// bit always has a non-zero counter.
inline void Increment(const KeyBlocks& b, const Slots& s, uint32_t k) {
  for (uint32_t j = 0; j < k; ++j) {
    if (CounterAt(b.counters, s, j) != kCounterMax) AddToWord(&b.counters[s.word[j]], uint64_t{1} << s.shift[j]);
    SetPresence(PresenceOf(b.presence, s, j));
  }
}

// Only after AllNonZero: no counter goes below zero.
inline void Decrement(const KeyBlocks& b, const Slots& s, uint32_t k) {
  for (uint32_t j = 0; j < k; ++j) {
    const uint64_t counter = CounterAt(b.counters, s, j);
    if (counter == kCounterMax) continue;
    if (counter == 1) ClearPresence(PresenceOf(b.presence, s, j));
    AddToWord(&b.counters[s.word[j]], ~uint64_t{0} << s.shift[j]);
  }
}

}  // namespace seen
