#include "core/counting.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "core/error.h"
#include "core/hash.h"
#include "core/kernels.h"
#include "core/real_text.h"
#include "core/sizing.h"

namespace seen {
namespace {

// The batch pipeline of kernels.cc, for adds and removes: hash a chunk of keys, prefetch
// each key's counter block and presence block kAhead keys ahead (across chunk boundaries),
// then visit the keys in order. 8 and 16 keys ahead measure alike (bench/bench_counting);
// 16 as in kernels.cc. Queries use kernels.cc itself, on the presence blocks.
constexpr size_t kAhead = 16;
constexpr size_t kChunk = 256;

struct Chunk {
  KeyBlocks block[kChunk];
  uint32_t h32[kChunk];
  size_t size;
};

void Prepare(const CounterBlocks& b, const KeySource& keys, size_t begin, Chunk& chunk) {
  chunk.size = begin < keys.size ? std::min(kChunk, keys.size - begin) : 0;
  uint64_t hashes[kChunk];
  keys.hash(keys.context, begin, chunk.size, hashes);
  for (size_t i = 0; i < chunk.size; ++i) {
    chunk.block[i] = KeyBlocksAt(b, hashes[i]);
    chunk.h32[i] = static_cast<uint32_t>(hashes[i]);
  }
}

// All 4 lines of the key's counters (at k >= 5 it needs 3 or 4 of them anyway, and one
// unconditional run of prefetches keeps the loop free of branches) and its presence line.
inline void PrefetchBlock(const KeyBlocks& block) {
  for (unsigned line = 0; line < kCounterBlockLines; ++line) __builtin_prefetch(block.counters + line * 8);
  __builtin_prefetch(block.presence);
}

template <class Visit>
void Pipeline(const CounterBlocks& b, const KeySource& keys, const Visit& visit) {
  Chunk chunks[2];
  Chunk* current = &chunks[0];
  Chunk* next = &chunks[1];
  Prepare(b, keys, 0, *current);
  for (size_t i = 0; i < current->size && i < kAhead; ++i) {
    PrefetchBlock(current->block[i]);
  }
  for (size_t base = 0; current->size > 0; base += current->size, std::swap(current, next)) {
    Prepare(b, keys, base + current->size, *next);
    for (size_t i = 0; i < current->size; ++i) {
      const size_t ahead = i + kAhead;
      if (ahead < current->size) {
        PrefetchBlock(current->block[ahead]);
      } else if (ahead - current->size < next->size) {
        PrefetchBlock(next->block[ahead - current->size]);
      }
      visit(base + i, current->block[i], current->h32[i]);
    }
  }
}

// Calls body with k as a compile-time constant, so the per-key loops over k counters unroll.
template <class Body>
void WithK(uint32_t k, const Body& body) {
  switch (k) {
    case 1: return body(std::integral_constant<uint32_t, 1>{});
    case 2: return body(std::integral_constant<uint32_t, 2>{});
    case 3: return body(std::integral_constant<uint32_t, 3>{});
    case 4: return body(std::integral_constant<uint32_t, 4>{});
    case 5: return body(std::integral_constant<uint32_t, 5>{});
    case 6: return body(std::integral_constant<uint32_t, 6>{});
    case 7: return body(std::integral_constant<uint32_t, 7>{});
    default: return body(std::integral_constant<uint32_t, 8>{});
  }
}

void AddAll(const CounterBlocks& b, const KeySource& keys) {
  WithK(b.k, [&](auto k) {
    Pipeline(b, keys, [&](size_t, const KeyBlocks& block, uint32_t h32) { Increment(block, SlotsOf(h32, k), k); });
  });
}

uint64_t RemoveAll(const CounterBlocks& b, const KeySource& keys, uint8_t* removed) {
  uint64_t absent = 0;
  WithK(b.k, [&](auto k) {
    Pipeline(b, keys, [&](size_t i, const KeyBlocks& block, uint32_t h32) {
      const Slots s = SlotsOf(h32, k);
      const bool present = AllNonZero(block.counters, s, k);
      if (present) Decrement(block, s, k);
      absent += present ? 0 : 1;
      if (removed != nullptr) removed[i] = present ? 1 : 0;
    });
  });
  return absent;
}

// Key sources for the pipeline and the kernels of kernels.h.
}  // namespace

Counting Counting::Create(uint64_t expected_items, double fpr, uint64_t seed,
                          std::optional<SecretKey> key) {
  const Sizing sizing = SizeFor(expected_items, fpr);
  if (sizing.blocks > kMaxCountingBlocks) {
    throw Error(Code::kTooLarge, std::to_string(expected_items) + " items at fpr " +
                                     RealText(fpr) + " need more than the 16 TiB limit in counters");
  }
  const CountingParams params{sizing.blocks, sizing.k, seed, expected_items, fpr, key};
  return Counting(params, Region::Allocate(params.bytes()));
}

Counting::Counting(const CountingParams& params, Region region)
    : params_(params),
      region_(std::move(region)),
      blocks_{reinterpret_cast<uint64_t*>(region_.data() + params.presence_bytes()),
              reinterpret_cast<uint64_t*>(region_.data()), params.blocks, params.k},
      presence_{blocks_.presence, params.blocks, params.k},
      kernels_(ChosenKernels()) {}

Counting Counting::Copy() const {
  Region region = Region::Allocate(params_.bytes());
  std::memcpy(region.data(), bytes(), params_.bytes());
  return Counting(params_, std::move(region));
}

void Counting::RequireWritable() const {
  if (read_only()) throw Error(Code::kReadOnly, "this counting filter was opened read-only");
}

void Counting::AddU64(const uint64_t* ids, size_t n) {
  RequireWritable();
  const U64Keys keys{ids, params_.hashing()};
  AddAll(blocks_, keys.source(n));
}

void Counting::AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n) {
  RequireWritable();
  const ByteKeys keys{data, offsets, params_.hashing()};
  AddAll(blocks_, keys.source(n));
}

uint64_t Counting::RemoveU64(const uint64_t* ids, size_t n, uint8_t* removed) {
  RequireWritable();
  const U64Keys keys{ids, params_.hashing()};
  return RemoveAll(blocks_, keys.source(n), removed);
}

uint64_t Counting::RemoveKeys(const uint8_t* data, const uint64_t* offsets, size_t n,
                              uint8_t* removed) {
  RequireWritable();
  const ByteKeys keys{data, offsets, params_.hashing()};
  return RemoveAll(blocks_, keys.source(n), removed);
}

void Counting::ContainsU64(const uint64_t* ids, size_t n, uint8_t* out) const {
  seen::ContainsU64(kernels_, presence_, params_.hashing(), ids, n, out);
}

void Counting::ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n,
                            uint8_t* out) const {
  seen::ContainsKeys(kernels_, presence_, params_.hashing(), data, offsets, n, out);
}

void Counting::PutHash(uint64_t hash) {
  RequireWritable();
  Increment(KeyBlocksAt(blocks_, hash), SlotsOf(static_cast<uint32_t>(hash), params_.k), params_.k);
}

bool Counting::DeleteHash(uint64_t hash) {
  RequireWritable();
  const KeyBlocks block = KeyBlocksAt(blocks_, hash);
  const Slots s = SlotsOf(static_cast<uint32_t>(hash), params_.k);
  if (!AllNonZero(block.counters, s, params_.k)) return false;
  Decrement(block, s, params_.k);
  return true;
}

void Counting::Clear() {
  RequireWritable();
  std::memset(region_.data(), 0, params_.bytes());
}

CountingStats Counting::Stats() const {
  // As Bloom::Stats, with "bit set" read as "counter > 0": exact for the filter as it is.
  const uint32_t k = params_.k;
  uint64_t sum = 0, saturated = 0, nonzero = 0;
  double fpr_sum = 0.0;
  for (uint64_t b = 0; b < params_.blocks; ++b) {
    const uint64_t* block = blocks_.words + b * kCounterBlockWords;
    double fill[kBlockWords];
    for (unsigned w = 0; w < kBlockWords; ++w) {
      unsigned ones = 0;
      for (unsigned i = 0; i < 4; ++i) {
        const uint64_t word = block[w * 4 + i];
        for (unsigned c = 0; c < 16; ++c) {
          const uint64_t counter = (word >> (c * kCounterBits)) & kCounterMax;
          sum += counter;
          ones += counter != 0;
          saturated += counter == kCounterMax;
        }
      }
      nonzero += ones;
      fill[w] = ones / 64.0;
    }
    for (unsigned start = 0; start < kBlockWords; ++start) {
      double p = 1.0;
      for (uint32_t j = 0; j < k; ++j) p *= fill[(start + j) & (kBlockWords - 1)];
      fpr_sum += p;
    }
  }
  const double counters = static_cast<double>(params_.blocks) * kBlockBits;
  return {static_cast<double>(sum) / k, saturated, static_cast<double>(nonzero) / counters,
          fpr_sum / (static_cast<double>(params_.blocks) * kBlockWords)};
}

}  // namespace seen
