#include "core/counting.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "core/error.h"
#include "core/hash.h"
#include "core/sizing.h"

namespace seen {
namespace {

// The batch pipeline of kernels.cc, for counter blocks: hash a chunk of keys, prefetch the
// cache lines holding each key's counters kAhead keys ahead (across chunk boundaries), then
// visit the keys in order. A key touches up to 4 lines, so fewer keys ahead than the Bloom
// kernels' 16 already keep the line fill buffers busy (measured in bench/bench_counting).
constexpr size_t kAhead = 8;
constexpr size_t kChunk = 256;

struct Chunk {
  uint64_t* block[kChunk];
  uint32_t h32[kChunk];
  size_t size;
};

template <class HashRange>
void Prepare(const CounterBlocks& b, const HashRange& hash, size_t n, size_t begin, Chunk& chunk) {
  chunk.size = begin < n ? std::min(kChunk, n - begin) : 0;
  uint64_t hashes[kChunk];
  hash(begin, chunk.size, hashes);
  for (size_t i = 0; i < chunk.size; ++i) {
    chunk.block[i] = CounterBlockAt(b, hashes[i]);
    chunk.h32[i] = static_cast<uint32_t>(hashes[i]);
  }
}

inline void PrefetchKey(const uint64_t* block, uint32_t h32, uint32_t k) {
  const unsigned lines = LinesOf(h32, k);
  for (unsigned line = 0; line < kCounterBlockLines; ++line) {
    if (lines & (1u << line)) __builtin_prefetch(block + line * 8);
  }
}

template <class HashRange, class Visit>
void Pipeline(const CounterBlocks& b, size_t n, const HashRange& hash, const Visit& visit) {
  Chunk chunks[2];
  Chunk* current = &chunks[0];
  Chunk* next = &chunks[1];
  Prepare(b, hash, n, 0, *current);
  for (size_t i = 0; i < current->size && i < kAhead; ++i) {
    PrefetchKey(current->block[i], current->h32[i], b.k);
  }
  for (size_t base = 0; current->size > 0; base += current->size, std::swap(current, next)) {
    Prepare(b, hash, n, base + current->size, *next);
    for (size_t i = 0; i < current->size; ++i) {
      const size_t ahead = i + kAhead;
      if (ahead < current->size) {
        PrefetchKey(current->block[ahead], current->h32[ahead], b.k);
      } else if (ahead - current->size < next->size) {
        const size_t j = ahead - current->size;
        PrefetchKey(next->block[j], next->h32[j], b.k);
      }
      visit(base + i, current->block[i], SlotsOf(current->h32[i], b.k));
    }
  }
}

auto U64Hasher(const uint64_t* ids, uint64_t seed) {
  return [=](size_t begin, size_t count, uint64_t* hashes) {
    HashU64Batch(ids + begin, count, seed, hashes);
  };
}

auto KeyHasher(const uint8_t* data, const uint64_t* offsets, uint64_t seed) {
  return [=](size_t begin, size_t count, uint64_t* hashes) {
    HashKeysBatch(data, offsets, begin, count, seed, hashes);
  };
}

template <class HashRange>
void AddAll(const CounterBlocks& b, size_t n, const HashRange& hash) {
  Pipeline(b, n, hash, [&](size_t, uint64_t* block, const Slots& s) { Increment(block, s, b.k); });
}

template <class HashRange>
uint64_t RemoveAll(const CounterBlocks& b, size_t n, const HashRange& hash, uint8_t* removed) {
  uint64_t absent = 0;
  Pipeline(b, n, hash, [&](size_t i, uint64_t* block, const Slots& s) {
    const bool present = AllNonZero(block, s, b.k);
    if (present) Decrement(block, s, b.k);
    absent += present ? 0 : 1;
    if (removed != nullptr) removed[i] = present ? 1 : 0;
  });
  return absent;
}

template <class HashRange>
void ContainsAll(const CounterBlocks& b, size_t n, const HashRange& hash, uint8_t* out) {
  Pipeline(b, n, hash, [&](size_t i, uint64_t* block, const Slots& s) {
    out[i] = AllNonZero(block, s, b.k) ? 1 : 0;
  });
}

}  // namespace

Counting Counting::Create(uint64_t expected_items, double fpr, uint64_t seed) {
  const Sizing sizing = SizeFor(expected_items, fpr);
  if (sizing.blocks > kMaxFilterBytes / kCounterBlockBytes) {
    throw Error(Code::kTooLarge, std::to_string(expected_items) + " items at fpr " +
                                     std::to_string(fpr) + " need more than the 16 TiB limit in counters");
  }
  const CountingParams params{sizing.blocks, sizing.k, seed, expected_items, fpr};
  return Counting(params, Region::Allocate(params.bytes()));
}

Counting::Counting(const CountingParams& params, Region region)
    : params_(params),
      region_(std::move(region)),
      blocks_{reinterpret_cast<uint64_t*>(region_.data()), params.blocks, params.k} {}

Counting Counting::Copy() const {
  Region region = Region::Allocate(params_.bytes());
  std::memcpy(region.data(), bytes(), params_.bytes());
  return Counting(params_, std::move(region));
}

void Counting::RequireWritable() const {
  if (read_only()) throw Error(Code::kReadOnly, "this counting filter was opened read-only");
}

uint64_t Counting::HashOf(uint64_t id) const { return HashU64(id, params_.seed); }

uint64_t Counting::HashOf(const void* key, size_t len) const {
  return HashBytes(key, len, params_.seed);
}

void Counting::AddU64(const uint64_t* ids, size_t n) {
  RequireWritable();
  AddAll(blocks_, n, U64Hasher(ids, params_.seed));
}

void Counting::AddKeys(const uint8_t* data, const uint64_t* offsets, size_t n) {
  RequireWritable();
  AddAll(blocks_, n, KeyHasher(data, offsets, params_.seed));
}

uint64_t Counting::RemoveU64(const uint64_t* ids, size_t n, uint8_t* removed) {
  RequireWritable();
  return RemoveAll(blocks_, n, U64Hasher(ids, params_.seed), removed);
}

uint64_t Counting::RemoveKeys(const uint8_t* data, const uint64_t* offsets, size_t n,
                              uint8_t* removed) {
  RequireWritable();
  return RemoveAll(blocks_, n, KeyHasher(data, offsets, params_.seed), removed);
}

void Counting::ContainsU64(const uint64_t* ids, size_t n, uint8_t* out) const {
  ContainsAll(blocks_, n, U64Hasher(ids, params_.seed), out);
}

void Counting::ContainsKeys(const uint8_t* data, const uint64_t* offsets, size_t n,
                            uint8_t* out) const {
  ContainsAll(blocks_, n, KeyHasher(data, offsets, params_.seed), out);
}

void Counting::PutHash(uint64_t hash) {
  RequireWritable();
  Increment(CounterBlockAt(blocks_, hash), SlotsOf(static_cast<uint32_t>(hash), params_.k), params_.k);
}

bool Counting::DeleteHash(uint64_t hash) {
  RequireWritable();
  uint64_t* block = CounterBlockAt(blocks_, hash);
  const Slots s = SlotsOf(static_cast<uint32_t>(hash), params_.k);
  if (!AllNonZero(block, s, params_.k)) return false;
  Decrement(block, s, params_.k);
  return true;
}

bool Counting::TestHash(uint64_t hash) const {
  return AllNonZero(CounterBlockAt(blocks_, hash), SlotsOf(static_cast<uint32_t>(hash), params_.k),
                    params_.k);
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
